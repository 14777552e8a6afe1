#!/usr/bin/env bash
# Builds release and runs the HTTP benchmark (wrk against scrollstackd, nginx as the ceiling).
# Usage: Benchmarks/run.sh [--rows N] [--duration S] [--runs K] [--connections C]
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
need=()
command -v wrk >/dev/null || need+=(wrk)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || need+=(nginx)
if [ ${#need[@]} -gt 0 ]; then
    SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
    $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}"
fi
swift build -c release --product scrollstackd >/dev/null
exec python3 Benchmarks/http_bench.py --binary "$(swift build -c release --show-bin-path)/scrollstackd" "$@"
