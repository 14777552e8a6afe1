import JSONCodec
import MicroHTTP
import ScrollStackCore
import ScrollStackStore
import Synchronization

extension StackService {
    /// Whether other processes share this service's journal (`--store postgres://…`).
    var isReplicated: Bool { store.isReplicated.load(ordering: .acquiring) }

    /// Makes this service one replica of several sharing `journal`'s backend: every request
    /// naming a stack first brings the cached stack up to the journal's latest revision, and
    /// a stack or pile with live streams here is brought forward as changes to it are
    /// announced (or found by the poll each second), their events published to those
    /// streams. Call after `restore()`; no-op for a backend only this process uses.
    public func startReplication() {
        guard let backend = journal?.backend as? any SharedJournalBackend else { return }
        let replica = ReplicaCache<StackEntry>(owner: self, backend: backend)
        store.startReplication(replica)
        piles.startReplication(backend)
        backend.watch(changed: { [weak self] key, revision in self?.replicaChanged(key, revision: revision) },
                      resynchronize: { [weak self] in self?.replicaResynchronize() },
                      poll: { [weak self] in self?.replicaPoll() })
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
        let keys = Set(heads.keys.filter { !$0.hasPrefix(PileService.journalPrefix) }).union(store.all().map(\.id))
        for key in keys.sorted() {
            do {
                _ = try replica.current(key, cached: try? store.cachedEntry(key))
            } catch where error.status == 404 {
                continue
            }
        }
    }

    /// About once a second: every stack and pile with live streams whose journal is past the
    /// revision its streams were sent (or gone) is caught up as if that were announced, so a
    /// stream misses no revision whose announcement was lost (with the replica that made it,
    /// killed between its commit and the announcement). One `heads(keys:)` read; nothing
    /// when no stream is open.
    ///
    /// - Complexity: O(stacks with streams), plus a catch-up of each one behind.
    private func replicaPoll() {
        guard let backend = journal?.backend as? any SharedJournalBackend else { return }
        let streamed = hub.streamed()
        guard !streamed.isEmpty else { return }
        let heads: [String: JournalHead]
        do throws(JournalError) { heads = try backend.heads(keys: Array(streamed.keys)) } catch { return }
        for (key, published) in streamed.sorted(by: { $0.key < $1.key }) {
            let latest = heads[key]?.revision ?? 0
            if latest == 0 || latest > published { replicaChanged(key, revision: latest) }
        }
    }

    private func replicaChanged(_ key: String, revision: Int) {
        if key.hasPrefix(PileService.journalPrefix) { return piles.replicaChanged(String(key.dropFirst(PileService.journalPrefix.count)), revision: revision) }
        store.replication.withLock { $0 }?.heard(key, revision: revision)
        // A stack without live streams is brought forward by its next request (which reads
        // its head; a write is built on a checked entry, since it is behind what was heard):
        // catching up every announcement at once would have each replica apply every other
        // one's writes, whether it serves that stack or not.
        if revision > 0, hub.published(key) == nil { return }
        guard let cached = try? store.cachedEntry(key),
              let replica = store.replication.withLock({ $0 }) else { return }
        // This replica's own writes (and revisions already applied) need nothing; writes
        // still in flight count as held (if one fails, its retry brings the stack back).
        if revision > 0, (try? cached.needsCatchingUp(to: revision)) != true { return }
        do { _ = try replica.current(key, cached: cached) } catch {
            logger.warning("replica: cannot apply revision \(revision) of \(key) now (the next request retries): \(error.message)")
        }
    }

    /// After the listener reconnects: brings every cached stack forward (announcements may
    /// have been missed meanwhile). A stack that cannot be read now is logged and caught up
    /// by its next request or announcement.
    private func replicaResynchronize() {
        guard let replica = store.replication.withLock({ $0 }) else { return }
        for entry in store.all() {
            do { _ = try replica.current(entry.id, cached: entry) } catch where error.status != 404 {
                logger.warning("replica: cannot catch \(entry.id) up after reconnecting (its next request or announcement retries): \(error.message)")
            } catch {}
        }
        piles.resynchronize()
    }

    /// The journal's state of `entry`'s stack, to go on from after a write of it failed: with
    /// one process, its latest state; on a replica, the state at the newest revision the
    /// entry knows durable, brought forward to the journal's latest with each revision after
    /// it published to live streams (those of the failed writes never were; another
    /// replica's may have taken their place).
    ///
    /// Another replica may have deleted the stack meanwhile (or deleted it and created it
    /// again): there is then no state of this entry to go on from, and the answer is a
    /// revision conflict, so that the write is tried again on a checked entry (404, or the
    /// new stack), never a 503 for a stack that is simply gone.
    ///
    /// - Complexity: a rebuild from the nearest snapshot, and the records after it.
    func journaledState(of entry: StackEntry) throws(APIError) -> (ScrollStack, Int) {
        guard let replica = store.replication.withLock({ $0 }), let backend = journal?.backend as? any SharedJournalBackend else { return try reload(entry.id) }
        // An entry whose incarnation this cache no longer knows was replaced or forgotten
        // meanwhile (the stack deleted, or loaded again): there is nothing of it to go on from.
        guard let incarnation = replica.incarnation(of: entry) else { throw APIError(JournalError.conflict(key: entry.id, latest: nil)) }
        var revision = entry.durableRevision
        var stack = try self.stack(entry.id, at: revision, current: revision, field: "revision", incarnation: incarnation)
        while true {
            let found: [JournalRecord]?
            do throws(JournalError) {
                found = try backend.records(key: entry.id, after: revision, limit: 1000, incarnation: incarnation)
            } catch { throw APIError(error) }
            guard let records = found else { throw APIError(JournalError.conflict(key: entry.id, latest: nil)) }
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
            hub.publish(revision: record.revision, events: { EventHub.answerText(ofJournaled: record.events) }, to: key)
        }
    }
}
