#!/usr/bin/env bash
# Pile 3D transforms against a real browser: seeded random pile metrics with 3D `transform`s
# (the seed is printed; SCROLLSTACK_SEED overrides the fixed default), a push answered with
# `linear` keyframes by scrollstackd (ephemeral port, temporary --data-dir), and every
# keyframe's matrix compared with Debian's headless chromium interpolating matrix3d(from) →
# matrix3d(to) with the Web Animations API (Playwright), within 1e-4 relative. See
# chromium_transforms.py. About 5 s once chromium and Playwright are installed; bounded at
# 110 s, every browser wait with a 10 s deadline. Prints "N passed, N failed" last.
set -uo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PATH:/opt/swift/usr/bin"
if [ ! -x /usr/bin/chromium ]; then
    SUDO=$( [ "$(id -u)" = 0 ] || echo sudo )
    $SUDO apt-get -o DPkg::Lock::Timeout=900 update -qq \
        && DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=900 install -y -qq chromium >/dev/null
fi
[ -x /usr/bin/chromium ] || { echo "skipped: chromium cannot be installed here"; exit 0; }
Scripts/pip-install.sh >/dev/null 2>&1 || true
python3 -c "import playwright.sync_api" 2>/dev/null || { echo "skipped: Playwright for Python cannot be installed here"; exit 0; }
binary=.build/debug/scrollstackd
[ -x "$binary" ] || swift build --product scrollstackd >/dev/null || { echo "cannot build scrollstackd"; echo "0 passed, 1 failed"; exit 1; }
timeout 110 python3 Scripts/checks/chromium_transforms.py "$binary" --pairs 40 "$@"
status=$?
[ "$status" -ne 124 ] || { echo "the transform check ran out of time (110 s)"; echo "0 passed, 1 failed"; exit 1; }
exit "$status"
