import Dispatch
import Postgres
import ScrollStackStore
import Synchronization

extension PostgresJournal: CommitReporting {
    /// Every transaction of appends is reported: a batch (`AppendQueue`) with the appends it
    /// sent, or one append without batching. The duration runs from taking a pooled
    /// connection to the end of COMMIT (its WAL flush included).
    public func observeCommits(_ observer: @escaping @Sendable (_ writes: Int, _ nanoseconds: UInt64) -> Void) {
        report.observer.withLock { $0 = observer }
    }

    /// Where the journal's transactions of appends are reported (`observeCommits`).
    final class CommitReport: Sendable {
        let observer = Mutex<(@Sendable (_ writes: Int, _ nanoseconds: UInt64) -> Void)?>(nil)

        /// Runs `transaction` and tells the observer, if any, of its `writes` and duration,
        /// whether it committed or threw.
        func timed<T>(writes: Int, _ transaction: () throws(PostgresError) -> T) throws(PostgresError) -> T {
            guard let observer = observer.withLock({ $0 }) else { return try transaction() }
            let started = DispatchTime.now().uptimeNanoseconds
            defer { observer(writes, DispatchTime.now().uptimeNanoseconds - started) }
            return try transaction()
        }
    }
}
