import Dispatch
import JSONCodec
import Logging
import MicroHTTP
import ScrollStackCore
import ScrollStackText
import Synchronization
import ScrollStackStore

extension StackService {
    /// Brings back every journaled stack: its latest snapshot, then the operations of its later
    /// records applied to the model, in revision order. Stacks are rebuilt in parallel
    /// (one per core at a time); piles before them. Returns how many stacks and piles it
    /// rebuilt. A stack it cannot rebuild is logged (naming it and why) and answers 503
    /// `stack_unavailable` until deleted; the others are served all the same.
    ///
    /// - Complexity: O(snapshot size + operations since it) per stack.
    ///
    /// A journal found damaged (`JournalError.damaged`: rows unreadable, or missing against
    /// the key's recorded head) is a stack unavailable in the same way, never one restored
    /// at an older revision; a damaged pile's stops the start, naming it.
    @discardableResult
    public func restore() throws -> Int {
        guard let journal else { return 0 }
        // Uploaded fonts first: replaying measures text, which may use them.
        try fontLibrary.refresh(from: journal.backend, logger: logger)
        let loaded = try journal.loadEach()
        for (key, detail) in loaded.damaged.sorted(by: { $0.key < $1.key }) {
            if key.hasPrefix(PileService.journalPrefix) { throw JournalError.damaged(key: key, detail: detail) }
            logger.error("cannot restore stack \(key): its journal is damaged: \(detail); it answers 503 until deleted, or until the file is repaired and the server restarted")
            store.markUnreadable(key, reason: "its journal is damaged: \(detail)")
        }
        let everything = loaded.journals
        let stored = everything.filter { !$0.key.hasPrefix(PileService.journalPrefix) }
        let restoredPiles = try piles.restore(everything.filter { $0.key.hasPrefix(PileService.journalPrefix) })
        let results = Mutex<[Result<StackEntry, any Error>?]>(Array(repeating: nil, count: stored.count))
        DispatchQueue.concurrentPerform(iterations: stored.count) { i in
            let result = Result { () throws -> StackEntry in
                let replayed = try Self.rebuild(stored[i], logger: logger, measurer: measurer, titleMeasurer: titleMeasurer, fonts: fonts)
                return StackEntry(id: stored[i].key, stack: replayed.stack, revision: replayed.revision)
            }
            results.withLock { $0[i] = result }
        }
        var restored = 0
        for (stack, result) in zip(stored, results.withLock({ $0 })) {
            switch result! {
            case .success(let entry):
                try store.insert(entry)
                resetEmbeddings(of: entry.id)
                restored += 1
            case .failure(let error):
                // One unreadable stack must not keep the others offline: it answers 503
                // until it is deleted, and its journal stays as it is.
                let reason = (error as? APIError)?.message ?? "\(error)"
                logger.error("cannot restore stack \(stack.key) (snapshot at revision \(stack.snapshotRevision), \(stack.records.count) mutations after it): \(reason); it answers 503 until deleted")
                store.markUnreadable(stack.key, reason: reason)
            }
        }
        measureEmbeddedFitRows()
        return restored + restoredPiles
    }

    /// Stacks are rebuilt side by side, each before the others are stored, so a fit row
    /// embedding a stack was measured without it: once all are stored, each such row is
    /// measured again, embedded stacks before their hosts. The lengths follow from the
    /// stacks the journal holds, so nothing is journaled. O(stacks + embeddings) plus the
    /// measures.
    func measureEmbeddedFitRows() {
        for id in embeddings.embeddedBeforeHosts() {
            guard let entry = try? store.entry(id) else { continue }
            try? entry.advance { stack, _ throws(APIError) in
                let stale = stack.staleFitRows()
                guard !stale.isEmpty else { return }
                do throws(StackError) { _ = try stack.reload(stale.map { RowReference.index($0) }) } catch { throw APIError(error) }
            }
        }
    }

    /// The ids of the journaled stacks that cannot be served: `restore()` could not rebuild
    /// them, or their journal was found damaged since (they answer 503 `stack_unavailable`
    /// until deleted).
    public var unavailableStacks: [String] { store.unreadableIDs }

