import Synchronization

extension StackJournal {
    /// Calls `observer` after every transaction of mutations (`recordMutation`, alone or in a
    /// group commit) with the number of writes it held and its duration in nanoseconds, on
    /// the committing thread, on every backend that reports its transactions
    /// (`CommitReporting`: SQLite and PostgreSQL). One observer at a time; a later call
    /// replaces it. For metrics: the journal knows nothing of what is done with the figures.
    public func observeCommits(_ observer: @escaping @Sendable (_ writes: Int, _ nanoseconds: UInt64) -> Void) {
        (backend as? any CommitReporting)?.observeCommits(observer)
    }

    /// Snapshots due after mutations that are scheduled and not yet written: a backlog that
    /// keeps growing means the snapshot thread cannot keep up with the writers.
    public var pendingSnapshots: Int { snapshotsPending.load(ordering: .relaxed) }
}
