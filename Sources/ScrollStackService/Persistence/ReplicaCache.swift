import ScrollStackStore
import Synchronization

/// A replica's cache of stacks or of piles (`Entry`) over a shared journal.
///
/// The rule for a read: before an entry is used, one indexed read (`head`) says where its
/// journal stands; the cached entry is brought forward to it (its records applied, their
/// events published), or loaded whole when this replica has not seen this incarnation of it
/// (new to it, deleted and created again, or left stale by a write that failed), or
/// forgotten when the journal no longer has it. Every cached revision change publishes the
/// revisions it passes, under the entry's write lock, so each live stream gets every
/// revision exactly once, in order. A stack's catching up waits for this replica's own
/// writes of it in flight (`StackEntry.advance`).
///
/// A write needs no `head` read (`forWriting`): its append is itself the check, accepted
/// only while the journal's latest revision is the one the write was built on and the key
/// is still the incarnation the entry was loaded as. A write that loses is tried again on a
/// checked entry; so is one refused on a cached state (Semantics.md, "Writes on a replica
/// without a head read"). An entry behind the newest revision announced for it (`heard`)
/// is checked first, so that a write does not build on a state already known to be lost.
final class ReplicaCache<Entry: ReplicatedEntry>: Sendable {
    unowned let owner: Entry.Owner
    let backend: any SharedJournalBackend
    /// The incarnation each cached entry was loaded as, with the entry it belongs to: an
    /// entry is only ever one incarnation, so a write built on it names that one.
    private let incarnations = Mutex<[String: (entry: ObjectIdentifier, incarnation: Int64)]>([:])
    /// Held while an entry is loaded whole, so two requests never load one entry twice.
    private let loading = Mutex<Void>(())
    /// The newest revision announced for each id (`heard`) since its entry was loaded.
    private let announced = Mutex<[String: Int]>([:])

    init(owner: Entry.Owner, backend: any SharedJournalBackend) {
        self.owner = owner
        self.backend = backend
    }

    /// The entry of `id` with every revision journaled so far applied (`cached`, brought
    /// forward, or loaded from the journal). One `head` read.
    ///
    /// - Throws: 404 when the journal has no such entry, 503 when it cannot be reached.
    func current(_ id: String, cached: Entry?) throws(APIError) -> Entry {
        let head: JournalHead?
        do throws(JournalError) { head = try backend.head(key: Entry.journalKey(id)) } catch { throw APIError(error) }
        guard let head else {
            if let cached { forget(cached) }
            throw Entry.notFound(id)
        }
        if let cached, !cached.isStale, incarnation(of: cached) == head.incarnation {
            do {
                try catchUp(cached, to: head.revision)
                return cached
            } catch where error.isRevisionConflict {
                // Its state could not be brought back (its incarnation ended meanwhile): the
                // entry is stale, and the journal's state is loaded whole instead.
            }
        }
        return try load(id, head: head, replacing: cached)
    }

    /// Before `id` is created on this replica: its cached entry, if any, is checked against
    /// the journal (brought forward, or forgotten when deleted elsewhere), so a creation is
    /// not refused for an id another replica deleted; the journal's own check on creation
    /// settles the rest. One `head` read when cached.
    ///
    /// - Throws: 503 when the journal cannot be reached.
    func checkBeforeCreating(_ id: String, cached: Entry?) throws(APIError) {
        guard let cached else { return }
        do { _ = try current(id, cached: cached) } catch where error.status == 404 {}
    }

    /// The entry a write of `id` is built on, and the incarnation its append must find:
    /// unless `checked`, the cached entry as it is, with no `head` read, when it is not stale
    /// and its incarnation is known and it is not behind a revision announced for it;
    /// otherwise `current`'s.
    ///
    /// - Complexity: O(1) without the check.
    func forWriting(_ id: String, cached: Entry?, checked: Bool) throws(APIError) -> (Entry, Int64?) {
        if !checked, let cached, !cached.isStale, let incarnation = incarnation(of: cached),
           try !cached.needsCatchingUp(to: announced.withLock({ $0[id] }) ?? 0) {
            return (cached, incarnation)
        }
        let entry = try current(id, cached: cached)
        return (entry, incarnation(of: entry))
    }

    /// The watcher heard that `id` reached `revision` (0: deleted) on some replica.
    func heard(_ id: String, revision: Int) {
        announced.withLock { $0[id] = max($0[id] ?? 0, revision) }
    }

    /// The incarnation `entry` was loaded as, nil when this cache did not load it.
    func incarnation(of entry: Entry) -> Int64? {
        incarnations.withLock { known in known[entry.id].flatMap { $0.entry == ObjectIdentifier(entry) ? $0.incarnation : nil } }
    }

    /// Applies the revisions after the entry's, up to at least `target`.
    private func catchUp(_ entry: Entry, to target: Int) throws(APIError) {
        // Most lookups find nothing to apply: decided under the read lock, without waiting
        // for this replica's writes in flight (a read waits for them; a write is built on
        // them and fails with them).
        guard try entry.needsCatchingUp(to: target) else { return }
        let key = Entry.journalKey(entry.id)
        // Only this entry's incarnation's records: a later one's (the id deleted and created
        // again after the head was read) would go on from a state they were not built on.
        guard let incarnation = incarnation(of: entry) else { throw APIError(JournalError.conflict(key: key, latest: nil)) }
        try entry.advance { model, revision throws(APIError) in
            while revision < target {
                let found: [JournalRecord]?
                do throws(JournalError) {
                    found = try backend.records(key: key, after: revision, limit: 1000, incarnation: incarnation)
                } catch { throw APIError(error) }
                guard let records = found else { throw APIError(JournalError.conflict(key: key, latest: nil)) }
                guard !records.isEmpty else { return }
                try Entry.apply(records, to: &model, revision: &revision, id: entry.id, in: owner)
            }
        }
    }

    private func load(_ id: String, head: JournalHead, replacing cached: Entry?) throws(APIError) -> Entry {
        try loading.withLock { _ throws(APIError) -> Entry in
            // Another request may have loaded it while this one waited.
            if let now = Entry.cached(id, in: owner), now !== cached, !now.isStale, incarnation(of: now) == head.incarnation {
                do throws(APIError) {
                    try catchUp(now, to: head.revision)
                    return now
                } catch where error.isRevisionConflict {
                    // Its incarnation ended after the head was read: loaded whole below.
                }
            }
            let key = Entry.journalKey(id)
            let stored = try owner.feed.storedJournal(key, notFound: Entry.notFound(id))
            let entry = try Entry.rebuild(stored, in: owner)
            if let cached {
                // Its streams started from a state this replica no longer trusts: they end,
                // and clients resume from their Last-Event-ID on the fresh entry.
                if let known = incarnation(of: cached), known != stored.incarnation { cached.markDeleted() }
                owner.feed.hub.closeAll(key)
            }
            incarnations.withLock { $0[id] = (ObjectIdentifier(entry), stored.incarnation) }
            // Revisions announced for a former incarnation say nothing of this one.
            announced.withLock { $0[id] = nil }
            Entry.replace(entry, in: owner)
            return entry
        }
    }

    /// Drops an entry another replica deleted: holders get 404, its streams end.
    private func forget(_ entry: Entry) {
        entry.markDeleted()
        Entry.evict(entry, in: owner)
        incarnations.withLock { known in
            if known[entry.id]?.entry == ObjectIdentifier(entry) { known[entry.id] = nil }
        }
        owner.feed.hub.closeAll(Entry.journalKey(entry.id))
    }
}
