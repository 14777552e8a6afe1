import Jansson
import MicroHTTP
import ScrollStackCore
import ScrollStackStore
import Synchronization

extension StackService {
    /// Whether other processes share this service's journal (`--store postgres://…`).
    var isReplicated: Bool { store.replication.withLock { $0 != nil } }

    /// Makes this service one replica of several sharing `journal`'s backend: every request
    /// naming a stack first brings the cached stack up to the journal's latest revision, and
    /// changes other replicas journal are applied as they are announced, their events
    /// published to this replica's live streams. Call after `restore()`; no-op for a backend
    /// only this process uses.
    public func startReplication() {
        guard let backend = journal?.backend as? any SharedJournalBackend else { return }
        let replica = ReplicaCache(service: self, backend: backend)
        store.replication.withLock { $0 = replica }
        let pileReplica = PileReplicaCache(service: self, backend: backend)
        piles.replication.withLock { $0 = pileReplica }
        backend.watch(changed: { [weak self] key, revision in self?.replicaChanged(key, revision: revision) },
                      resynchronize: { [weak self] in self?.replicaResynchronize() })
    }

    /// Stops applying announced changes (before the service goes away).
    public func stopReplication() {
        (journal?.backend as? any SharedJournalBackend)?.stopWatching()
    }

    /// Replicas: brings every stack the journal holds into this replica's cache (and drops
    /// those it no longer holds), so a list answers what every replica would. One `heads`
    /// read, then one `head` read per stack (a load for those new here).
    func refreshReplicatedStacks() throws(APIError) {
        guard let backend = journal?.backend as? any SharedJournalBackend, let replica = store.replication.withLock({ $0 }) else { return }
        let heads: [String: JournalHead]
        do throws(JournalError) { heads = try backend.heads() } catch { throw APIError(error) }
        let keys = Set(heads.keys.filter { !$0.hasPrefix(Self.pileJournalPrefix) }).union(store.all().map(\.id))
        for key in keys.sorted() {
            do {
                _ = try replica.current(key, cached: try? store.cachedEntry(key))
            } catch where error.status == 404 {
                continue
            }
        }
    }

    private func replicaChanged(_ key: String, revision: Int) {
        if key.hasPrefix(Self.pileJournalPrefix) { return pileReplicaChanged(String(key.dropFirst(Self.pileJournalPrefix.count)), revision: revision) }
        guard let cached = try? store.cachedEntry(key),
              let replica = store.replication.withLock({ $0 }) else { return }
        // This replica's own writes (and revisions already applied) need nothing; writes
        // still in flight count as held (if one fails, its retry brings the stack back).
        if revision > 0, (try? cached.needsCatchingUp(to: revision)) != true { return }
        do { _ = try replica.current(key, cached: cached) } catch {
            logger.warning("replica: cannot apply revision \(revision) of \(key) now (the next request retries): \(error.message)")
        }
    }

    private func replicaResynchronize() {
        guard let replica = store.replication.withLock({ $0 }) else { return }
        for entry in store.all() {
            _ = try? replica.current(entry.id, cached: entry)
        }
        pileReplicaResynchronize()
    }

    /// The journal's state of `entry`'s stack, to go on from after a write of it failed: with
    /// one process, its latest state; on a replica, the state at the newest revision the
    /// entry knows durable, brought forward to the journal's latest with each revision after
    /// it published to live streams (those of the failed writes never were; another
    /// replica's may have taken their place).
    ///
    /// - Complexity: a rebuild from the nearest snapshot, and the records after it.
    func journaledState(of entry: StackEntry) throws(APIError) -> (ScrollStack, Int) {
        guard isReplicated, let backend = journal?.backend else { return try reload(entry.id) }
        var revision = entry.durableRevision
        var stack = try self.stack(entry.id, at: revision, current: revision, field: "revision")
        while true {
            let records: [JournalRecord]
            do throws(JournalError) { records = try backend.records(key: entry.id, after: revision, limit: 1000) } catch { throw APIError(error) }
            guard !records.isEmpty else { return (stack, revision) }
            try apply(records, to: &stack, revision: &revision, key: entry.id)
        }
    }