    /// What the damage observer (`StackJournal.observeDamage`) does with the journal of `key`
    /// found damaged while serving: a stack becomes unavailable (503 `stack_unavailable`,
    /// `/healthz` degraded), its live streams end, and the log names it once; a pile's
    /// damage is logged (its request answers 503). Runs on whichever thread met the damage,
    /// the committing one included, so it takes no stack's lock.
    static func stackDamaged(_ key: String, detail: String, store: StackRegistry, hub: EventHub, logger: Logger) {
        guard !key.hasPrefix(PileService.journalPrefix) else {
            logger.error("the journal of pile \(key.dropFirst(PileService.journalPrefix.count)) is damaged: \(detail)")
            return
        }
        guard store.markDamaged(key, reason: "its journal is damaged: \(detail)") else { return }
        hub.closeAll(key)
        logger.error("stack \(key) is unavailable: its journal is damaged: \(detail); it answers 503 until deleted, or until the file is repaired and the server restarted")
    }

    /// Deletes the unreadable stack `id` from the journal; false when `id` is no such stack.
    func deleteUnreadableStack(_ id: String) throws(APIError) -> Bool {
        guard store.unreadableIDs.contains(id) else { return false }
        try embeddings.beginDeletion(of: id)
        defer { embeddings.endDeletion(of: id, deleted: false) }
        return try store.discardUnreadable(id) { () throws(APIError) in
            do throws(JournalError) { try journal?.recordDeletion(id: id) } catch { throw APIError(error) }
        }
    }

    /// The journaled state of one stack (to undo a change that could not be journaled).
    /// - Throws: 503 `stack_unavailable` once its journal was found damaged, even where the
    ///   rows read back: memory is never rebuilt from a journal known to be damaged.
    func reload(_ id: String) throws(APIError) -> (ScrollStack, Int) {
        if let reason = store.unavailableReason(id) { throw .stackUnavailable(id, reason: reason) }
        let stored = try feed.storedJournal(id, notFound: .stackNotFound(id))
        let replayed = try Self.rebuild(stored, logger: logger, measurer: measurer, titleMeasurer: titleMeasurer, fonts: fonts)
        return (replayed.stack, replayed.revision)
    }

    /// The stack `id` as it was at `revision`, rebuilt from the journal: the nearest snapshot
    /// at or before it and the mutations after it. `current` is the stack's revision now.
    ///
    /// A replica passes the `incarnation` it knows the stack as: a journal that no longer holds
    /// it (another replica deleted the stack, or deleted it and created it again) is then a
    /// revision conflict, which writes try again on a checked entry.
    ///
    /// - Throws: 404 `revision_not_found` (naming `field`) outside 1…current; 409
    ///   `revision_conflict` for another incarnation.
    func stack(_ id: String, at revision: Int, current: Int, field: String, incarnation: Int64? = nil) throws(APIError) -> ScrollStack {
        guard revision >= 1, revision <= current else {
            throw APIError(.revisionNotFound, message: "the stack's revisions are 1…\(current); \(revision) is not one of them", field: field)
        }
        let stored = try feed.storedJournal(id, upTo: revision, incarnation: incarnation,
                                            notFound: .storageFailed("revision \(revision) of \(id) is not in the journal"))
        let replayed = try Self.rebuild(stored, logger: logger, measurer: measurer, titleMeasurer: titleMeasurer, fonts: fonts)
        guard replayed.revision == revision else { throw .storageFailed("rebuilt revision \(replayed.revision), not \(revision)") }
        return replayed.stack
    }

    /// `?revision=N`, when given: the revision a read asks for.
    func requestedRevision(_ c: RequestContext) throws(APIError) -> Int? {
        try c.queryInt("revision", in: Int(Int64.min)...Int(Int64.max))
    }

