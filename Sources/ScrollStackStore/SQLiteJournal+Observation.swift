extension SQLiteJournal: CommitReporting {
    /// Every group commit is reported.
    public func observeCommits(_ observer: @escaping @Sendable (_ writes: Int, _ nanoseconds: UInt64) -> Void) {
        committer.timer.observe(observer)
    }
}
