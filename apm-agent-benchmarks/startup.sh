#!/usr/bin/env bash
# Start-up of the reference application (embedded Tomcat, HikariCP, H2) under one or more agent jars, on one core:
# milliseconds from `java` to the first 200 on GET /hello, polled every 5 ms, the configurations interleaved so that
# the machine's drift spreads over all of them. Prints median, mean, min and max per configuration.
#
#   apm-agent-benchmarks/startup.sh [--runs N] [--jvm-args "ARGS"] CONFIG...
#     CONFIG    none (no agent) or the path of an agent jar (run with this project's flags: a server_url nobody
#               listens on, log_level=warn)
#     --runs    runs per configuration (default 8)
#     --jvm-args  extra JVM arguments for every run, e.g. "-XX:TieredStopAtLevel=1"
#
# Needs apm-agent-benchmarks/target/reference-app.jar (./mvnw -B -pl apm-agent,apm-agent-benchmarks -am package
# -DskipTests), taskset and curl. Used for the start-up figures in docs/benchmarks.md; the overhead harness measures
# start-up too, once per configuration and round.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=8
jvm_args=""
configs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --jvm-args) jvm_args="$2"; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) configs+=("$1"); shift ;;
  esac
done
[ "${#configs[@]}" -gt 0 ] || { sed -n '2,14p' "$0"; exit 2; }
app=apm-agent-benchmarks/target/reference-app.jar
[ -f "$app" ] || { echo "missing $app: build it first (see --help)" >&2; exit 2; }
for c in "${configs[@]}"; do
  [ "$c" = none ] || [ -f "$c" ] || { echo "no such agent jar: $c" >&2; exit 2; }
done

port=18089
log="$(mktemp)"
trap 'rm -f "$log"' EXIT

# one start: prints the milliseconds to the first 200
start_once() {
  local agent=()
  if [ "$1" != none ]; then
    agent=("-javaagent:$1" "-Delastic.apm.server_url=http://127.0.0.1:1" "-Delastic.apm.log_level=warn")
  fi
  local begin end pid
  begin=$(date +%s%N)
  # shellcheck disable=SC2086
  taskset -c 0 java $jvm_args "${agent[@]}" -jar "$app" "$port" >"$log" 2>&1 &
  pid=$!
  until [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "http://127.0.0.1:$port/hello" || true)" = 200 ]; do
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "the application exited before serving /hello; its output:" >&2
      cat "$log" >&2
      exit 1
    fi
    sleep 0.005
  done
  end=$(date +%s%N)
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  echo $(((end - begin) / 1000000))
}

declare -A times
for _ in $(seq 1 "$runs"); do
  for c in "${configs[@]}"; do
    times[$c]="${times[$c]:-} $(start_once "$c")"
    sleep 0.3
  done
done
for c in "${configs[@]}"; do
  # shellcheck disable=SC2086
  printf '%s\n' ${times[$c]} | sort -n | awk -v name="$c" '
    { t[NR] = $1; sum += $1 }
    END {
      median = (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
      printf "%-40s median %5d ms  mean %5d  min %5d  max %5d  (%d runs)\n", name, median, sum / NR, t[1], t[NR], NR
    }'
done
