/// A backend several server processes (replicas) use at once, each caching journals in
/// memory: it tells where each journal stands and reports every change another process makes.
public protocol SharedJournalBackend: JournalBackend {
    /// Where `key`'s journal stands now (its incarnation and latest revision), nil when it has
    /// none. One indexed read: what a replica checks before answering from its cache.
    func head(key: String) throws(JournalError) -> JournalHead?

    /// `appendLater` only while `key` is still incarnation `incarnation` (the one the writer's
    /// state was loaded as): a key deleted and created again by another process up to the
    /// same revision conflicts instead of taking a write built on its former incarnation.
    func appendLater(key: String, record: JournalRecord, snapshot: [UInt8]?, after: PendingWrite?, incarnation: Int64) -> PendingWrite

    /// `records(key:after:limit:)` of incarnation `incarnation` only: nil when `key` is no
    /// longer that incarnation (deleted, or deleted and created again), so that a later
    /// incarnation's records, whose revisions may go on where the cached state stops, are
    /// never applied to a state of this one. One statement.
    func records(key: String, after: Int, limit: Int, incarnation: Int64) throws(JournalError) -> [JournalRecord]?

    /// Every journal's head, by key.
    func heads() throws(JournalError) -> [String: JournalHead]

    /// The heads of `keys` that have a journal, by key. One statement.
    func heads(keys: [String]) throws(JournalError) -> [String: JournalHead]

    /// Calls `changed` with a key (and a latest revision it reached, 0 when the key was
    /// deleted) after each committed `append`, `create` or `delete` by any process, this one
    /// included; announcements of one key may come out of order, and one may be lost with
    /// the process that made the change, so a revision announced is a hint to catch up to
    /// the journal's head, not an event to apply. `resynchronize` is called whenever changes
    /// may have been missed (the connection carrying them was lost and is back), so the
    /// caller compares its cache with `heads()`; `poll` about once a second, so the caller
    /// compares what it must not miss (its live streams) with `heads(keys:)`. Runs until
    /// `stopWatching()`.
    func watch(changed: @escaping @Sendable (String, Int) -> Void, resynchronize: @escaping @Sendable () -> Void,
               poll: @escaping @Sendable () -> Void)

    /// Ends `watch` (returns once its thread is done).
    func stopWatching()

    /// Records `address` (an opaque name a process gives itself; nil: none) as a live member
    /// now, and returns every member's address seen within the last `liveness` seconds by the
    /// backend's one clock, sorted, so that every process asking at the same moment gets the
    /// same list. One statement.
    func members(refreshing address: String?, liveness: Int) throws(JournalError) -> [String]

    /// Forgets `address` as a member (a process that stops). One statement.
    func leave(address: String) throws(JournalError)
}

/// Where one journal stands: its incarnation (changes when the key is deleted and created
/// again) and its latest revision.
public struct JournalHead: Sendable, Equatable {
    public var incarnation: Int64
    public var revision: Int

    public init(incarnation: Int64, revision: Int) {
        self.incarnation = incarnation
        self.revision = revision
    }
}
