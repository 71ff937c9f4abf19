#!/usr/bin/env bash
# Heap after GC of the demo under the agent before, during and after an APM Server outage (docs/benchmarks.md,
# "The byte ring during an outage"). The stand-in server is a few lines of Python that accept the intake (202) and can
# be stopped and started again on the same port; the load is wrk on /hello.
#   apm-agent-benchmarks/ring-outage.sh [agent.jar] [max_buffer_size] [-Xmx]
set -euo pipefail
cd "$(dirname "$0")/.."
JAR=${1:-apm-agent/target/apm-agent.jar}
BUFFER=${2:-32mb}
XMX=${3:-256m}
PORT=${PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
OUT=$(mktemp -d /tmp/ring-outage.XXXXXX)

cat > "$OUT/sink.py" <<'PY'
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
class Intake(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_POST(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            while True:
                size = int(self.rfile.readline().split(b";")[0], 16)
                self.rfile.read(size + 2)
                if size == 0:
                    break
        else:
            self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.send_response(202)
        self.send_header("Content-Length", "0")
        self.end_headers()
    def log_message(self, *args):
        pass
ThreadingHTTPServer.allow_reuse_address = True
ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Intake).serve_forever()
PY

sink_up() { python3 "$OUT/sink.py" "$PORT" 3>&- & SINK=$!; sleep 1; }
sink_down() { kill "$SINK" 2>/dev/null || true; wait "$SINK" 2>/dev/null || true; }
DEMO= SINK=
trap 'kill $DEMO $SINK 2>/dev/null || true' EXIT
heap() { # heap in use after two full GCs, as jcmd GC.heap_info prints it
    jcmd "$DEMO" GC.run > /dev/null; jcmd "$DEMO" GC.run > /dev/null
    jcmd "$DEMO" GC.heap_info | tee -a "$OUT/heap_info.txt" | grep -m1 -o 'used [0-9]*K'
}
buffered() { grep 'reporter: produced' "$OUT/agent.log" | tail -1 | grep -o ' evicted=[0-9]*\| buffered=[0-9]*\| ring_[a-z_]*=[0-9]*' | tr -d '\n'; }

sink_up
mkfifo "$OUT/stdin"
java -Xmx"$XMX" -javaagent:"$JAR"=server_url=http://127.0.0.1:$PORT,max_buffer_size=$BUFFER,log_file=$OUT/agent.log,log_level=debug,reporter_stats_log_interval=2s,metrics_interval=0 \
    -jar target/apm-agent-demo.jar serve < "$OUT/stdin" > "$OUT/demo.out" 2>&1 &
DEMO=$!
exec 3> "$OUT/stdin"
until grep -q 'demo listening on' "$OUT/demo.out"; do sleep 0.5; done
URL=$(grep -o 'http://127.0.0.1:[0-9]*' "$OUT/demo.out" | head -1)

wrk -t1 -c4 -d20s "$URL/hello" > /dev/null            # warm-up with the server up
sleep 3
echo "server up, after load:      $(heap)   $(buffered)"
sink_down
wrk -t1 -c1 -d1s "$URL/hello" | grep Requests/sec
sleep 3
echo "server down, 1 s of load:   $(heap)   $(buffered)"
wrk -t1 -c4 -d5s "$URL/hello" | grep Requests/sec
sleep 3
echo "server down, 6 s of load:   $(heap)   $(buffered)"
wrk -t1 -c4 -d30s "$URL/hello" | grep Requests/sec
sleep 3
echo "server down, 36 s of load:  $(heap)   $(buffered)"
sink_up
sleep 45                                              # the sender's back-off is at most 36 s
echo "server back for 45 s:       $(heap)   $(buffered)"
grep 'WARN' "$OUT/agent.log" || true
exec 3>&-
wait "$DEMO" || true
sink_down
echo "files in $OUT"
