#!/usr/bin/env bash
# Installs the PyPI tools the checks and benchmarks use (Scripts/requirements-test.txt) into
# the python3 on PATH, when any is missing. Idempotent and quiet when all are present.
set -euo pipefail
cd "$(dirname "$0")/.."
req=Scripts/requirements-test.txt
# Checks run side by side and may all call this at once: one pip at a time (10 minutes at most).
mkdir -p .build
exec 9>.build/pip-install.lock
flock -w 600 9 || { echo "another pip install held .build/pip-install.lock for 10 minutes" >&2; exit 1; }
if ! python3 -m pip install --disable-pip-version-check --dry-run -r "$req" 2>/dev/null | grep -q "Would install"; then
    exit 0
fi
python3 -m pip install --disable-pip-version-check -q -r "$req"
