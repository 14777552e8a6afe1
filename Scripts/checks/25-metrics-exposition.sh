#!/usr/bin/env bash
# GET /metrics parsed by Prometheus's Python client (prometheus_client, from PyPI, installed by
# Scripts/pip-install.sh): see Scripts/checks/metrics_check.py for the cases. Needs the debug
# build (`swift build`). Bounded to 120 s. Prints "N passed, N failed" last.
set -uo pipefail
cd "$(dirname "$0")/../.."
binary=.build/debug/scrollstackd
[ -x "$binary" ] || { echo "skipped: $binary is not built"; exit 0; }
Scripts/pip-install.sh || { echo "cannot install the PyPI tools (prometheus-client)"; echo "0 passed, 1 failed"; exit 1; }
timeout 120 python3 Scripts/checks/metrics_check.py "$binary"
status=$?
[ "$status" -ne 124 ] || { echo "the metrics check ran out of time (120 s)"; echo "0 passed, 1 failed"; exit 1; }
exit "$status"
