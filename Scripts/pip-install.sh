#!/usr/bin/env bash
# Installs the PyPI tools the checks and benchmarks use (Scripts/requirements-test.txt) into
# the python3 on PATH, when any is missing. Idempotent and quiet when all are present.
set -euo pipefail
cd "$(dirname "$0")/.."
req=Scripts/requirements-test.txt
if ! python3 -m pip install --disable-pip-version-check --dry-run -r "$req" 2>/dev/null | grep -q "Would install"; then
    exit 0
fi
python3 -m pip install --disable-pip-version-check -q -r "$req"
