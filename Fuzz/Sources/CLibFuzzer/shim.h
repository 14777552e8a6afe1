#include <stddef.h>
#include <stdint.h>

/// libFuzzer's entry for programs with a main of their own (compiler-rt, FuzzerDriver.cpp).
/// Weak: without `-sanitize=fuzzer` it is absent and its address is NULL.
extern int LLVMFuzzerRunDriver(int *argc, char ***argv,
                               int (*callback)(const uint8_t *data, size_t size)) __attribute__((weak));

/// Runs libFuzzer on `callback` with the program's arguments, or returns -1 when the program
/// was built without libFuzzer.
static inline int fuzz_run_driver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size)) {
    if (!LLVMFuzzerRunDriver) return -1;
    return LLVMFuzzerRunDriver(argc, argv, callback);
}
