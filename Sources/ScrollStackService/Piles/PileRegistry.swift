import Synchronization

/// The piles the service keeps, in memory, by id (beside the stacks, in the same journal).
final class PileRegistry: Sendable {
    private let entries = Mutex<[String: PileEntry]>([:])
    /// Set when replicas share the journal: every lookup first brings the cached pile up to
    /// the journal's latest revision (or loads, or forgets it), as `StackRegistry.replication`.
    let replication = Mutex<ReplicaCache<PileEntry>?>(nil)

    /// Adds a pile; on a replica a cached pile of the same id is first checked against the
    /// journal, as `StackRegistry.insert` does. - Throws: 409 if the id is taken; 503 when a
    /// replica cannot reach the journal.
    func insert(_ entry: PileEntry) throws(APIError) {
        try replication.withLock({ $0 })?.checkBeforeCreating(entry.id, cached: entries.withLock { $0[entry.id] })
        try entries.withLock { (entries) throws(APIError) in
            guard entries[entry.id] == nil else { throw .duplicatePile(entry.id) }
            entries[entry.id] = entry
        }
    }

    func entry(_ id: String) throws(APIError) -> PileEntry {
        if let replication = replication.withLock({ $0 }) {
            return try replication.current(id, cached: entries.withLock { $0[id] })
        }
        return try cachedEntry(id)
    }

    /// The pile a write of `id` is built on, and on replicas the incarnation its journal
    /// append must find, as `StackRegistry.entryForWriting`.
    func entryForWriting(_ id: String, checked: Bool) throws(APIError) -> (PileEntry, Int64?) {
        if let replication = replication.withLock({ $0 }) {
            return try replication.forWriting(id, cached: entries.withLock { $0[id] }, checked: checked)
        }
        return (try cachedEntry(id), nil)
    }

    /// The pile with `id` as this process holds it (no replica check). - Throws: 404.
    func cachedEntry(_ id: String) throws(APIError) -> PileEntry {
        guard let entry = entries.withLock({ $0[id] }) else { throw .pileNotFound(id) }
        return entry
    }

    /// Puts `entry` in place of whatever is cached under its id (a replica's reload).
    func replace(_ entry: PileEntry) {
        entries.withLock { $0[entry.id] = entry }
    }

    /// Forgets the cached `entry` (deleted by another replica), unless it was replaced since.
    func evict(_ entry: PileEntry) {
        entries.withLock { entries in
            if entries[entry.id] === entry { entries[entry.id] = nil }
        }
    }

    func remove(_ id: String) { _ = entries.withLock { $0.removeValue(forKey: id) } }

    func contains(_ id: String) -> Bool { entries.withLock { $0[id] != nil } }

    func all() -> [PileEntry] { entries.withLock { Array($0.values) }.sorted { $0.id < $1.id } }
}
