#!/usr/bin/env bash
# Instructions per request (valgrind --tool=callgrind) of scrollstackd binaries, side by side:
# the count the shared machine's load cannot disturb. Each binary serves --in-memory a stack
# of ROWS rows (built before collection starts); then N requests of each kind are counted:
# GET …/layout?window=visible (the same request: the answer cache's hit), the same with an
# Accept parameter that changes per request (a miss: laid out and encoded every time), and
# POST …/rows inserting one row.
#
#   Benchmarks/callgrind_request.sh BINARY [BINARY …]   (ROWS=10000 N=200 in the environment)
set -euo pipefail
rows=${ROWS:-10000} n=${N:-200}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '%-60s %12s %12s %12s\n' binary "GET (same)" "GET (varied)" "POST insert"
for binary in "$@"; do
    port=$((20000 + RANDOM % 20000))
    valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$work/out.%p" \
        "$binary" --in-memory --port "$port" --log-level warning 2>"$work/valgrind.log" &
    pid=$!
    for _ in $(seq 600); do curl -sf "127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
    python3 - "$port" "$rows" <<'PY'
import json, sys, urllib.request
port, n = int(sys.argv[1]), int(sys.argv[2])
def req(p, b):
    r = urllib.request.Request(f"http://127.0.0.1:{port}{p}", data=json.dumps(b).encode(), method="POST", headers={"Content-Type": "application/json"})
    urllib.request.urlopen(r, timeout=600).read()
req("/v1/stacks", {"id": "bench", "viewport": {"width": 375, "height": 667}})
for f in range(0, n, 5000):
    req("/v1/stacks/bench/rows", {"rows": [{"id": f"r{i}", "controller": {"type": "Cell"}, "size": {"fixed": 44}} for i in range(f, min(n, f + 5000))]})
PY
    curl -sf "127.0.0.1:$port/v1/stacks/bench/layout?window=visible" >/dev/null  # warm: the first answer
    count() {  # instructions of N requests made by "$@" (curl's --config lists them all)
        callgrind_control -z "$pid" >/dev/null 2>&1
        callgrind_control -i on "$pid" >/dev/null 2>&1
        "$@" >/dev/null
        callgrind_control -i off "$pid" >/dev/null 2>&1
        rm -f "$work"/out.*
        callgrind_control -d "$pid" >/dev/null 2>&1
        local total=0
        for f in "$work"/out.*; do
            total=$((total + $(awk '/^summary:/ {print $2}' "$f")))
        done
        echo $((total / n))
    }
    same() { for _ in $(seq "$n"); do echo "url = \"http://127.0.0.1:$port/v1/stacks/bench/layout?window=visible\""; echo "output = /dev/null"; echo next; done | sed '$d' > "$work/same.cfg"; curl -s --config "$work/same.cfg"; }
    varied() { for i in $(seq "$n"); do echo "url = \"http://127.0.0.1:$port/v1/stacks/bench/layout?window=visible\""; echo "header = \"Accept: application/json;n=$i\""; echo "output = /dev/null"; echo next; done | sed '$d' > "$work/varied.cfg"; curl -s --config "$work/varied.cfg"; }
    insert() { for _ in $(seq "$n"); do echo "url = \"http://127.0.0.1:$port/v1/stacks/bench/rows\""; echo "data = \"{\\\"rows\\\": [{\\\"view\\\": {\\\"type\\\": \\\"Cell\\\"}, \\\"size\\\": {\\\"fixed\\\": 44}}], \\\"at\\\": {\\\"index\\\": 5000}}\""; echo "header = \"Content-Type: application/json\""; echo "output = /dev/null"; echo next; done | sed '$d' > "$work/insert.cfg"; curl -s --config "$work/insert.cfg"; }
    printf '%-60s %12s %12s %12s\n' "$binary" "$(count same)" "$(count varied)" "$(count insert)"
    kill "$pid"; wait "$pid" 2>/dev/null || true
done
