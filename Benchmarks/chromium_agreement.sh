#!/usr/bin/env bash
# The long run of the Chromium comparison (Scripts/checks/40-chromium-layout.sh runs a fixed
# seed in `make test`): random content trees (boxes, aspect ratios, nested groups, text in
# Inter and DejaVu Sans) from a random seed (printed), laid out by scrollstackd and by headless
# chromium, every box and every text line's box compared, plus text cases on both sides of
# the service's line-count thresholds (--thresholds pairs); prints
# "<cases> cases, <mismatches> mismatches (seed S)".
# Usage: Benchmarks/chromium_agreement.sh [--cases N] [--thresholds N] [--seed S]
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
Scripts/pip-install.sh
swift build --product scrollstackd >/dev/null
exec python3 Scripts/checks/chromium_layout.py --binary "$(swift build --show-bin-path)/scrollstackd" --text --cases 2500 --thresholds 250 --batch 250 "$@"
