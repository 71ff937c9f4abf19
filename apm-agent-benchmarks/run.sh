#!/usr/bin/env bash
# Builds the JMH uber-jar, runs a chosen set of benchmarks, writes JMH JSON into a results directory and renders
# Markdown tables and PNG charts from it. See docs/benchmarks.md.
#
#   apm-agent-benchmarks/run.sh --smoke                 # every set, few iterations (~2 min): proves they run
#   apm-agent-benchmarks/run.sh --full                  # every set, 3 forks x 10 iterations: the published numbers
#   apm-agent-benchmarks/run.sh --full pool hotpath     # only these sets
#   options: --results DIR   where JMH JSON goes     (default apm-agent-benchmarks/target/benchmark-results/<mode>)
#            --out DIR       where tables and charts go (default docs/benchmarks for --full, <results>/report for --smoke)
#            --label TEXT    heading of the rendered files (default says which mode and that smoke is not a result)
#            --no-build      reuse apm-agent-benchmarks/target/benchmarks.jar
#            --threads "1 8" producer thread counts for the contended sets (pool, handoff)
#            --jmh-opts "-f 1 -wi 5 -w 1s -i 5 -r 1s"   forks, warm-up and measurement instead of the mode's
# Sets: pool hotpath handoff serializer reporter sql context jdbc dubbo concurrent okhttp http apache
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

mode=""
results=""
out=""
label=""
build=1
threads=""
jmh_override=""
sets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --smoke|--full) mode="${1#--}" ;;
    --results) results="$2"; shift ;;
    --out) out="$2"; shift ;;
    --label) label="$2"; shift ;;
    --no-build) build=0 ;;
    --threads) threads="$2"; shift ;;
    --jmh-opts) jmh_override="$2"; shift ;;
    pool|hotpath|handoff|serializer|reporter|sql|context|jdbc|dubbo|concurrent|okhttp|http|apache) sets+=("$1") ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
[ -n "$mode" ] || { echo "choose --smoke or --full (see --help)" >&2; exit 2; }
[ ${#sets[@]} -gt 0 ] || sets=(pool hotpath handoff serializer reporter sql context jdbc dubbo concurrent okhttp http apache)

if [ "$mode" = smoke ]; then
  jmh_opts=(-f 1 -wi 1 -w 300ms -i 2 -r 300ms)
  pool_threads=${threads:-"1 8"}
  handoff_threads=${threads:-"1 8"}
  hotpath_threads="1"
  label=${label:-"smoke check ($(date -u +%Y-%m-%d), $(nproc) cores): proves the benchmarks run, NOT results"}
else
  jmh_opts=(-f 3 -wi 10 -w 1s -i 10 -r 1s)
  pool_threads=${threads:-"1 2 8 32 64"}
  handoff_threads=${threads:-"1 2 8 32"}
  hotpath_threads="1 2 8"
  label=${label:-"full run ($(date -u +%Y-%m-%d), $(nproc) cores, $(java -version 2>&1 | head -1))"}
fi
if [ -n "$jmh_override" ]; then
  read -r -a jmh_opts <<< "$jmh_override"
  label="$label; JMH options $jmh_override"
fi
results=${results:-"$root/apm-agent-benchmarks/target/benchmark-results/$mode"}
if [ -z "$out" ]; then
  if [ "$mode" = full ]; then out="$root/docs/benchmarks"; else out="$results/report"; fi
fi
jar="$root/apm-agent-benchmarks/target/benchmarks.jar"

if [ "$build" = 1 ]; then
  echo "== building $jar"
  ./mvnw -B -q -pl apm-agent-benchmarks -am package -DskipTests
fi
[ -f "$jar" ] || { echo "missing $jar (run without --no-build)" >&2; exit 1; }
rm -rf "$results"
mkdir -p "$results"

jmh() { # name, then JMH arguments
  local name="$1"; shift
  echo "== $name"
  java -jar "$jar" "$@" "${jmh_opts[@]}" -prof gc -rf json -rff "$results/$name.json" | tee "$results/$name.log" \
    | grep -E '^# (Run progress|Parameters|Benchmark mode)' || true
}

start=$(date +%s)
for set in "${sets[@]}"; do
  case "$set" in
    pool)
      for t in $pool_threads; do
        jmh "pool-t$t" 'dev.apmagent.benchmark.pool.PoolHandoffBenchmark' -tg "$t,1"
      done ;;
    hotpath)
      for t in $hotpath_threads; do
        jmh "hotpath-t$t" 'dev.apmagent.benchmark.trace.HotPathBenchmark' -t "$t"
      done ;;
    handoff)
      for t in $handoff_threads; do
        jmh "handoff-t$t" 'dev.apmagent.report.HandoffBenchmark' -tg "$t,1"
      done ;;
    serializer) jmh serializer 'dev.apmagent.report.SerializerBenchmark' ;;
    reporter)
      jmh reporter 'dev.apmagent.benchmark.report.ReporterThroughputBenchmark'
      jmh byte-ring 'dev.apmagent.report.ByteRingBenchmark' ;;
    sql) jmh sql 'dev.apmagent.benchmark.sql.SqlSignatureBenchmark' ;;
    context) jmh context 'dev.apmagent.benchmark.context.ContextStoreBenchmark' ;;
    jdbc) jmh jdbc 'dev.apmagent.benchmark.jdbc.JdbcQueryBenchmark' ;;
    dubbo) jmh dubbo 'dev.apmagent.benchmark.dubbo.DubboCallBenchmark' ;;
    concurrent) jmh concurrent 'dev.apmagent.benchmark.concurrent.ExecutorHandoffBenchmark' ;;
    okhttp) jmh okhttp 'dev.apmagent.benchmark.okhttp.OkHttpCallBenchmark' ;;
    http) jmh http 'dev.apmagent.benchmark.http.UrlConnectionCallBenchmark' ;;
    apache) jmh apache 'dev.apmagent.benchmark.httpclient.ApacheHttpClientBenchmark' ;;
  esac
done
echo "== benchmarks took $(( $(date +%s) - start )) s; JSON in $results"

java -Djava.awt.headless=true -cp "$jar" dev.apmagent.benchmark.render.ResultsRenderer "$results" "$out" "$label"
