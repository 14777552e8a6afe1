import Synchronization
import ScrollStackCore

/// The stacks the service keeps, in memory, by id.
///
/// The map itself sits behind a mutex held only to look up, add or remove an entry; work
/// on a stack happens under that stack's own lock.
final class StackRegistry: Sendable {
    private let entries = Mutex<[String: StackEntry]>([:])
    /// Stacks the journal holds but start-up could not rebuild, with the reason. They keep
    /// their id (and their journal, untouched) until deleted.
    private let unreadable = Mutex<[String: String]>([:])
    /// Set when replicas share the journal: every lookup first brings the cached entry up to
    /// the journal's latest revision (or loads, or forgets it).
    let replication = Mutex<ReplicaCache<StackEntry>?>(nil)
    /// Whether `replication` was ever set (it is set once, at start-up): read on every lookup
    /// without taking its mutex, which two threads reading would otherwise contend for.
    let isReplicated = Atomic<Bool>(false)

    /// `replication`, without taking its mutex when it was never set.
    private var replica: ReplicaCache<StackEntry>? {
        isReplicated.load(ordering: .acquiring) ? replication.withLock({ $0 }) : nil
    }

    /// Makes every later lookup go through `replica` (`replication`).
    func startReplication(_ replica: ReplicaCache<StackEntry>) {
        replication.withLock { $0 = replica }
        isReplicated.store(true, ordering: .releasing)
    }

    /// Adds a stack. On a replica, a cached stack of the same id is first checked against the
    /// journal (one `head` read): another replica may have deleted it since, and then it is
    /// forgotten and the id is free. - Throws: 409 if the id is taken, also by an unreadable
    /// stack; 503 when a replica cannot reach the journal.
    func insert(_ entry: StackEntry) throws(APIError) {
        if let reason = unreadable.withLock({ $0[entry.id] }) { throw .duplicateStack(entry.id, unreadable: reason) }
        try replication.withLock({ $0 })?.checkBeforeCreating(entry.id, cached: entries.withLock { $0[entry.id] })
        try entries.withLock { (entries) throws(APIError) in
            guard entries[entry.id] == nil else { throw .duplicateStack(entry.id) }
            entries[entry.id] = entry
        }
    }

    /// The stack with `id`. - Throws: 404; 503 `stack_unavailable` for an unreadable one.
    func entry(_ id: String) throws(APIError) -> StackEntry {
        if let replication = replica, unreadable.withLock({ $0[id] == nil }) {
            return try replication.current(id, cached: entries.withLock { $0[id] })
        }
        return try cachedEntry(id)
    }

    /// The stack a write of `id` is built on, and on replicas the incarnation its journal
    /// append must find (`ReplicaCache.forWriting`: unless `checked`, the cached entry with
    /// no `head` read). - Throws: as `entry`.
    func entryForWriting(_ id: String, checked: Bool) throws(APIError) -> (StackEntry, Int64?) {
        if let replication = replica, unreadable.withLock({ $0[id] == nil }) {
            return try replication.forWriting(id, cached: entries.withLock { $0[id] }, checked: checked)
        }
        return (try cachedEntry(id), nil)
    }

    /// The stack with `id` as this process holds it (no replica check). - Throws: as `entry`.
    func cachedEntry(_ id: String) throws(APIError) -> StackEntry {
        guard let entry = entries.withLock({ $0[id] }) else {
            if let reason = unreadable.withLock({ $0[id] }) { throw .stackUnavailable(id, reason: reason) }
            throw .stackNotFound(id)
        }
        return entry
    }

    /// Records a stack the journal holds but start-up could not rebuild.
    func markUnreadable(_ id: String, reason: String) {
        unreadable.withLock { $0[id] = reason }
    }

    /// Makes the served stack `id` unavailable (its journal was found damaged): it leaves the
    /// map of entries, so every later lookup answers 503 `stack_unavailable` with `reason`,
    /// until it is deleted. Touches only the store's own locks, never the entry's, so it may
    /// run on the committing thread. Returns false when `id` was already unavailable.
    @discardableResult
    func markDamaged(_ id: String, reason: String) -> Bool {
        let marked = unreadable.withLock { unreadable -> Bool in
            guard unreadable[id] == nil else { return false }
            unreadable[id] = reason
            return true
        }
        if marked { _ = entries.withLock { $0.removeValue(forKey: id) } }
        return marked
    }

    /// Why `id` is unavailable, or nil when it is not.
    func unavailableReason(_ id: String) -> String? { unreadable.withLock { $0[id] } }

    /// The unreadable stacks' ids, ordered.
    var unreadableIDs: [String] { unreadable.withLock { $0.keys.sorted() } }

    /// The unreadable stacks, each with why, ordered by id.
    var unreadableReasons: [(id: String, reason: String)] {
        unreadable.withLock { $0.map { (id: $0.key, reason: $0.value) } }.sorted { $0.id < $1.id }
    }

    /// Forgets the unreadable stack `id` once `remove` (its journal's deletion) succeeds.
    /// Returns false when `id` is not an unreadable stack.
    func discardUnreadable(_ id: String, remove: () throws(APIError) -> Void) throws(APIError) -> Bool {
        try unreadable.withLock { (unreadable) throws(APIError) -> Bool in
            guard unreadable[id] != nil else { return false }
            try remove()
            unreadable[id] = nil
            return true
        }
    }

    /// Puts `entry` in place of whatever is cached under its id (a replica's reload).
    func replace(_ entry: StackEntry) {
        entries.withLock { $0[entry.id] = entry }
    }

    /// Forgets the cached `entry` (deleted by another replica), unless it was replaced since.
    func evict(_ entry: StackEntry) {
        entries.withLock { entries in
            if entries[entry.id] === entry { entries[entry.id] = nil }
        }
    }

    /// Removes the stack with `id`. - Throws: 404.
    func remove(_ id: String) throws(APIError) {
        let removed = entries.withLock { $0.removeValue(forKey: id) }
        guard removed != nil else { throw .stackNotFound(id) }
    }

    /// Whether `id` is taken, also by an unreadable stack.
    func contains(_ id: String) -> Bool { entries.withLock { $0[id] != nil } || unreadable.withLock { $0[id] != nil } }

    /// Every stack, ordered by id.
    func all() -> [StackEntry] {
        entries.withLock { Array($0.values) }.sorted { $0.id < $1.id }
    }
}
