import CLibFuzzer
#if canImport(Glibc)
import Glibc
#endif

/// The entry point every fuzz target shares: libFuzzer's driver on `test`, with the
/// program's arguments (`-runs=N`, `-max_total_time=S`, corpus folders…).
public enum Fuzzer {
    /// Runs libFuzzer and exits with its status; exits 2 when the program was built without
    /// `-sanitize=fuzzer` (SwiftPM's executables have a `main` of their own, so the targets
    /// call the driver rather than relying on libFuzzer's `main`).
    public static func run(_ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        let status = fuzz_run_driver(&argc, &argv, test)
        if status < 0 {
            print("\(CommandLine.arguments[0]): built without libFuzzer; build with `make fuzz`")
            exit(2)
        }
        exit(status)
    }

    /// The bytes libFuzzer hands over, copied.
    public static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        guard let data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// Stops the run with `message` when `condition` is false: libFuzzer reports the trap as a
    /// crash and saves the input.
    public static func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
        if !condition() { fatalError(message()) }
    }
}
