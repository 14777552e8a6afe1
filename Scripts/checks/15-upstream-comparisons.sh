#!/usr/bin/env bash
# Seeded random comparisons against reference models of the upstream libraries (Parchment's
# menu, CustomPageableCollectionView's page offsets, UIPageControl's size, Pile's view stack,
# ScrollStackController's row animator), over HTTP: UpstreamComparisonTests, at least 2,000
# cases. Prints the seed (SCROLLSTACK_SEED=<n> runs another) and, last,
# "N passed, N failed" counting the cases. Needs the package built (`swift build --build-tests`).
set -uo pipefail
cd "$(dirname "$0")/../.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT
timeout 600 swift test --skip-build --disable-swift-testing --filter UpstreamComparisonTests 2>&1 | tee "$log" >/dev/null
status=${PIPESTATUS[0]}
grep -E "^upstream comparisons|^  [A-Za-z]" "$log"
line=$(grep -E "^upstream comparisons \(seed [0-9]+\): [0-9]+ passed, [0-9]+ failed" "$log" | tail -1)
if [ -z "$line" ]; then
    echo "the comparison test printed no count (swift test exited with status $status)"
    echo "0 passed, 1 failed"
    exit 1
fi
counts=$(sed -E 's/.*: ([0-9]+ passed, [0-9]+ failed).*/\1/' <<<"$line")
echo "$counts"
[ "$status" -eq 0 ]
