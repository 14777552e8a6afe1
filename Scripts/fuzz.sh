#!/usr/bin/env bash
# Builds the libFuzzer targets (Fuzz/Package.swift) with -sanitize=fuzzer,address in
# .build-fuzz and runs each for a bounded time on its seed corpus (Fuzz/corpus/<target>; what
# libFuzzer adds goes to .build-fuzz/corpus/<target>, crashes to .build-fuzz/artifacts/).
# Prints each target's executions and rate, and as its last line "N passed, N failed".
#   FUZZ_SECONDS  time per target (default 60)
#   FUZZ_TARGETS  which of: json decoding handler (default all three)
#   FUZZ_CONFIG   release (default: -O, with -enable-testing and -DDEBUG so that the targets
#                 reach internals and the model's invariant checks stay on) or debug
#   FUZZ_SEED     libFuzzer's -seed (default: libFuzzer picks one); printed either way
#   FUZZ_MIRROR   a folder outside the clone: the package's tracked files are copied there
#                 (Scripts/mirror.sh: only files whose bytes differ) and built there, so that
#                 a fresh clone compiles only what changed since the machine's last run;
#                 corpus and artifacts stay in .build-fuzz (default: build in the clone)
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
seconds=${FUZZ_SECONDS:-60}
targets=${FUZZ_TARGETS:-json decoding handler}
config=${FUZZ_CONFIG:-release}
# The server's targets are a path dependency of the fuzz package, and SwiftPM's cached build
# plan does not notice a source file added to a dependency: planned anew each time (a second).
flags=(-c "$config" -Xswiftc -sanitize=fuzzer,address --disable-build-manifest-caching)
[ "$config" = release ] && flags+=(-Xswiftc -enable-testing -Xswiftc -DDEBUG)
if [ -n "${FUZZ_MIRROR:-}" ] && git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    mkdir -p "$FUZZ_MIRROR"
    # One run at a time on the machine uses the folder.
    exec 8>"$FUZZ_MIRROR/lock"
    flock -w 900 8 || { echo "another run held $FUZZ_MIRROR/lock for 15 minutes"; echo "0 passed, 1 failed"; exit 1; }
    git ls-files -z Package.swift Package.resolved Sources Tests Benchmarks Fuzz | Scripts/mirror.sh . "$FUZZ_MIRROR/src" \
        || { echo "could not copy the package to $FUZZ_MIRROR/src"; echo "0 passed, 1 failed"; exit 1; }
    flags+=(--package-path "$FUZZ_MIRROR/src/Fuzz" --scratch-path "$FUZZ_MIRROR/build")
else
    flags+=(--package-path Fuzz --scratch-path .build-fuzz)
fi
if ! swift build "${flags[@]}"; then
    echo "0 passed, 1 failed"
    exit 1
fi
bin=$(swift build "${flags[@]}" --show-bin-path)
# The allocation stacks ASan records by default cost about a third of the handler's time; a
# crash found here is re-run with them (ASAN_OPTIONS= Scripts/fuzz.sh, or the binary on the
# artifact). Leaks are not failures here.
export ASAN_OPTIONS=${ASAN_OPTIONS-detect_leaks=0:malloc_context_size=0}
passed=0
failed=0
for target in $targets; do
    mkdir -p ".build-fuzz/corpus/$target" .build-fuzz/artifacts
    log=".build-fuzz/fuzz-$target.log"
    "$bin/fuzz-$target" ".build-fuzz/corpus/$target" "Fuzz/corpus/$target" -max_total_time="$seconds" -timeout=10 \
        ${FUZZ_SEED:+-seed="$FUZZ_SEED"} \
        -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix=".build-fuzz/artifacts/fuzz-$target-" >"$log" 2>&1
    status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    seed=$(sed -n 's/^INFO: Seed: //p' "$log" | head -1)
    echo "fuzz-$target: ${runs:-?} executions in ${seconds} s (${rate:-?}/s), seed ${seed:-?} (-seed= replays it), exit $status"
    if [ "$status" -eq 0 ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        grep -E "Fatal error|ERROR:|SUMMARY|Test unit written" "$log" | head -20
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
