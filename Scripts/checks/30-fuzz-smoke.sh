#!/usr/bin/env bash
# A smoke run of every libFuzzer target: builds them (Scripts/fuzz.sh, in .build-fuzz) and runs
# each over its seed corpus and then FUZZ_SMOKE_SECONDS (default 5) of new inputs. The long
# runs are `make fuzz` (Fuzz/README.md).
FUZZ_SECONDS=${FUZZ_SMOKE_SECONDS:-5} exec "$(dirname "$0")/../fuzz.sh"
