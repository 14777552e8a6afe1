#!/usr/bin/env bash
# Runs a replica check N times in a row (default: the chaos check, Scripts/checks/65-chaos.sh,
# run i with SCROLLSTACK_SEED = base + i, base SCROLLSTACK_SEED or 20261123) and prints how
# many passed and the seeds of those that failed (SCROLLSTACK_SEED=that seed replays one).
#   Scripts/loop-replicas.sh [N] [CHECK]      e.g. Scripts/loop-replicas.sh 20
#                                                  Scripts/loop-replicas.sh 5 Scripts/checks/60-postgres.sh
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10}
check=${2:-Scripts/checks/65-chaos.sh}
passed=0
failing=()
for i in $(seq 1 "$runs"); do
    log=$(mktemp)
    if SCROLLSTACK_SEED=$((${SCROLLSTACK_SEED:-20261123} + i)) "$check" >"$log" 2>&1; then
        passed=$((passed + 1))
    else
        seed=$(grep -m1 -o '^seed [0-9]*' "$log" | cut -d' ' -f2)
        failing+=("${seed:-unknown}")
        echo "run $i failed (seed ${seed:-unknown}):"
        grep -E '^FAIL' "$log" | head -n 5
    fi
    echo "run $i: $(tail -n 1 "$log")"
    rm -f "$log"
done
echo "$passed of $runs runs passed"
[ ${#failing[@]} -eq 0 ] || echo "failing seeds: ${failing[*]}"
[ "$passed" -eq "$runs" ]
