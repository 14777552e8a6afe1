#!/usr/bin/env bash
# Runs every test of the project (already built) and ends with one summary line,
# "N passed, N failed":
#   1. every XCTest of the package, in parallel (counts from the xUnit report; with arguments,
#      serially, counts from XCTest's own closing line);
#   2. every executable Scripts/checks/*.sh, SCROLLSTACK_CHECK_JOBS (default 3) at a time: each
#      is a self-contained check (browser, container, contract …) that installs what it needs,
#      bounds its own time, and prints as its last line either "N passed, N failed" or
#      "skipped: <reason>". The container check, the longest (a release build of its own) and
#      the only one that needs no debug build, starts with the XCTests and holds one slot.
#      Three at a time: with two, the checks after the XCTests left about a fifth of two cores
#      idle (schemathesis runs for a fixed time; the browser checks and podman wait).
# Each part's wall-clock seconds are printed after it, and all of them again at the end.
# Arguments are passed to `swift test` (e.g. --filter); with a filter the checks are skipped.
set -uo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
xml=$(mktemp --suffix=.xml)
outputs=$(mktemp -d)
declare -A running=() began=()
# On any exit: stop the checks still running (each leads a process group of its own), and
# remove the temporary files.
cleanup() {
    local pid
    for pid in "${!running[@]}"; do kill -- -"$pid" 2>/dev/null; done
    rm -rf "$log" "$xml" "$outputs"
}
trap cleanup EXIT
started=$SECONDS
jobs=${SCROLLSTACK_CHECK_JOBS:-3}
early=Scripts/checks/50-container.sh

# start CHECK: runs it in the background, in a session of its own, its output kept for `finish`.
start() {
    local name
    name=$(basename "$1" .sh)
    began[$name]=$SECONDS
    setsid "$1" >"$outputs/$name.log" 2>&1 &
    running[$!]=$1
}

# finish PID STATUS: prints the check's output and adds its counts.
finish() {
    local check=${running[$1]} cstatus=$2 name last
    name=$(basename "$check" .sh)
    unset "running[$1]"
    echo "=== $check"
    cat "$outputs/$name.log"
    echo "=== $check: $((SECONDS - began[$name])) s"
    times="$times; $name $((SECONDS - began[$name])) s"
    last=$(grep -v -E '^[[:space:]]*$' "$outputs/$name.log" | tail -1)
    if [[ "$last" =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed ]]; then
        passed=$((passed + BASH_REMATCH[1]))
        failed=$((failed + BASH_REMATCH[2]))
        [ "$cstatus" -eq 0 ] || [ "${BASH_REMATCH[2]}" -gt 0 ] || failed=$((failed + 1))
    elif [[ "$last" =~ ^skipped: ]] && [ "$cstatus" -eq 0 ]; then
        echo "($check $last)"
    else
        echo "$check: no summary line (exit $cstatus)"
        failed=$((failed + 1))
    fi
}

checks_started=$SECONDS
if [ "$#" -eq 0 ] && [ "$jobs" -ge 2 ] && [ -x "$early" ]; then
    start "$early"
fi

if [ "$#" -eq 0 ]; then
    # Every XCTest, each in a process of its own, one worker per core and one more (many tests
    # wait on servers, disks and child processes): the counts come from the xUnit report,
    # since parallel runs print no closing "Executed" line.
    workers=${SCROLLSTACK_TEST_WORKERS:-$(( $(nproc) + 1 ))}
    swift test --skip-build --disable-swift-testing --parallel --num-workers "$workers" --xunit-output "$xml" 2>&1 | tee "$log"
    status=${PIPESTATUS[0]}
    read -r total failed < <(python3 - "$xml" <<'PY'
import sys, xml.etree.ElementTree as ET
try:
    suites = ET.parse(sys.argv[1]).getroot().iter("testsuite")
    cases = [c for s in suites for c in s.iter("testcase")]
    failed = sum(1 for c in cases if c.find("failure") is not None or c.find("error") is not None)
    print(len(cases), failed)
except (OSError, ET.ParseError):
    print("0 0")
PY
)
    summary=$([ "$total" -gt 0 ] && echo "$total tests in the xUnit report")
else
    swift test --skip-build --disable-swift-testing "$@" 2>&1 | tee "$log"
    status=${PIPESTATUS[0]}
    summary=$(grep -E "^[[:space:]]*Executed [0-9]+ tests?, with [0-9]+ failures?" "$log" | tail -1)
    total=$(sed -E 's/.*Executed ([0-9]+) tests?.*/\1/' <<<"$summary")
    failed=$(sed -E 's/.*with ([0-9]+) failures?.*/\1/' <<<"$summary")
fi
times="XCTest $((SECONDS - started)) s"
if [ -z "$summary" ]; then
    # Killed (a signal: status 128+N) or crashed before XCTest could sum up.
    echo "no XCTest summary found (swift test exited with status $status$([ "$status" -gt 128 ] && echo ", signal $((status - 128))"))"
    exit 1
fi
passed=$((total - failed))
[ "$status" -eq 0 ] || [ "$failed" -gt 0 ] || failed=1
echo "XCTest: $passed passed, $failed failed"

if [ "$#" -eq 0 ]; then
    # The rest of the checks, in the slots left: each check bounds its own time and shares
    # nothing with another (ephemeral ports, its own scratch folders and clusters), and most of
    # them wait on a server, a browser or a single-threaded compiler more than they compute.
    # The longest start first (named below, measured), the rest in name order. Each check's
    # output is printed whole when it ends, between two "===" lines.
    first=(50-container 30-fuzz-smoke 60-schemathesis 75-swift-client 40-chromium-layout 65-chaos)
    queue=()
    for name in "${first[@]}"; do [ -x "Scripts/checks/$name.sh" ] && queue+=("Scripts/checks/$name.sh"); done
    for check in Scripts/checks/*.sh; do
        [ -x "$check" ] && [[ " ${queue[*]} " != *" $check "* ]] && queue+=("$check")
    done
    for check in "${queue[@]}" ""; do
        [ -n "${began[$(basename "${check:-none}" .sh)]:-}" ] && continue   # started early
        # Wait for a free slot (or, after the last check, for every check to end).
        while [ "${#running[@]}" -ge "$jobs" ] || { [ -z "$check" ] && [ "${#running[@]}" -gt 0 ]; }; do
            wait -n -p ended "${!running[@]}"
            cstatus=$?
            finish "$ended" "$cstatus"
        done
        [ -n "$check" ] || break
        start "$check"
    done
    times="$times; checks $((SECONDS - checks_started)) s, with the XCTests ($jobs at a time)"
fi
echo "seconds: $times"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
