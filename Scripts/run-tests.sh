#!/usr/bin/env bash
# Runs every XCTest of the package (already built) and ends with one summary line,
# "N passed, N failed", taken from XCTest's own closing count.
set -uo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT
swift test --skip-build --disable-swift-testing "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
summary=$(grep -E "^[[:space:]]*Executed [0-9]+ tests?, with [0-9]+ failures?" "$log" | tail -1)
if [ -z "$summary" ]; then
    echo "no XCTest summary found"
    exit 1
fi
total=$(sed -E 's/.*Executed ([0-9]+) tests?.*/\1/' <<<"$summary")
failed=$(sed -E 's/.*with ([0-9]+) failures?.*/\1/' <<<"$summary")
echo "$((total - failed)) passed, $failed failed"
[ "$status" -eq 0 ] && [ "$failed" -eq 0 ]
