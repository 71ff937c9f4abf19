#!/usr/bin/env bash
# Start-up of the reference application (embedded Tomcat, HikariCP, H2) under one or more agent jars, on one core
# (or the cores --cpus names):
# milliseconds from `java` to the first 200 on GET /hello, polled every 5 ms, the configurations interleaved so that
# the machine's drift spreads over all of them. Prints median, mean, min and max per configuration.
#
#   apm-agent-benchmarks/startup.sh [--runs N] [--cpus LIST] [--jvm-args "ARGS"] CONFIG...
#     CONFIG    none (no agent) or the path of an agent jar (run with this project's flags: a server_url nobody
#               listens on, log_level=warn)
#     --runs    runs per configuration (default 8)
#     --cpus    the CPUs the application may run on, as taskset -c takes them (default 0: one core; 0-1: two)
#     --jvm-args  extra JVM arguments for every run, e.g. "-XX:TieredStopAtLevel=1"
#
# Needs apm-agent-benchmarks/target/reference-app.jar (./mvnw -B -pl apm-agent,apm-agent-benchmarks -am package
# -DskipTests), taskset and curl. Used for the start-up figures in docs/benchmarks.md; the overhead harness measures
# start-up too, once per configuration and round.
set -euo pipefail
here="$(pwd)"
script="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
cd "$(dirname "$script")/.."

runs=8
cpus=0
jvm_args=""
configs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --cpus) cpus="$2"; shift 2 ;;
    --jvm-args) jvm_args="$2"; shift 2 ;;
    -h|--help) sed -n '2,16p' "$script"; exit 0 ;;
    none) configs+=(none); shift ;;
    /*) configs+=("$1"); shift ;;
    *) configs+=("$here/$1"); shift ;; # a jar path relative to where the script was started
  esac
done
[ "${#configs[@]}" -gt 0 ] || { sed -n '2,16p' "$script"; exit 2; }
app=apm-agent-benchmarks/target/reference-app.jar
[ -f "$app" ] || { echo "missing $app: build it first (see --help)" >&2; exit 2; }
for c in "${configs[@]}"; do
  [ "$c" = none ] || [ -f "$c" ] || { echo "no such agent jar: $c" >&2; exit 2; }
done

port=18089
timeout_seconds=120
log="$(mktemp)"
pid=""
# never leave an application behind: a later run would find it answering on the port and time nothing
trap 'if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; fi; rm -f "$log"' EXIT
trap 'exit 130' INT TERM
command -v curl >/dev/null || { echo "curl is needed" >&2; exit 2; }
command -v taskset >/dev/null || { echo "taskset is needed" >&2; exit 2; }

answers() {
  [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "http://127.0.0.1:$port/hello" || true)" = 200 ]
}

# one start: sets $elapsed to the milliseconds to the first 200 (not in a subshell, so the trap knows $pid)
start_once() {
  local agent=() begin end deadline
  if [ "$1" != none ]; then
    agent=("-javaagent:$1" "-Delastic.apm.server_url=http://127.0.0.1:1" "-Delastic.apm.log_level=warn")
  fi
  if answers; then
    echo "something already answers on port $port; stop it first" >&2
    exit 1
  fi
  begin=$(date +%s%N)
  deadline=$((begin + timeout_seconds * 1000000000))
  # shellcheck disable=SC2086
  taskset -c "$cpus" java $jvm_args ${agent[@]+"${agent[@]}"} -jar "$app" "$port" >"$log" 2>&1 &
  pid=$!
  until answers; do
    if ! kill -0 "$pid" 2>/dev/null || [ "$(date +%s%N)" -gt "$deadline" ]; then
      echo "the application did not serve /hello (exited, or not within ${timeout_seconds} s); its output:" >&2
      cat "$log" >&2
      exit 1
    fi
    sleep 0.005
  done
  end=$(date +%s%N)
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  pid=""
  elapsed=$(((end - begin) / 1000000))
}

declare -A times
for _ in $(seq 1 "$runs"); do
  for c in "${configs[@]}"; do
    start_once "$c"
    times[$c]="${times[$c]:-} $elapsed"
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
