#!/usr/bin/env bash
# What a person looks at, in a real browser: Debian's chromium, headless, driven by Playwright
# for Python (pointed at /usr/bin/chromium; Playwright never downloads a browser here). Renders
# the layout SVG (and checks it with rsvg-convert), compares it pixel by pixel with the PNG
# the server draws with Cairo (a stated anti-aliasing tolerance), opens the viewer, scrolls it with wheel,
# drag and keys, and changes the stack over the API to see the page follow. See
# Scripts/checks/browser_check.py for the cases. Every wait has a deadline.
# Prints "N passed, N failed" last; exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PATH:/opt/swift/usr/bin"

apt_install() {
    local sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get -o DPkg::Lock::Timeout=900 update -qq \
        && DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=900 install -y -qq "$@" >/dev/null
}
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v rsvg-convert >/dev/null || missing+=(librsvg2-bin)
if [ "${#missing[@]}" -gt 0 ]; then
    apt_install "${missing[@]}" || { echo "cannot install ${missing[*]}"; echo "0 passed, 1 failed"; exit 1; }
fi
Scripts/pip-install.sh || { echo "cannot install the PyPI tools (playwright)"; echo "0 passed, 1 failed"; exit 1; }
binary=.build/debug/scrollstackd
[ -x "$binary" ] || swift build --product scrollstackd >/dev/null || { echo "cannot build scrollstackd"; echo "0 passed, 1 failed"; exit 1; }
timeout 300 python3 Scripts/checks/browser_check.py "$binary"
status=$?
[ "$status" -ne 124 ] || { echo "the browser check ran out of time (300 s)"; echo "0 passed, 1 failed"; exit 1; }
exit "$status"
