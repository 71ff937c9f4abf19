#!/usr/bin/env bash
# CPU time and context switches per thread group of the reference application under wrk, for the per-request
# breakdown in docs/benchmarks.md ("Where the time goes now") and the drop counts without pinning.
#
#   apm-agent-benchmarks/per-thread.sh JAR|none ENDPOINT SECONDS [wrk arguments...]
#   env: CONC (connections, 16), WARM (warm-up seconds, 15), NOPIN=1 (no taskset), EXTRA (more agent flags, e.g.
#        "-Delastic.apm.log_level=debug -Delastic.apm.max_queue_size=512": the agent's counters at shutdown are printed)
# Needs wrk and the jars of `apm-agent-benchmarks/overhead.sh` (reference-app.jar, benchmarks.jar for the sink).
set -euo pipefail
cd "$(dirname "$0")/.."
jar=$1; endpoint=$2; seconds=$3; shift 3
pin_app=(taskset -c 0); pin_load=(taskset -c 1)
if [ "${NOPIN:-0}" = 1 ]; then pin_app=(); pin_load=(); fi
sink_port=18200; app_port=18080
"${pin_load[@]}" java -cp apm-agent-benchmarks/target/benchmarks.jar dev.apmagent.benchmark.overhead.TelemetrySink $sink_port > /tmp/per-thread-sink.out 2>&1 &
sink=$!
trap 'kill $sink 2>/dev/null || true' EXIT
sleep 1
agent=()
if [ "$jar" != none ]; then
  agent=(-javaagent:"$jar" -Delastic.apm.server_url=http://127.0.0.1:$sink_port -Delastic.apm.service_name=reference-app
         -Delastic.apm.metrics_interval=30s ${EXTRA:-})
fi
"${pin_app[@]}" java -Xms512m -Xmx512m "${agent[@]}" -jar apm-agent-benchmarks/target/reference-app.jar $app_port "${CONC:-16}" > /tmp/per-thread-app.out 2>&1 &
app=$!
for _ in $(seq 100); do curl -s localhost:$app_port/hello > /dev/null && break; sleep 0.2; done
"${pin_load[@]}" wrk -t1 -c"${CONC:-16}" -d"${WARM:-15}"s "$@" http://127.0.0.1:$app_port"$endpoint" > /dev/null
snap() { # thread name, utime, stime, voluntary and involuntary context switches
  for t in /proc/$app/task/*; do
    st=($(sed 's/.*) //' "$t/stat"))
    echo "$(cat "$t/comm") ${st[11]} ${st[12]} $(awk '/^voluntary_ctxt/{v=$2} /^nonvoluntary_ctxt/{n=$2} END{print v, n}' "$t/status")"
  done
}
snap > /tmp/per-thread-0
"${pin_load[@]}" wrk -t1 -c"${CONC:-16}" -d"${seconds}"s "$@" http://127.0.0.1:$app_port"$endpoint" | grep "requests in"
snap > /tmp/per-thread-1
kill $app; wait $app 2>/dev/null || true
grep -h "reporter closed" /tmp/per-thread-app.out || true
python3 - <<'PY'
import collections
def read(f):
    d = collections.defaultdict(lambda: [0, 0, 0, 0])
    for line in open(f):
        p = line.split()
        name = " ".join(p[:-4])
        g = "apm-reporter" if name.startswith("apm-reporter") else "apm-sender" if name.startswith("apm-sender") \
            else "request threads" if "exec" in name else name
        for i in range(4):
            d[g][i] += int(p[-4 + i])
    return d
a, b = read("/tmp/per-thread-0"), read("/tmp/per-thread-1")
print(f"{'thread group':28s} {'utime':>6s} {'stime':>6s} {'%cpu':>6s} {'vol-cs':>8s} {'invol-cs':>8s}")
total = sum(b[g][0] + b[g][1] - a[g][0] - a[g][1] for g in b)
for g in sorted(b, key=lambda g: -(b[g][0] + b[g][1] - a[g][0] - a[g][1])):
    u, s = b[g][0] - a[g][0], b[g][1] - a[g][1]
    if u + s:
        print(f"{g[:28]:28s} {u:6d} {s:6d} {100 * (u + s) / max(total, 1):6.1f} {b[g][2] - a[g][2]:8d} {b[g][3] - a[g][3]:8d}")
print("total ticks", total, "(divide by the requests above and by the clock ticks per second, 100, for CPU per request)")
PY
