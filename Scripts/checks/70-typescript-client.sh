#!/usr/bin/env bash
# The TypeScript client (Clients/typescript): its generated src/openapi.ts equals what
# generate.py makes from Docs/openapi.yaml today (the client cannot drift from the contract),
# it compiles with Debian's TypeScript in strict mode, and its tests (node:test, Debian's
# nodejs) pass against a live scrollstackd with a write token and a read token. Installs
# node-typescript and nodejs with apt when missing. Bounded to 120 s of tests. Prints
# "N passed, N failed" last. Then the plug-in sample (Clients/plugin-sample) runs in Debian's
# chromium with that compiled client (Scripts/checks/plugin_sample.py; chromium installed when
# missing).
set -uo pipefail
cd "$(dirname "$0")/../.."
binary=.build/debug/scrollstackd
[ -x "$binary" ] || { echo "skipped: $binary is not built"; exit 0; }
if ! command -v tsc >/dev/null || ! command -v node >/dev/null; then
    SUDO=$( [ "$(id -u)" = 0 ] || echo sudo )
    $SUDO apt-get -o DPkg::Lock::Timeout=900 update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=900 install -y -qq nodejs node-typescript >/dev/null
fi
command -v tsc >/dev/null && command -v node >/dev/null || { echo "skipped: nodejs and node-typescript cannot be installed here"; exit 0; }
Scripts/pip-install.sh >/dev/null 2>&1 || true

passed=0
failed=0
if python3 Clients/typescript/generate.py --check; then passed=$((passed + 1)); else failed=$((failed + 1)); fi

work=$(mktemp -d)
pid=""
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
rm -rf "$work/build"
if tsc -p Clients/typescript --outDir "$work/build"; then
    passed=$((passed + 1))
else
    echo "tsc failed"
    echo "$passed passed, $((failed + 1)) failed"
    exit 1
fi
# Node resolves the compiled ES modules by the package.json beside them ("type": "module").
cp Clients/typescript/package.json "$work/build/"

write=$(head -c 18 /dev/urandom | od -An -tx1 | tr -d ' \n')
read=$(head -c 18 /dev/urandom | od -An -tx1 | tr -d ' \n')
mkfifo "$work/log.fifo"
SCROLLSTACK_TOKENS="$write write,$read read" "$binary" --port 0 --in-memory --log-level notice 2>"$work/log.fifo" &
pid=$!
exec 3<"$work/log.fifo"
port=""
while IFS= read -r -t 10 line <&3; do
    if [[ "$line" =~ listening\ on\ http://127\.0\.0\.1:([0-9]+) ]]; then port=${BASH_REMATCH[1]}; break; fi
done
cat <&3 >/dev/null &
[ -n "$port" ] || { echo "the server did not start"; echo "$passed passed, $((failed + 1)) failed"; exit 1; }

SCROLLSTACK_URL="http://127.0.0.1:$port" SCROLLSTACK_WRITE_TOKEN="$write" SCROLLSTACK_READ_TOKEN="$read" \
    timeout 120 node --test --test-reporter=tap "$work/build/test/" | tee "$work/tap"
node_status=${PIPESTATUS[0]}
tests_passed=$(grep -cE '^ok [0-9]+' "$work/tap")
tests_failed=$(grep -cE '^not ok [0-9]+' "$work/tap")
passed=$((passed + tests_passed))
failed=$((failed + tests_failed))
[ "$node_status" -eq 0 ] || [ "$tests_failed" -gt 0 ] || failed=$((failed + 1))
kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; pid=""

if [ ! -x /usr/bin/chromium ]; then
    SUDO=$( [ "$(id -u)" = 0 ] || echo sudo )
    $SUDO apt-get -o DPkg::Lock::Timeout=900 update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=900 install -y -qq chromium >/dev/null
fi
if [ -x /usr/bin/chromium ] && python3 -c "import playwright" 2>/dev/null; then
    timeout 120 python3 Scripts/checks/plugin_sample.py "$binary" "$work/build" | tee "$work/plugin"
    plugin_status=${PIPESTATUS[0]}
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$work/plugin" | tail -1 || true)
    if [[ "$line" =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
        passed=$((passed + BASH_REMATCH[1]))
        failed=$((failed + BASH_REMATCH[2]))
        [ "$plugin_status" -eq 0 ] || [ "${BASH_REMATCH[2]}" -gt 0 ] || failed=$((failed + 1))
    else
        echo "the plug-in sample check ended without a summary (exit $plugin_status)"
        failed=$((failed + 1))
    fi
else
    echo "the plug-in sample needs chromium and Playwright, which cannot be installed here"
    failed=$((failed + 1))
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
