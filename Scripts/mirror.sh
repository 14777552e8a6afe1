#!/usr/bin/env bash
# mirror.sh FROM TO: makes folder TO hold the files named on stdin (paths relative to FROM,
# each ended by a NUL byte), links followed. A file is rewritten only when its bytes differ,
# so unchanged files keep their times and an incremental build in TO skips them; files under
# TO that are not named are removed (its .build folder, if any, is left alone). For checks that
# keep a build per machine outside the clone: a fresh clone then compiles only what changed
# since the machine's last run. O(total bytes named).
set -euo pipefail
from=$1
to=$2
mkdir -p "$to"
declare -A named=()
while IFS= read -r -d '' file; do
    named[$file]=1
    if ! cmp -s "$from/$file" "$to/$file"; then
        mkdir -p "$to/$(dirname "$file")"
        rm -f "$to/$file"
        cp -L "$from/$file" "$to/$file"
    fi
done
while IFS= read -r -d '' file; do
    [ -n "${named[$file]+set}" ] || rm -f "$to/$file"
done < <(cd "$to" && find . -path ./.build -prune -o -type f -printf '%P\0')
