import Jansson
import ScrollStackStore
import ScrollStackTransitions
import Synchronization

extension StackService {
    /// Replicas: brings every pile the journal holds into this replica's cache (and drops
    /// those it no longer holds), so `GET /v1/piles` lists what every replica would. One
    /// `heads` read, then one `head` read per pile (a load for those new here).
    func refreshReplicatedPiles() throws(APIError) {
        guard let backend = journal?.backend as? any SharedJournalBackend, let replica = piles.replication.withLock({ $0 }) else { return }
        let heads: [String: JournalHead]
        do throws(JournalError) { heads = try backend.heads() } catch { throw APIError(error) }
        let journaled = heads.keys.filter { $0.hasPrefix(Self.pileJournalPrefix) }.map { String($0.dropFirst(Self.pileJournalPrefix.count)) }
        for id in Set(journaled).union(piles.all().map(\.id)).sorted() {
            do {
                _ = try replica.current(id, cached: try? piles.cachedEntry(id))
            } catch where error.status == 404 {
                continue
            }
        }
    }

    /// The watcher heard that another process changed pile `id` (revision 0: deleted): a
    /// cached pile is brought forward at once, so its live streams hear of it.
    func pileReplicaChanged(_ id: String, revision: Int) {
        guard let cached = try? piles.cachedEntry(id), let replica = piles.replication.withLock({ $0 }) else { return }
        if revision > 0, let cachedRevision = try? cached.read({ _, cachedRevision throws(APIError) in cachedRevision }),
           cachedRevision >= revision { return }
        do { _ = try replica.current(id, cached: cached) } catch {
            logger.warning("replica: cannot apply revision \(revision) of pile \(id) now (the next request retries): \(error.message)")
        }
    }

    /// Checks every cached pile against the journal (changes may have gone unheard).
    func pileReplicaResynchronize() {
        guard let replica = piles.replication.withLock({ $0 }) else { return }
        for entry in piles.all() {
            _ = try? replica.current(entry.id, cached: entry)
        }
    }

    /// Applies journaled pile `records` (the revisions after `revision`, in order) to `pile`,
    /// publishing each one's events to this process's live streams, as `apply(_:to:…)` does
    /// for stacks. On a failure the pile and revision are those of the last record applied.
    ///
    /// - Complexity: each record's pile operation (O(views)).
    func applyPile(_ records: [JournalRecord], to pile: inout Pile, revision: inout Int, id: String) throws(APIError) {
        for record in records {
            let what = "revision \(record.revision) of pile \(id)"
            guard record.revision == revision + 1 else { throw .journalUnreadable("\(what) follows revision \(revision)") }
            let operation = try OperationRecord.decodePile(record.operation, what: what)
            do throws(PileError) { _ = try operation.apply(to: &pile) } catch {
                throw .journalUnreadable("applying \(what) failed: \(APIError(error).message)")
            }
            revision = record.revision
            hub.publish(EventHub.message(revision: record.revision, events: (try? JSON.parse(record.events)) ?? .array([])),
                        to: Self.pileJournalPrefix + id)
        }
    }

    /// The pile `id` as the journal holds it at `revision` (its nearest snapshot and the
    /// records after it): where a replica's write that lost its race goes back to.
    func pile(_ id: String, at revision: Int) throws(APIError) -> Pile {
        let stored: StoredJournal
        do {
            guard let journal, let found = try journal.load(only: Self.pileJournalPrefix + id, upTo: revision).first else { throw APIError.pileNotFound(id) }
            stored = found
        } catch let error as APIError {
            throw error
        } catch let error as JournalError {
            throw APIError(error)
        } catch {
            throw .storageFailed("\(error)")
        }
        let replayed = try Self.rebuildPile(stored, logger: logger, measurer: measurer, titleMeasurer: titleMeasurer, fonts: fonts)
        guard replayed.revision == revision else { throw .storageFailed("rebuilt revision \(replayed.revision) of pile \(id), not \(revision)") }
        return replayed.pile
    }
}

/// A replica's cache of piles over a shared journal (`PileReplication`), by the rules of
/// `ReplicaCache` for stacks: before a pile is used, one indexed read (`head`) says where its
/// journal stands; the cached entry is brought forward to it (its records applied, their
/// events published under the pile's write lock), loaded whole when this replica has not seen
/// this incarnation (or a failed write left it stale), or forgotten when the journal no
/// longer has it. So every read includes every write acknowledged before it on any replica,
/// and each live stream gets every revision once, in order.
final class PileReplicaCache: PileReplication {
    unowned let service: StackService
    let backend: any SharedJournalBackend
    /// The incarnation each cached pile was loaded as.
    private let incarnations = Mutex<[String: Int64]>([:])
    /// Held while an entry is loaded whole, so two requests never load one pile twice.
    private let loading = Mutex<Void>(())

    init(service: StackService, backend: any SharedJournalBackend) {
        self.service = service
        self.backend = backend
    }

    func current(_ id: String, cached: PileEntry?) throws(APIError) -> PileEntry {
        let head: JournalHead?
        do throws(JournalError) { head = try backend.head(key: StackService.pileJournalPrefix + id) } catch { throw APIError(error) }
        guard let head else {
            if let cached { forget(cached) }
            throw .pileNotFound(id)
        }
        if let cached, !cached.isStale, incarnations.withLock({ $0[id] }) == head.incarnation {
            try catchUp(cached, to: head.revision)
            return cached
        }
        return try load(id, head: head, replacing: cached)
    }

    /// Applies the revisions after the entry's, up to at least `target`.
    private func catchUp(_ entry: PileEntry, to target: Int) throws(APIError) {
        guard try entry.read({ _, revision throws(APIError) in revision < target }) else { return }
        try entry.advance { pile, revision throws(APIError) in
            while revision < target {
                let records: [JournalRecord]
                do throws(JournalError) {
                    records = try backend.records(key: StackService.pileJournalPrefix + entry.id, after: revision, limit: 1000)
                } catch { throw APIError(error) }
                guard !records.isEmpty else { return }
                try service.applyPile(records, to: &pile, revision: &revision, id: entry.id)
            }
        }
    }

    private func load(_ id: String, head: JournalHead, replacing cached: PileEntry?) throws(APIError) -> PileEntry {
        try loading.withLock { _ throws(APIError) -> PileEntry in
            if let now = try? service.piles.cachedEntry(id), now !== cached, !now.isStale,
               incarnations.withLock({ $0[id] }) == head.incarnation {
                try catchUp(now, to: head.revision)
                return now
            }
            let key = StackService.pileJournalPrefix + id
            let stored = try service.storedJournal(key, notFound: .pileNotFound(id))
            let replayed = try StackService.rebuildPile(stored, logger: service.logger, measurer: service.measurer,
                                                        titleMeasurer: service.titleMeasurer, fonts: service.fonts)
            let entry = PileEntry(id: id, pile: replayed.pile, revision: replayed.revision)
            if let cached {
                // Its streams started from a state this replica no longer trusts: they end,
                // and clients resume from their Last-Event-ID on the fresh entry.
                if let known = incarnations.withLock({ $0[id] }), known != stored.incarnation { cached.markDeleted() }
                service.hub.closeAll(key)
            }
            incarnations.withLock { $0[id] = stored.incarnation }
            service.piles.replace(entry)
            return entry
        }
    }

    /// Drops a pile another replica deleted: holders get 404, its streams end.
    private func forget(_ entry: PileEntry) {
        entry.markDeleted()
        service.piles.evict(entry)
        incarnations.withLock { $0[entry.id] = nil }
        service.hub.closeAll(StackService.pileJournalPrefix + entry.id)
    }
}
