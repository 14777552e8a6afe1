import ScrollStackStore

/// The service a replica's cache (`ReplicaCache`) belongs to (`StackService`, `PileService`):
/// its feed is where the cache reads stored journals and ends the live streams of what goes.
protocol ReplicaOwner: AnyObject, Sendable {
    var feed: EventFeed { get }
}

/// What a replica's cache (`ReplicaCache`) keeps: a stack's or a pile's entry, with the
/// journal key it lives under and how its service (`Owner`) loads, brings forward, caches and
/// drops it.
protocol ReplicatedEntry: AnyObject, Sendable {
    /// What the entry holds (`ScrollStack` or `Pile`).
    associatedtype Model
    /// The service that keeps such entries.
    associatedtype Owner: ReplicaOwner

    var id: String { get }
    /// Set when a failed write could not be undone: the cache loads the entry again.
    var isStale: Bool { get }
    /// Whether the entry is behind `target` (the journal's latest revision) or must be brought
    /// back to the journal first; 404 once deleted.
    func needsCatchingUp(to target: Int) throws(APIError) -> Bool
    /// Brings the model forward under the entry's write lock (its writes in flight done first).
    func advance(_ body: (inout Model, inout Int) throws(APIError) -> Void) throws(APIError)
    /// Marks the entry deleted: holders get 404.
    func markDeleted()

    /// The journal key of the entry `id`.
    static func journalKey(_ id: String) -> String
    /// The 404 for an `id` the journal does not hold.
    static func notFound(_ id: String) -> APIError
    /// The entry `owner` caches under `id`, if any.
    static func cached(_ id: String, in owner: Owner) -> Self?
    /// Puts `entry` in place of whatever `owner` caches under its id.
    static func replace(_ entry: Self, in owner: Owner)
    /// Forgets the cached `entry`, unless it was replaced since.
    static func evict(_ entry: Self, in owner: Owner)
    /// The entry rebuilt from its stored journal (nearest snapshot, then the records after it).
    static func rebuild(_ stored: StoredJournal, in owner: Owner) throws(APIError) -> Self
    /// Applies journaled `records` (the revisions after `revision`, in order) to `model`,
    /// publishing each one's events to the owner's live streams as it is applied.
    static func apply(_ records: [JournalRecord], to model: inout Model, revision: inout Int, id: String,
                      in owner: Owner) throws(APIError)
}
