import Dispatch
import Synchronization

/// Where a backend reports its transactions of appends (`CommitReporting`): the observer, if
/// any, and the timing of each transaction.
///
/// The observer is kept inside a struct, never as a bare closure in the `Mutex`: a closure
/// stored as a generic value and read through `withLock`'s `inout` is reabstracted on the
/// way out and again on the write-back, so every read wrapped it in two more thunks and each
/// commit called through a chain one link longer than the last (with `--metrics`, a CPU cost
/// growing with every commit and, after enough of them, a stack overflow).
public final class CommitTimer: Sendable {
    private struct Observer {
        let report: @Sendable (_ writes: Int, _ nanoseconds: UInt64) -> Void
    }

    private let observer = Mutex<Observer?>(nil)

    public init() {}

    /// Replaces the observer: told of every later transaction, on the committing thread.
    public func observe(_ report: @escaping @Sendable (_ writes: Int, _ nanoseconds: UInt64) -> Void) {
        observer.withLock { $0 = Observer(report: report) }
    }

    /// Runs `transaction` and tells the observer, if any, of its `writes` and its duration in
    /// nanoseconds, whether it returned or threw. O(1) besides `transaction`.
    public func timed<T, E: Error>(writes: Int, _ transaction: () throws(E) -> T) throws(E) -> T {
        guard let observer = observer.withLock({ $0 }) else { return try transaction() }
        let started = DispatchTime.now().uptimeNanoseconds
        defer { observer.report(writes, DispatchTime.now().uptimeNanoseconds - started) }
        return try transaction()
    }
}
