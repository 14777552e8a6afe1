#!/usr/bin/env bash
# Content measurement against a real browser: random content trees from a fixed seed, laid
# out by scrollstackd (?content=frames) and, as the CSS of Docs/Semantics.md, by Debian's
# headless chromium (Playwright) with the same font files; every box, and every text line's
# box, within 1/64 pt; plus text cases on both sides of the widths where the service's line
# count changes; and the tail ellipsis of clamped text, screenshot against screenshot. See
# chromium_layout.py, chromium_text.py and chromium_ellipsis.py.
set -euo pipefail
cd "$(dirname "$0")/../.."
SUDO=$( [ "$(id -u)" = 0 ] || echo sudo )
if [ ! -x /usr/bin/chromium ]; then
    $SUDO apt-get -o DPkg::Lock::Timeout=900 update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=900 install -y -qq chromium
fi
[ -x /usr/bin/chromium ] || { echo "skipped: chromium cannot be installed here"; exit 0; }
Scripts/pip-install.sh
binary=.build/debug/scrollstackd
[ -x "$binary" ] || swift build --product scrollstackd
SEED=${CHROMIUM_LAYOUT_SEED:-${SCROLLSTACK_SEED:-20261123}}
# Both scripts end with "N passed, N failed"; this check's own last line is their sum.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
timeout 600 python3 Scripts/checks/chromium_layout.py --binary "$binary" --seed "$SEED" --cases 1500 --thresholds 100 --text "$@" | tee "$log" || status=1
layout=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -1 || true)
timeout 600 python3 Scripts/checks/chromium_ellipsis.py --binary "$binary" --seed "$SEED" --cases 200 | tee "$log" || status=1
ellipsis=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -1 || true)
passed=0
failed=0
for line in "$layout" "$ellipsis"; do
    if [[ "$line" =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
        passed=$((passed + BASH_REMATCH[1]))
        failed=$((failed + BASH_REMATCH[2]))
    else
        failed=$((failed + 1))
    fi
done
[ "$status" -eq 0 ] || [ "$failed" -gt 0 ] || failed=1
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