    /// Applies journaled `records` (the revisions after `revision`, in order) to `stack`,
    /// publishing each one's events to this process's live streams as it is applied. On a
    /// failure the stack and revision are those of the last record applied.
    ///
    /// - Complexity: each record's model operation (no JSON, no router).
    func apply(_ records: [JournalRecord], to stack: inout ScrollStack, revision: inout Int, key: String) throws(APIError) {
        for record in records {
            let what = "revision \(record.revision) of \(key)"
            guard record.revision == revision + 1 else { throw .journalUnreadable("\(what) follows revision \(revision)") }
            let operation = try OperationRecord.decodeStack(record.operation, what: what, measurer: measurer, titleMeasurer: titleMeasurer)
            do throws(StackError) { _ = try operation.apply(to: &stack) } catch {
                throw .journalUnreadable("applying \(what) failed: \(APIError(error).message)")
            }
            revision = record.revision
            hub.publish(EventHub.message(revision: record.revision, events: (try? JSON.parse(record.events)) ?? .array([])), to: key)
        }
    }
}

/// A replica's cache of stacks over a shared journal (`StackReplication`).
///
/// The rule: before a stack is used, one indexed read (`head`) says where its journal
/// stands; the cached entry is brought forward to it (its records applied, their events
/// published), or loaded whole when this replica has not seen this incarnation of the stack
/// (new to it, deleted and created again, or left stale by a write that failed), or
/// forgotten when the journal no longer has it. Every cached revision change publishes the
/// revisions it passes, under the stack's write lock, so each live stream gets every
/// revision exactly once, in order.
final class ReplicaCache: StackReplication {
    unowned let service: StackService
    let backend: any SharedJournalBackend
    /// The incarnation each cached stack was loaded as.
    private let incarnations = Mutex<[String: Int64]>([:])
    /// Held while an entry is loaded whole, so two requests never load one stack twice.
    private let loading = Mutex<Void>(())

    init(service: StackService, backend: any SharedJournalBackend) {
        self.service = service
        self.backend = backend
    }

    func current(_ id: String, cached: StackEntry?) throws(APIError) -> StackEntry {
        let head: JournalHead?
        do throws(JournalError) { head = try backend.head(key: id) } catch { throw APIError(error) }
        guard let head else {
            if let cached { forget(cached) }
            throw .stackNotFound(id)
        }
        if let cached, !cached.isStale, incarnations.withLock({ $0[id] }) == head.incarnation {
            try catchUp(cached, to: head.revision)
            return cached
        }
        return try load(id, head: head, replacing: cached)
    }

    /// Applies the revisions after the entry's, up to at least `target`.
    private func catchUp(_ entry: StackEntry, to target: Int) throws(APIError) {
        // Most lookups find nothing to apply: decided under the read lock, without waiting
        // for this replica's writes in flight (a read waits for them; a write is built on
        // them and fails with them).
        guard try entry.needsCatchingUp(to: target) else { return }
        try entry.advance { stack, revision throws(APIError) in
            while revision < target {
                let records: [JournalRecord]
                do throws(JournalError) { records = try backend.records(key: entry.id, after: revision, limit: 1000) } catch { throw APIError(error) }
                guard !records.isEmpty else { return }
                try service.apply(records, to: &stack, revision: &revision, key: entry.id)
            }
        }
    }

    private func load(_ id: String, head: JournalHead, replacing cached: StackEntry?) throws(APIError) -> StackEntry {
        try loading.withLock { _ throws(APIError) -> StackEntry in
            // Another request may have loaded it while this one waited.
            if let now = try? service.store.cachedEntry(id), now !== cached, !now.isStale,
               incarnations.withLock({ $0[id] }) == head.incarnation {
                try catchUp(now, to: head.revision)
                return now
            }
            let stored = try service.storedJournal(id, notFound: .stackNotFound(id))
            let replayed = try StackService.rebuild(stored, logger: service.logger, measurer: service.measurer,
                                                    titleMeasurer: service.titleMeasurer, fonts: service.fonts)
            let entry = StackEntry(id: id, stack: replayed.stack, revision: replayed.revision)
            if let cached {
                // Its streams started from a state this replica no longer trusts: they end,
                // and clients resume from their Last-Event-ID on the fresh entry.
                if let known = incarnations.withLock({ $0[id] }), known != stored.incarnation { cached.markDeleted() }
                service.hub.closeAll(id)
            }
            incarnations.withLock { $0[id] = stored.incarnation }
            service.store.replace(entry)
            return entry
        }
    }

    /// Drops a stack another replica deleted: holders get 404, its streams end.
    private func forget(_ entry: StackEntry) {
        entry.markDeleted()
        service.store.evict(entry)
        incarnations.withLock { $0[entry.id] = nil }
        service.hub.closeAll(entry.id)
    }
}
