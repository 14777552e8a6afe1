import Dispatch
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
    ///
    /// Each stack's writes go to one replica (`WriteOwners`): those given an `address`
    /// (`http://host:port`, where the other replicas reach this one) take turns as owners;
    /// a replica without one forwards its writes to them, and writes itself only the stacks
    /// whose owner cannot be reached.
    public func startReplication(address: String? = nil, forwarder: HTTPForwarder = HTTPForwarder()) {
        startReplication(address: address, forwarder: forwarder, contentionSeconds: 2)
    }

    /// `startReplication(address:forwarder:)` with signs of contention kept `contentionSeconds` (tests).
    func startReplication(address: String?, forwarder: HTTPForwarder, contentionSeconds: Double) {
        guard let backend = journal?.backend as? any SharedJournalBackend else { return }
        let owners = WriteOwners(address: address, forwarder: forwarder, contentionSeconds: contentionSeconds)
        owners.refresh(backend)
        writeOwners.withLock { $0 = owners }
        let replica = ReplicaCache<StackEntry>(owner: self, backend: backend)
        store.startReplication(replica)
        piles.startReplication(backend)
        backend.watch(changed: { [weak self] key, revision in self?.replicaChanged(key, revision: revision) },
                      resynchronize: { [weak self] in self?.replicaResynchronize() },
                      poll: { [weak self] in self?.replicaPoll() })
    }

    /// Stops applying announced changes, stops forwarding (writes then are made here) and
    /// leaves the members (before the service goes away).
    public func stopReplication() {
        guard let backend = journal?.backend as? any SharedJournalBackend else { return }
        backend.stopWatching()
        guard let owners = writeOwners.withLock({ $0 }) else { return }
        owners.forwarder.stop()
        if let address = owners.address { try? backend.leave(address: address) }
    }

    /// A write of stack `id` that lost a race here, handed to the stack's owner instead of
    /// racing it again (this thread waits for the answer): the owner's answer, or nil to try
    /// again here (no owner elsewhere, not a client's request, a whole-stack `PUT`, or the
    /// owner unreachable). A write the owner took without answering is 503, as in
    /// `forwardedWrite`. Nothing of the lost attempt was kept, so it is made once.
    func forwardedRetry(_ request: HTTPRequest, id: String) -> HTTPResponse? {
        guard request.method != "PUT", request.header(WriteOwners.forwardedHeader) == nil, request.rawPath.hasPrefix("/v1/stacks/"),
              let owners = writeOwners.withLock({ $0 }), let owner = owners.destination(of: id) else { return nil }
        let outcome = Mutex<Result<HTTPForwarder.Answer, HTTPForwarder.Failure>?>(nil)
        let done = DispatchSemaphore(value: 0)
        owners.forwarder.send(owners.forwarding(request), to: owner) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        let patience = owners.forwarder.connectSeconds + owners.forwarder.timeoutSeconds * 2 + 1
        guard done.wait(timeout: .now() + patience) == .success, let result = outcome.withLock({ $0 }) else {
            return .error(Self.unanswered(id))
        }
        switch result {
        case .success(let answer):
            owners.forwarded.add(1, ordering: .relaxed)
            return WriteOwners.relayed(answer)
        case .failure(.unreachable):
            return nil
        case .failure(.unanswered(let reason)):
            logger.warning("replica: \(owner), which writes \(id), did not answer \(request.summary): \(reason)")
            return .error(Self.unanswered(id))
        }
    }

    /// The 503 of a write its stack's writer took and did not answer.
    static func unanswered(_ id: String) -> APIError {
        APIError(.storageUnavailable,
                 message: "the replica writing stack \"\(id)\" did not answer, so the change may or may not have been made; retry (with If-Match, it is made once)",
                 headers: [("Retry-After", "1")])
    }

    /// Notes that a write of stack `id` here lost a race (`WriteOwners.noteContended`).
    func noteConflict(_ id: String) {
        writeOwners.withLock { $0 }?.noteContended(id)
    }

    /// Records this replica as a member (if it has an address) and reads the members again;
    /// the watcher does it about once a second. One statement; nothing without replication.
    func refreshWriters() {
        guard let backend = journal?.backend as? any SharedJournalBackend else { return }
        writeOwners.withLock { $0 }?.refresh(backend)
    }

    /// On a replica with members, a write to a contended stack that another member owns,
    /// forwarded to it (`WriteOwners`) and answered, deferred, with its answer; nil for every
    /// other request (handled here). A write whose owner cannot be reached (nothing was sent)
    /// is handled here; one sent and not answered is 503 with `Retry-After`, since the owner
    /// may have made it.
    ///
    /// The stack's owner answers its writes here, and notes where each came from: a forwarded
    /// one whose stack several sources write gets `WriteOwners.contendedHeader` (`note`).
    func forwardedWrite(_ request: HTTPRequest, pattern: String?, parameters: RouteParameters, note: inout Bool) -> HTTPResponse? {
        guard request.method != "GET", request.method != "HEAD", request.method != "OPTIONS",
              pattern?.hasPrefix("/v1/stacks/{stack}") == true, let id = parameters["stack"],
              let owners = writeOwners.withLock({ $0 }) else { return nil }
        let source = request.header(WriteOwners.forwardedHeader)
        guard request.acceptsDeferredResponse, source == nil, let owner = owners.destination(of: id) else {
            if owners.address != nil, owners.owner(of: id) == nil {
                note = owners.noteSource(id, source ?? "") && source != nil
            }
            return nil
        }
        let later = DeferredResponse()
        owners.forwarder.send(owners.forwarding(request), to: owner) { [self] result in
            switch result {
            case .success(let answer):
                owners.forwarded.add(1, ordering: .relaxed)
                if answer.headers.contains(where: { $0.name.lowercased() == WriteOwners.contendedHeader }) { owners.noteContended(id) }
                later.complete(WriteOwners.relayed(answer))
            case .failure(.unreachable(let reason)):
                owners.unreachable.add(1, ordering: .relaxed)
                logger.info("replica: \(owner), which writes \(id), cannot be reached (\(reason)); writing here")
                var here = request
                here.acceptsDeferredResponse = false
                later.complete(handle(here))
            case .failure(.unanswered(let reason)):
                logger.warning("replica: \(owner), which writes \(id), did not answer \(request.summary): \(reason)")
                later.complete(.error(Self.unanswered(id)))
            }
        }
        return .deferred(later)
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
        refreshWriters()
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
