#!/usr/bin/env bash
# Builds the release scrollstackd the container ships, from the package in the current folder:
# dependencies exactly as Package.resolved pins them (an out-of-date Package.resolved is an
# error, never silently re-resolved), the Swift runtime linked statically, symbols stripped.
# Installs it as OUTDIR/scrollstackd. Extra arguments go to `swift build` (e.g. --scratch-path).
# The Dockerfile's build stage runs this; so does Scripts/checks/50-container.sh, on a folder
# holding exactly what the build stage copies.
set -euo pipefail
out=${1:?usage: build-release.sh OUTDIR [swift build arguments]}
shift
flags=(-c release --product scrollstackd --static-swift-stdlib --force-resolved-versions "$@")
swift build "${flags[@]}"
install -D -s -m 0755 "$(swift build "${flags[@]}" --show-bin-path)/scrollstackd" "$out/scrollstackd"
