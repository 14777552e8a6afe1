import Postgres
import ScrollStackStore

extension PostgresJournal: CommitReporting {
    /// Every transaction of appends is reported: a batch (`AppendQueue`) with the appends it
    /// sent. The duration runs from taking a pooled
    /// connection to the end of COMMIT (its WAL flush included).
    public func observeCommits(_ observer: @escaping @Sendable (_ writes: Int, _ nanoseconds: UInt64) -> Void) {
        report.observe(observer)
    }
}
