#!/usr/bin/env bash
# Measures what the agents cost a reference web application (embedded Tomcat 10.1, HikariCP, H2): no agent, this
# agent, the Elastic APM Java agent and the OpenTelemetry Java agent, in interleaved rounds, each in its own JVM.
# See docs/benchmarks.md, section "Overhead harness".
#
#   apm-agent-benchmarks/overhead.sh --quick    # /db, 1 round, short warm-up and window (4-5 min): proves it works
#   apm-agent-benchmarks/overhead.sh --full     # /hello /db /db3, 3 rounds, warm-up until settled, 30 s windows
#                                               #   (50 min to 2.5 h); writes docs/benchmarks/overhead.md
#   options: --no-build   reuse the jars in apm-agent/target and apm-agent-benchmarks/target
#            anything else goes to the harness, e.g. --endpoints /db --rounds 5 --concurrency 32 --configs none,ours
#            (apm-agent-benchmarks/overhead.sh --help lists them)
# Quick runs write apm-agent-benchmarks/target/overhead/overhead.md, so they never replace published results.
set -euo pipefail
cd "$(dirname "$0")/.."

build=1
args=()
for a in "$@"; do
  case "$a" in
    --no-build) build=0 ;;
    *) args+=("$a") ;;
  esac
done
jar=apm-agent-benchmarks/target/benchmarks.jar
if [ "${#args[@]}" -gt 0 ] && { [ "${args[0]}" = --help ] || [ "${args[0]}" = -h ]; }; then
  sed -n '2,12p' "$0"
  [ -f "$jar" ] && java -cp "$jar" dev.apmagent.benchmark.overhead.OverheadHarness --help
  exit 0
fi

if [ "$build" = 1 ]; then
  echo "== building apm-agent/target/apm-agent.jar, $jar, reference-app.jar and target/agents/"
  ./mvnw -B -q -pl apm-agent,apm-agent-benchmarks -am package -DskipTests -Ppeer-agents
fi
version="$(sed -n 's:.*<version>\(.*\)</version>.*:\1:p' pom.xml | head -1)"
commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
if [ -n "$(git status --porcelain 2>/dev/null | grep -v '^??' || true)" ]; then commit="$commit+changes"; fi

# the harness pins itself (load generator + sink) and the application to different cores when taskset is there
exec java -Xms256m -Xmx256m -cp "$jar" dev.apmagent.benchmark.overhead.OverheadHarness \
  --our-version "$version (git $commit)" --command-line "apm-agent-benchmarks/overhead.sh $*" "${args[@]}"
