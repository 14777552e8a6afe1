#!/usr/bin/env bash
# The Swift client (Clients/swift): apple/swift-openapi-generator turns Docs/openapi.yaml into
# a client at build time (so the contract is one a real generator accepts and compiles), and
# its tests run against a live scrollstackd with a write token. A package of its own. Its build
# folder is kept per machine outside the repository (in swift-client/ under SCROLLSTACK_CACHE,
# default ~/.cache/scrollstack), as an installed package would be: the generator's tool and the
# runtime libraries, third-party code at the versions Clients/swift/Package.resolved pins, are
# compiled once per machine (about 120 CPU seconds here). The package itself (its sources, the
# contract and the generator's configuration) is copied to src/ beside that folder, file by
# file, only where a file's bytes differ: the build compiles again exactly what changed since
# the last run on this machine (the whole client when the contract changed), as it would in a
# developer's checkout, instead of everything in every fresh clone. Bounded: 900 s to build,
# 120 s to test. Prints "N passed, N failed" last.
set -uo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PATH:/opt/swift/usr/bin"
binary=.build/debug/scrollstackd
[ -x "$binary" ] || { echo "skipped: $binary is not built"; exit 0; }
command -v swift >/dev/null || { echo "skipped: swift is not installed"; exit 0; }

scratch=${SCROLLSTACK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/scrollstack}/swift-client
package=$scratch/src
mkdir -p "$scratch" "$package"
# One run at a time on the machine uses the folder (two clones' checks would rewrite src/ under each other).
exec 8>"$scratch/lock"
flock -w 900 8 || { echo "another run held $scratch/lock for 15 minutes"; echo "0 passed, 1 failed"; exit 1; }
(cd Clients/swift && find -L . -path ./.build -prune -o -type f -printf '%P\0') | Scripts/mirror.sh Clients/swift "$package" \
    || { echo "could not copy the package to $package"; echo "0 passed, 1 failed"; exit 1; }
build=(--package-path "$package" --scratch-path "$scratch")
if ! timeout 900 swift build "${build[@]}" --build-tests > /tmp/scrollstack-swift-client-build.log 2>&1; then
    grep -E "error:" /tmp/scrollstack-swift-client-build.log | head -20
    tail -5 /tmp/scrollstack-swift-client-build.log
    echo "the Swift client did not build"
    echo "0 passed, 1 failed"
    exit 1
fi

work=$(mktemp -d)
pid=""
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
token=$(head -c 18 /dev/urandom | od -An -tx1 | tr -d ' \n')
mkfifo "$work/log.fifo"
SCROLLSTACK_TOKENS="$token write" "$binary" --port 0 --in-memory --log-level notice 2>"$work/log.fifo" &
pid=$!
exec 3<"$work/log.fifo"
port=""
while IFS= read -r -t 10 line <&3; do
    if [[ "$line" =~ listening\ on\ http://127\.0\.0\.1:([0-9]+) ]]; then port=${BASH_REMATCH[1]}; break; fi
done
cat <&3 >/dev/null &
[ -n "$port" ] || { echo "the server did not start"; echo "0 passed, 1 failed"; exit 1; }

SCROLLSTACK_URL="http://127.0.0.1:$port" SCROLLSTACK_WRITE_TOKEN="$token" \
    timeout 120 swift test "${build[@]}" --skip-build 2>&1 | tee "$work/log"
status=${PIPESTATUS[0]}
summary=$(grep -E "Executed [0-9]+ tests?, with [0-9]+ failures?" "$work/log" | tail -1)
skipped=$(grep -cE "Test Case .* skipped" "$work/log")
if [ -z "$summary" ]; then echo "no XCTest summary (exit $status)"; echo "0 passed, 1 failed"; exit 1; fi
total=$(sed -E 's/.*Executed ([0-9]+) tests?.*/\1/' <<<"$summary")
failed=$(sed -E 's/.*with ([0-9]+) failures?.*/\1/' <<<"$summary")
# A skipped test here means the server's address did not reach it: a failure, not a pass.
failed=$((failed + skipped))
passed=$((total - failed))
[ "$status" -eq 0 ] || [ "$failed" -gt 0 ] || failed=1
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
