#!/usr/bin/env bash
# Server CPU time for one full layout of a big stack, two scrollstackd binaries side by side:
# what the streamed full-layout encoding costs, as the server process's utime+stime over
# requests fetched one at a time by curl (little disturbed by other load on a shared machine,
# unlike times to the last byte).
#
#   Benchmarks/layout_cpu.sh BASELINE_BINARY CANDIDATE_BINARY [ROWS] [REQUESTS] [RUNS] [uncached]
#
# With `uncached`, every request sends its own `Accept` parameter (the same answer, never
# from the answer cache: laid out, encoded and streamed each time); without, the same request
# is repeated (a server that keeps streamed answers sends its kept bytes).
#
# Both serve --in-memory a stack of ROWS (default 100000) fixed rows; for each of RUNS
# alternating rounds, REQUESTS (default 10) full layouts per binary. Prints the bytes of one
# answer (the same from both, checked), the median ms of CPU per layout and per row in ns,
# and candidate / baseline.
set -euo pipefail
base=$1 candidate=$2 rows=${3:-100000} requests=${4:-10} runs=${5:-3} mode=${6:-repeated}
hz=$(getconf CLK_TCK)
work=$(mktemp -d)
"$base" --in-memory --port 18911 --log-level warning 2>/dev/null & pids=($!)
"$candidate" --in-memory --port 18912 --log-level warning 2>/dev/null & pids+=($!)
trap 'kill "${pids[@]}" 2>/dev/null; rm -rf "$work"' EXIT
python3 - "$rows" "$work" <<'PY'
import json, sys
rows, work = int(sys.argv[1]), sys.argv[2]
for n, first in enumerate(range(0, rows, 10_000)):  # the body limit is 1 MiB: 10,000 rows a request
    batch = [{"id": f"b{i}", "view": {"type": "Cell"}, "size": {"fixed": 44}} for i in range(first, min(rows, first + 10_000))]
    open(f"{work}/rows-{n:04}.json", "w").write(json.dumps({"rows": batch}))
PY
for port in 18911 18912; do
    for _ in $(seq 100); do curl -sf "127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
    curl -sf -X POST "127.0.0.1:$port/v1/stacks" -H 'Content-Type: application/json' \
        -d '{"id":"big","viewport":{"width":375,"height":667}}' >/dev/null
    for batch in "$work"/rows-*.json; do
        curl -sf -X POST "127.0.0.1:$port/v1/stacks/big/rows" -H 'Content-Type: application/json' --data-binary "@$batch" >/dev/null
    done
    curl -sf "127.0.0.1:$port/v1/stacks/big/layout" -o "$work/$port.json"
done
cmp -s "$work/18911.json" "$work/18912.json" || { echo "the two binaries' answers differ" >&2; exit 1; }
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
results=("" "")
for _ in $(seq "$runs"); do
    for i in 0 1; do
        pid=${pids[$i]} port=$((18911 + i))
        before=$(ticks "$pid")
        for n in $(seq "$requests"); do
            accept=application/json
            [ "$mode" = uncached ] && accept="application/json;n=$RANDOM$n"
            curl -sf -H "Accept: $accept" "127.0.0.1:$port/v1/stacks/big/layout" -o /dev/null
        done
        after=$(ticks "$pid")
        results[$i]+="$(awk -v a="$before" -v b="$after" -v n="$requests" -v hz="$hz" 'BEGIN {printf "%.2f", (b - a) / hz * 1e3 / n}') "
    done
done
b=$(tr ' ' '\n' <<<"${results[0]}" | grep . | median)
c=$(tr ' ' '\n' <<<"${results[1]}" | grep . | median)
echo "full layout of $rows rows ($(stat -c %s "$work/18911.json") bytes, identical), $mode, $requests curl requests per run, median of $runs alternating runs"
printf '%-10s %14s %12s\n' binary "ms CPU/layout" "ns/row"
printf '%-10s %14.1f %12.0f\n' baseline "$b" "$(awk -v b="$b" -v n="$rows" 'BEGIN {print b * 1e6 / n}')"
printf '%-10s %14.1f %12.0f\n' candidate "$c" "$(awk -v c="$c" -v n="$rows" 'BEGIN {print c * 1e6 / n}')"
echo "candidate / baseline: $(awk -v b="$b" -v c="$c" 'BEGIN {printf "%.2f", c / b}')"