    /// `POST /v1/stacks/{stack}/revert {"to": N}`: a new revision equal to revision N (its
    /// settings and rows; the events say what changed on screen).
    func revert(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery(["fps"])
        let (body, animation) = try animatedBody(c)
        try body.allowOnly(["to"] + ModelDecoding.animationKeys)
        let field = try body.required("to")
        let target = try field.int()
        return try mutate(c, snapshot: true, animation: animation) { _, revision throws(APIError) in
            guard (1...revision).contains(target) else {
                throw .invalid("to", "the stack's revisions are 1…\(revision); \(target) is not one of them")
            }
            return .revert(to: target, try self.stack(c.parameter("stack"), at: target, current: revision, field: "to"))
        }
    }

    /// `GET /v1/stacks/{stack}/events?after=REV&limit=N`: the events of the mutations after
    /// revision `after` (default 0), at most `limit` mutations (default 100, at most 1000)
    /// and at most `limits.eventsAnswerBytes` of answer (at least one whole revision), each
    /// event with the revision that produced it; `next` links the rest when there is more.
    ///
    /// With `Accept: text/event-stream` the same URL streams them live as Server-Sent Events,
    /// one per revision (`id:` the revision), starting after `Last-Event-ID` (or `?after=`, or
    /// now), backlog first (`liveStream`).
    func history(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        if c.request.header("accept")?.contains("text/event-stream") == true {
            return try liveEvents(c)
        }
        try c.allowQuery(["after", "limit", Self.ticketParameter])
        let after = try c.queryInt("after", in: 0...Int(Int64.max)) ?? 0
        let limit = try c.queryInt("limit", in: 1...1000) ?? 100
        let entry = try store.entry(c.parameter("stack"))
        let revision = try entry.read { _, revision throws(APIError) in revision }
        return try feed.journaledHistory(key: entry.id, after: after, limit: limit, revision: revision, c)
    }

    /// Opens a Server-Sent Events stream on a stack (`liveStream`), relaying the stacks it
    /// embeds (`relayEmbedded`).
    func liveEvents(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery(["after", Self.ticketParameter])
        let entry = try store.entry(c.parameter("stack"))
        // Every revision in memory durable and published first: the journal then holds them
        // all, and later ones reach the stream once durable (Semantics.md, "Pipelined writes").
        return try feed.liveStream(c, key: entry.id, locked: { (body: (Int) throws(APIError) -> Void) throws(APIError) in
            try entry.readDurable { _, revision throws(APIError) in try body(revision) }
        }, then: { [self] stream in relayEmbedded(from: entry, to: stream) })
    }

    /// The most embedded stacks one stream relays.
    static let maxRelayedStacks = 256

    /// Subscribes `stream` as a relay (`EventHub`) to every stack `entry` embeds, down the
    /// tree (at most `EmbeddedLayouts.maxDepth` levels and `maxRelayedStacks` stacks, in
    /// breadth-first, row order), each from its revision now, read under its lock so no later
    /// revision is missed; a stack reached by several paths once, by the first. The tree is
    /// the one at this moment: a write that changes what a stack of it embeds ends the stream
    /// (`mutateOnce`), and the client's reconnection follows the new tree.
    ///
    /// - Complexity: O(rows of the stacks visited + relayed stacks × log n).
    func relayEmbedded(from entry: StackEntry, to stream: HTTPStream) {
        var seen: Set<String> = [entry.id]
        var queue: [(entry: StackEntry, path: [(stack: String, row: String)])] = [(entry, [])]
        var next = 0
        while next < queue.count, seen.count <= Self.maxRelayedStacks, !stream.isClosed {
            let (host, path) = queue[next]
            next += 1
            guard path.count < EmbeddedLayouts.maxDepth else { continue }
            let rows = (try? host.read { stack, _ throws(APIError) in
                stack.embeddingRows().sorted { $0.key < $1.key }.map { (row: stack.row(at: $0.key).id, stack: $0.value) }
            }) ?? []
            for (row, id) in rows where !seen.contains(id) && seen.count <= Self.maxRelayedStacks {
                guard let child = try? store.entry(id) else { continue }
                seen.insert(id)
                let levels = path + [(host.id, row)]
                let prefix = EventHub.relayPrefix(path: levels, stack: id)
                _ = try? child.readDurable { _, revision throws(APIError) in hub.subscribe(stream, to: id, after: revision, relay: prefix) }
                queue.append((child, levels))
            }
        }
    }
}
