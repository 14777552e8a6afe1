#!/usr/bin/env bash
# Every relative link of README.md and Docs/*.md points to a file that exists, and every
# #anchor to a heading of the file it names (doc_links.py). Needs python3.
set -uo pipefail
cd "$(dirname "$0")/../.."
command -v python3 >/dev/null || { echo "skipped: python3 is missing"; exit 0; }
exec python3 Scripts/checks/doc_links.py README.md Docs/*.md
