import JSONCodec
import ScrollStackStore
import ScrollStackPiles
import ScrollStackTransitions

extension PileService {
    /// Makes this service one replica of several sharing `backend` (`StackService.startReplication`).
    func startReplication(_ backend: any SharedJournalBackend) {
        let replica = ReplicaCache<PileEntry>(owner: self, backend: backend)
        registry.replication.withLock { $0 = replica }
    }

    /// Replicas: brings every pile the journal holds into this replica's cache (and drops
    /// those it no longer holds), so `GET /v1/piles` lists what every replica would. One
    /// `heads` read, then one `head` read per pile (a load for those new here).
    func refreshReplicatedPiles() throws(APIError) {
        guard let backend = journal?.backend as? any SharedJournalBackend, let replica = registry.replication.withLock({ $0 }) else { return }
        let heads: [String: JournalHead]
        do throws(JournalError) { heads = try backend.heads() } catch { throw APIError(error) }
        let journaled = heads.keys.filter { $0.hasPrefix(Self.journalPrefix) }.map { String($0.dropFirst(Self.journalPrefix.count)) }
        for id in Set(journaled).union(registry.all().map(\.id)).sorted() {
            do {
                _ = try replica.current(id, cached: try? registry.cachedEntry(id))
            } catch where error.status == 404 {
                continue
            }
        }
    }

    /// The watcher heard that a process changed pile `id` (revision 0: deleted): a cached
    /// pile with live streams is brought forward at once, so they hear of it; any other, as
    /// a stack, by its next request.
    func replicaChanged(_ id: String, revision: Int) {
        registry.replication.withLock { $0 }?.heard(id, revision: revision)
        if revision > 0, hub.published(Self.journalPrefix + id) == nil { return }
        guard let cached = try? registry.cachedEntry(id), let replica = registry.replication.withLock({ $0 }) else { return }
        if revision > 0, let cachedRevision = try? cached.read({ _, cachedRevision throws(APIError) in cachedRevision }),
           cachedRevision >= revision { return }
        do { _ = try replica.current(id, cached: cached) } catch {
            logger.warning("replica: cannot apply revision \(revision) of pile \(id) now (the next request retries): \(error.message)")
        }
    }

    /// Checks every cached pile against the journal (changes may have gone unheard).
    func resynchronize() {
        guard let replica = registry.replication.withLock({ $0 }) else { return }
        for entry in registry.all() {
            _ = try? replica.current(entry.id, cached: entry)
        }
    }

    /// Applies journaled pile `records` (the revisions after `revision`, in order) to `pile`,
    /// publishing each one's events to this process's live streams, as `StackService.apply`
    /// does for stacks. On a failure the pile and revision are those of the last record applied.
    ///
    /// - Complexity: each record's pile operation (O(views)).
    func apply(_ records: [JournalRecord], to pile: inout Pile, revision: inout Int, id: String) throws(APIError) {
        for record in records {
            let what = "revision \(record.revision) of pile \(id)"
            guard record.revision == revision + 1 else { throw .journalUnreadable("\(what) follows revision \(revision)") }
            let operation = try OperationRecord.decodePile(record.operation, what: what)
            do throws(PileError) { _ = try operation.apply(to: &pile) } catch {
                throw .journalUnreadable("applying \(what) failed: \(APIError(error).message)")
            }
            revision = record.revision
            hub.publish(revision: record.revision, events: { EventHub.answerText(ofJournaled: record.events) }, to: Self.journalPrefix + id)
        }
    }

    /// The pile `id` as the journal holds it at `revision` (its nearest snapshot and the
    /// records after it): where a replica's write that lost its race goes back to. With the
    /// `incarnation` the replica knows the pile as, a journal that no longer holds it
    /// (deleted, or deleted and created again elsewhere) is a revision conflict.
    func pile(_ id: String, at revision: Int, incarnation: Int64? = nil) throws(APIError) -> Pile {
        let stored = try feed.storedJournal(Self.journalPrefix + id, upTo: revision, incarnation: incarnation, notFound: .pileNotFound(id))
        let replayed = try Self.rebuild(stored)
        guard replayed.revision == revision else { throw .storageFailed("rebuilt revision \(replayed.revision) of pile \(id), not \(revision)") }
        return replayed.pile
    }
}
