#!/usr/bin/env bash
# A smoke run of every libFuzzer target: builds them (Scripts/fuzz.sh, in .build-fuzz) and runs
# each over its seed corpus and then FUZZ_SMOKE_SECONDS (default 5) of new inputs. The smoke
# builds the debug configuration (FUZZ_CONFIG, default debug here): it compiles in a third of
# the release build's CPU time, and keeps the model's invariant checks as release's -DDEBUG
# does; it runs fewer inputs per second. The long runs are `make fuzz` (release; Fuzz/README.md).
# Seeded like every other random test: libFuzzer's -seed is SCROLLSTACK_SEED (default 20261123).
# A clean clone starts from the checked-in corpus; inputs a run adds stay in .build-fuzz/corpus.
FUZZ_CONFIG=${FUZZ_CONFIG:-debug} FUZZ_SECONDS=${FUZZ_SMOKE_SECONDS:-5} FUZZ_SEED=${FUZZ_SEED:-${SCROLLSTACK_SEED:-20261123}} \
    exec "$(dirname "$0")/../fuzz.sh"
