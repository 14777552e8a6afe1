#!/usr/bin/env bash
# Server CPU time per request of two scrollstackd binaries, side by side: what a change on the
# request path costs, measured as the server process's utime+stime over the requests wrk got
# answered (far less disturbed by other load on a shared machine than requests per second).
#
#   Benchmarks/request_cpu.sh BASELINE_BINARY CANDIDATE_BINARY [RUNS] [SECONDS]
#
# Both serve --in-memory a stack with one row; for each path, RUNS alternating wrk runs
# (-t1 -c16) per binary; prints the median µs of CPU per request and candidate / baseline.
set -euo pipefail
base=$1 candidate=$2 runs=${3:-3} seconds=${4:-4}
hz=$(getconf CLK_TCK)
"$base" --in-memory --port 18901 --log-level warning 2>/dev/null & pids=($!)
"$candidate" --in-memory --port 18902 --log-level warning 2>/dev/null & pids+=($!)
trap 'kill "${pids[@]}" 2>/dev/null' EXIT
for port in 18901 18902; do
    for _ in $(seq 50); do curl -sf "127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
    curl -sf -X POST "127.0.0.1:$port/v1/stacks" -H 'Content-Type: application/json' \
        -d '{"id":"home","rows":[{"id":"photo","view":{"type":"V"},"size":{"fixed":40}}]}' >/dev/null
done
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
echo "wrk -t1 -c16 -d${seconds}s, median of $runs alternating runs; µs of server CPU per request"
printf '%-32s %10s %10s %7s\n' path baseline candidate ratio
for path in /healthz /v1/stacks/home/rows/photo /v1/stacks/home; do
    results=("" "")
    for _ in $(seq "$runs"); do
        for i in 0 1; do
            pid=${pids[$i]} port=$((18901 + i))
            before=$(ticks "$pid")
            count=$(wrk -t1 -c16 -d"${seconds}s" "http://127.0.0.1:$port$path" | awk '/requests in/ {print $1}')
            after=$(ticks "$pid")
            results[$i]+="$(awk -v a="$before" -v b="$after" -v n="$count" -v hz="$hz" 'BEGIN {printf "%.2f", (b - a) / hz * 1e6 / n}') "
        done
    done
    b=$(tr ' ' '\n' <<<"${results[0]}" | grep . | median)
    c=$(tr ' ' '\n' <<<"${results[1]}" | grep . | median)
    printf '%-32s %10.1f %10.1f %7.2f\n' "$path" "$b" "$c" "$(awk -v b="$b" -v c="$c" 'BEGIN {print c / b}')"
done
