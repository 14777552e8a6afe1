#!/usr/bin/env bash
# Runs every curl example of README.md, Docs/Guide.md and Docs/API.md in document order, one
# fresh in-memory scrollstackd per document, and compares each answer with the one the
# document shows (conventions: doc_examples.py, and Docs/API.md, "The examples"). Needs the
# debug build (`swift build`); installs curl and python3 if missing.
set -uo pipefail
cd "$(dirname "$0")/../.."
binary=.build/debug/scrollstackd
[ -x "$binary" ] || { echo "skipped: $binary is not built"; exit 0; }
missing=()
for tool in curl python3; do command -v "$tool" >/dev/null || missing+=("$tool"); done
if [ "${#missing[@]}" -gt 0 ]; then
    SUDO=$([ "$(id -u)" -eq 0 ] || echo sudo)
    $SUDO apt-get -o DPkg::Lock::Timeout=900 install -y -qq "${missing[@]}" >/dev/null \
        || { echo "skipped: cannot install ${missing[*]}"; exit 0; }
fi
documents=(README.md)
[ -f Docs/Guide.md ] && documents+=(Docs/Guide.md)
documents+=(Docs/API.md)
exec timeout 900 python3 Scripts/checks/doc_examples.py "$binary" "${documents[@]}"
