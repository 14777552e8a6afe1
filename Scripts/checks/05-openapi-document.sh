#!/usr/bin/env bash
# The contract the binary serves (GET /openapi.yaml, GET /openapi.json) is generated from
# Docs/openapi.yaml into Sources/ScrollStackService/Discovery/OpenAPIDocument.swift by
# Scripts/generate-openapi-document.py. This check fails when that file is stale, i.e. not
# exactly what the script writes from the current Docs/openapi.yaml (the YAML byte for byte,
# the JSON from the same document). Fix: python3 Scripts/generate-openapi-document.py
set -uo pipefail
cd "$(dirname "$0")/../.."
python3 -c "import yaml" 2>/dev/null || Scripts/pip-install.sh >/dev/null 2>&1 || true
python3 -c "import yaml" 2>/dev/null || { echo "skipped: PyYAML cannot be installed"; exit 0; }
if python3 Scripts/generate-openapi-document.py --check; then
    echo "1 passed, 0 failed"
else
    echo "0 passed, 1 failed"
    exit 1
fi
