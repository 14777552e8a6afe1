#!/usr/bin/env bash
# A smoke run of every libFuzzer target: builds them (Scripts/fuzz.sh, in .build-fuzz) and runs
# each over its seed corpus and then FUZZ_SMOKE_SECONDS (default 5) of new inputs. The smoke
# builds the debug configuration (FUZZ_CONFIG, default debug here): it compiles in a third of
# the release build's CPU time, and keeps the model's invariant checks as release's -DDEBUG
# does; it runs fewer inputs per second. The long runs are `make fuzz` (release; Fuzz/README.md).
# Seeded like every other random test: libFuzzer's -seed is SCROLLSTACK_SEED (default 20261123).
# A clean clone starts from the checked-in corpus; inputs a run adds stay in .build-fuzz/corpus.
# The build is kept per machine outside the clone (fuzz/ under SCROLLSTACK_CACHE, default
# ~/.cache/scrollstack; FUZZ_MIRROR in Scripts/fuzz.sh): a fresh clone compiles only the
# sources that changed since the machine's last run.
cache=${SCROLLSTACK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/scrollstack}
FUZZ_MIRROR=${FUZZ_MIRROR:-$cache/fuzz} FUZZ_CONFIG=${FUZZ_CONFIG:-debug} FUZZ_SECONDS=${FUZZ_SMOKE_SECONDS:-5} \
    FUZZ_SEED=${FUZZ_SEED:-${SCROLLSTACK_SEED:-20261123}} exec "$(dirname "$0")/../fuzz.sh"
