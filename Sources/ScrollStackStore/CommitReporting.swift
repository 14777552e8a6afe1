/// A backend that reports each transaction of appends it runs, for metrics
/// (`StackJournal.observeCommits`): how many writes it held and how long it took.
public protocol CommitReporting: Sendable {
    /// Calls `observer` after every transaction of appends, committed or rolled back, on the
    /// committing thread, with its number of writes and its duration in nanoseconds (BEGIN to
    /// the end of COMMIT, the flush to disk included). One observer at a time; a later call
    /// replaces it. The observer must be quick and must not touch the journal.
    func observeCommits(_ observer: @escaping @Sendable (_ writes: Int, _ nanoseconds: UInt64) -> Void)
}
