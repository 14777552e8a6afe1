import JSONCodec
import Logging
import MicroHTTP
import ScrollStackCore
import ScrollStackText
import ScrollStackPiles
import ScrollStackTransitions
import ScrollStackStore

extension PileService {
    // MARK: Resource

    /// `GET /v1/piles`: `[{id, revision, viewCount, active}]`, ordered by id.
    func listPiles(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery([])
        try refreshReplicatedPiles()
        var items: [JSON] = []
        for entry in registry.all() {
            items.append(try entry.read { pile, revision throws(APIError) in
                .object(JSONObject([("id", .string(entry.id)), ("revision", .integer(Int64(revision))),
                                    ("viewCount", .integer(Int64(pile.views.count))), ("active", pile.active.map { .string($0.id) } ?? .null)]))
            })
        }
        return .json(200, .array(items))
    }

    /// `POST /v1/piles`: `{id?, bounds, metrics?, animation?, views?}`; 201 with the pile.
    func createPile(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery([])
        let body = try c.jsonObject()
        let id = try StackService.resourceID(body) { "p-" + StackService.makeStackID(isTaken: registry.contains).dropFirst(2) }
        let pile = try decodePile(body, id: id)
        try registry.insert(PileEntry(id: id, pile: pile))
        do throws(JournalError) {
            try journal?.recordCreation(id: Self.journalPrefix + id, model: Self.pileSnapshot(id: id, revision: 1, pile))
        } catch {
            registry.remove(id)
            // Replicas share ids: another one created this pile first.
            if case .conflict = error { throw .duplicatePile(id) }
            throw APIError(error)
        }
        return .json(201, ModelEncoding.pile(id: id, revision: 1, pile), revision: 1, headers: [("Location", "/v1/piles/\(id)")])
    }

    /// Decodes a create body (or a snapshot: read-only members are accepted and ignored).
    func decodePile(_ body: ObjectReader, id: String) throws(APIError) -> Pile {
        try Self.decodePile(body, id: id, maxJSONDepth: limits.maxJSONDepth)
    }

    /// `decodePile` with view descriptors at most `maxJSONDepth` deep.
    static func decodePile(_ body: ObjectReader, id: String, maxJSONDepth: Int) throws(APIError) -> Pile {
        try body.allowOnly(["id", "revision", "bounds", "metrics", "animation", "active", "views"])
        let bounds = try ModelDecoding.bounds(try body.required("bounds"))
        let metrics = try body.optional("metrics").map { f throws(APIError) in try ModelDecoding.pileMetrics(f, bounds: bounds) } ?? PileMetrics()
        var animation = AnimationTiming.pile
        if let f = try body.optional("animation") {
            guard let timing = try ModelDecoding.timing(f, defaults: .pile, curves: true) else {
                throw .invalid(f.path, "a pile's default animation is an object (or true for Pile's defaults)")
            }
            animation = timing
        }
        var views: [PileView] = []
        if let f = try body.optional("views") {
            for (i, field) in try f.array().enumerated() {
                let object = try field.object()
                try object.allowOnly(ModelDecoding.pileViewKeys)
                views.append(try ModelDecoding.pileView(object, maxDepth: maxJSONDepth) { Self.makeViewID(pile: id, revision: 1, attempt: i) })
            }
        }
        do throws(PileError) { return try Pile(bounds: bounds, metrics: metrics, animation: animation, views: views) } catch { throw APIError(error) }
    }

    /// `GET /v1/piles/{pile}`: the pile; 304 for an `If-None-Match` naming its revision.
    func getPile(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery([])
        let entry = try registry.entry(c.parameter("pile"))
        return try entry.read { pile, revision throws(APIError) in
            if c.isNotModified(revision) { return HTTPResponse(status: 304, headers: [("ETag", "\"\(revision)\"")]) }
            return .json(200, ModelEncoding.pile(id: entry.id, revision: revision, pile), revision: revision)
        }
    }

    /// `DELETE /v1/piles/{pile}`: 204. Honours `If-Match`.
    func deletePile(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery([])
        let entry = try registry.entry(c.parameter("pile"))
        try entry.delete(check: { revision throws(APIError) in try c.checkIfMatch(revision, of: "pile") },
                         remove: { () throws(APIError) in
                             do throws(JournalError) { try journal?.recordDeletion(id: Self.journalPrefix + entry.id) } catch { throw APIError(error) }
                             // Its streams end before the id is free, as a stack's do.
                             hub.closeAll(Self.journalPrefix + entry.id)
                             registry.remove(entry.id)
                         })
        return HTTPResponse(status: 204)
    }

    // MARK: Operations

    /// `POST …/push`: `{id?, controller | view, animation?, fps?}`.
    func pushView(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery(["fps"])
        let (reader, animation) = try pileBody(c)
        guard let body = reader else { throw .unsupportedMediaType(nil) }
        try body.allowOnly(["id", "controller", "view"] + ModelDecoding.animationKeys)
        return try mutatePile(c, animation: animation) { pile, revision throws(APIError) -> PileOperation in
            let view = try ModelDecoding.pileView(body, maxDepth: limits.maxJSONDepth) {
                var attempt = 0
                while true {
                    let id = Self.makeViewID(pile: c.parameter("pile"), revision: revision + 1, attempt: attempt)
                    if !pile.views.contains(where: { $0.id == id }) { return id }
                    attempt += 1
                }
            }
            return .push(view)
        }
    }

    /// `POST …/pop`: an optional body `{animation?, fps?}`.
    func popView(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery(["fps"])
        let (body, animation) = try pileBody(c, optional: true)
        try body?.allowOnly(ModelDecoding.animationKeys)
        return try mutatePile(c, animation: animation) { _, _ in .pop }
    }

    /// `POST …/set`: `{views: [...], animation?, fps?}` replaces every view.
    func setViews(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery(["fps"])
        let (reader, animation) = try pileBody(c)
        guard let body = reader else { throw .unsupportedMediaType(nil) }
        try body.allowOnly(["views"] + ModelDecoding.animationKeys)
        let fields = try body.required("views").array()
        return try mutatePile(c, animation: animation) { _, revision throws(APIError) -> PileOperation in
            var views: [PileView] = []
            for (i, field) in fields.enumerated() {
                let object = try field.object()
                try object.allowOnly(["id", "controller", "view"])
                views.append(try ModelDecoding.pileView(object, maxDepth: limits.maxJSONDepth) { Self.makeViewID(pile: c.parameter("pile"), revision: revision + 1, attempt: i) })
            }
            return .set(views)
        }
    }

    /// `POST …/update`: `{id?, controller | view}` changes a view's descriptor (default: the
    /// active view's); nothing moves.
    func updateView(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery(["fps"])
        let (reader, animation) = try pileBody(c)
        guard let body = reader else { throw .unsupportedMediaType(nil) }
        try body.allowOnly(["id", "controller", "view"] + ModelDecoding.animationKeys)
        let id = try ModelDecoding.pileViewID(body)
        let content = try ModelDecoding.pileViewContent(body, maxDepth: limits.maxJSONDepth)
        return try mutatePile(c, animation: animation) { _, _ in .update(id: id, content: content) }
    }

    /// The body of a pile operation without `animation`/`fps`, and what they ask, over the
    /// pile's own default animation (a spring or a timing curve). An optional body may be empty (nil).
    func pileBody(_ c: RequestContext, optional: Bool = false) throws(APIError) -> (ObjectReader?, AnimationRequest) {
        let defaults = try registry.entry(c.parameter("pile")).read { pile, _ throws(APIError) in pile.animation }
        let body = optional && c.request.body.isEmpty ? nil : try c.jsonObject()
        return try ModelDecoding.animation(body, c, defaults: defaults, curves: true)
    }

    /// Applies the pile operation `operation` decodes against the current state, journals it
    /// (operation, events, plan) and answers `{revision, pile, events, transition?}`;
    /// `If-Match` as for stacks. A snapshot that is due is written later, off the pile's lock.
    ///
    /// Replicas: as `mutate` for stacks, a write that another replica's revision beat (the
    /// journal's 409 `revision_conflict`) is tried again on the new state, at most 32 times;
    /// an `If-Match` naming the revision the client saw then answers 412. As for stacks, the
    /// first try is built on the cached pile without a `head` read (the request read it just
    /// before, `pileBody`), and an error it answers is judged again on a checked one.
    func mutatePile(_ c: RequestContext, animation: AnimationRequest,
                    _ operation: (Pile, Int) throws(APIError) -> PileOperation) throws(APIError) -> HTTPResponse {
        try ConflictRetry.run(checksFirstRefusal: isReplicated) { attempt throws(APIError) in
            try mutatePileOnce(c, checked: attempt > 0, animation: animation, operation)
        }
    }

    private func mutatePileOnce(_ c: RequestContext, checked: Bool, animation: AnimationRequest,
                                _ operation: (Pile, Int) throws(APIError) -> PileOperation) throws(APIError) -> HTTPResponse {
        let (entry, incarnation) = try registry.entryForWriting(c.parameter("pile"), checked: checked)
        let key = Self.journalPrefix + entry.id
        var before = 0
        return try entry.write({ (pile: inout Pile, revision: Int) throws(APIError) -> (PileChange, PilePlan, PileOperation) in
            before = revision
            try c.checkIfMatch(revision, of: "pile")
            let operation = try operation(pile, revision)
            let change: PileChange
            do throws(PileError) { change = try operation.apply(to: &pile) } catch { throw APIError(error) }
            return (change, PilePlan(animated: animation.timing != nil, timing: animation.timing ?? pile.animation, motions: change.motions), operation)
        }, persist: { planned, pile, revision throws(APIError) in
            guard let journal else { return }
            let events = JSON.array(planned.0.events.map(ModelEncoding.pileEvent))
            let record = JournalRecord(revision: revision, operation: OperationRecord.pile(planned.2), events: events.serialized(realPrecision: 17),
                                       plan: ModelEncoding.pilePlan(planned.1, revision: revision).serialized(realPrecision: 17))
            do throws(JournalError) {
                try journal.recordMutation(id: key, record: record, snapshot: nil, incarnation: incarnation)
            } catch {
                // Between replicas a conflict is routine (the write is retried on the new state).
                if case .conflict = error {
                    logger.notice("journal write for pile \(entry.id) at revision \(revision) lost to another writer: \(error)")
                } else {
                    logger.error("journal write failed for pile \(entry.id) at revision \(revision): \(error)")
                }
                throw APIError(error)
            }
            if journal.snapshotDue(id: key, revision: revision, rowCount: pile.views.count) {
                let id = entry.id, logger = logger
                journal.recordSnapshotLater(id: key, revision: revision, encode: { Self.pileSnapshot(id: id, revision: revision, pile) },
                                            failed: { logger.warning("snapshot of pile \(id) at revision \(revision) not written (replays start from an older one): \($0)") })
            }
            hub.publish(revision: revision, events: { events.serialized() }, to: key)
        }, restore: { () throws(APIError) in
            // A replica goes back to the revision it started from; its next lookup applies
            // (and publishes) the revisions others journaled since. A pile another replica
            // deleted (or deleted and created again) meanwhile has no such state: the write
            // conflicts and is tried again on a checked entry (404, or the new pile).
            guard let replica = registry.replication.withLock({ $0 }) else { return try reloadPile(entry.id) }
            guard let incarnation = replica.incarnation(of: entry) else { throw APIError(JournalError.conflict(key: key, latest: nil)) }
            return (try pile(entry.id, at: before, incarnation: incarnation), before)
        }, answer: { planned, pile, revision in
            var members: [(String, JSON)] = [
                ("revision", .integer(Int64(revision))), ("pile", ModelEncoding.pile(id: entry.id, revision: revision, pile)),
                ("events", .array(planned.0.events.map(ModelEncoding.pileEvent))),
            ]
            if animation.answersPlan {
                let plan = ModelEncoding.pilePlan(planned.1, revision: revision)
                members.append(("transition", animation.fps.map { ModelEncoding.sampledPilePlan(plan, fps: $0) } ?? plan))
            }
            return .json(200, .object(JSONObject(members)), revision: revision)
        })
    }

    // MARK: History and plans

    /// `GET /v1/piles/{pile}/events?after=&limit=`, or live with `Accept: text/event-stream`,
    /// exactly as for stacks.
    func pileHistory(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        let entry = try registry.entry(c.parameter("pile"))
        let key = Self.journalPrefix + entry.id
        guard journal != nil else { throw .storageFailed("this service keeps no journal") }
        if c.request.header("accept")?.contains("text/event-stream") == true {
            try c.allowQuery(["after", StackService.ticketParameter])
            return try feed.liveStream(c, key: key) { (body: (Int) throws(APIError) -> Void) throws(APIError) in
                try entry.read { _, revision throws(APIError) in try body(revision) }
            }
        }
        try c.allowQuery(["after", "limit", StackService.ticketParameter])
        let after = try c.queryInt("after", in: 0...Int(Int64.max)) ?? 0
        let limit = try c.queryInt("limit", in: 1...1000) ?? 100
        let revision = try entry.read { _, revision throws(APIError) in revision }
        return try feed.journaledHistory(key: key, after: after, limit: limit, revision: revision, c)
    }

    /// `GET /v1/piles/{pile}/transitions/{revision}?fps=N`: the plan kept with that change.
    func pileTransition(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery(["fps"])
        let (_, animation) = try ModelDecoding.animation(nil, c, defaults: .pile)
        let entry = try registry.entry(c.parameter("pile"))
        let current = try entry.read { _, revision throws(APIError) in revision }
        let text = c.parameter("revision")
        guard let revision = Int(text), (1...current).contains(revision) else {
            throw APIError(.revisionNotFound, message: "the pile's revisions are 1…\(current); \"\(text)\" is not one of them", field: "revision")
        }
        guard revision > 1 else {
            throw APIError(.transitionNotFound, message: "revision 1 created the pile: no change led to it", field: "revision")
        }
        guard let journal else { throw .storageFailed("this service keeps no journal") }
        let stored: [UInt8]?
        do throws(JournalError) { stored = try journal.plan(id: Self.journalPrefix + entry.id, revision: revision) } catch { throw APIError(error) }
        guard let stored, let plan = try? JSON.parse(stored) else {
            throw APIError(.transitionNotFound, message: "no plan was kept for revision \(revision)", field: "revision")
        }
        guard let fps = animation.fps else { return .json(200, plan, revision: revision) }
        guard let decoded = ModelDecoding.storedPilePlan(plan) else { throw .storageFailed("the plan of revision \(revision) does not decode") }
        let frames = KeyframeSampler.frameCount(decoded.timing, fps: fps)
        guard frames <= AnimationRequest.maxFrames else {
            throw .invalid("fps", AnimationRequest.frameLimitMessage(decoded.timing, fps: fps, frames: frames))
        }
        return .json(200, ModelEncoding.sampledPilePlan(plan, fps: fps), revision: revision)
    }

    // MARK: Durability

    static func pileSnapshot(id: String, revision: Int, _ pile: Pile) -> [UInt8] {
        ModelEncoding.pile(id: id, revision: revision, pile).serialized(realPrecision: 17)
    }

    /// A view id: `v-` and 12 hex digits derived from the pile, the revision being made and a
    /// counter, so a replay generates the same ids.
    static func makeViewID(pile: String, revision: Int, attempt: Int) -> String {
        var ids = RowIDGenerator(stack: "pile:\(pile)#\(attempt)", revision: revision)
        return "v-" + ids.next { _ in false }.dropFirst(2)
    }

    /// Rebuilds journaled piles (their snapshot, then their records applied) into the
    /// registry. Returns how many.
    func restore(_ stored: [StoredJournal]) throws -> Int {
        for item in stored {
            let replayed = try Self.rebuild(item)
            try registry.insert(PileEntry(id: String(item.key.dropFirst(Self.journalPrefix.count)), pile: replayed.pile, revision: replayed.revision))
        }
        return stored.count
    }

    func reloadPile(_ id: String) throws(APIError) -> (Pile, Int) {
        let stored = try feed.storedJournal(Self.journalPrefix + id, notFound: .pileNotFound(id))
        let replayed = try Self.rebuild(stored)
        return (replayed.pile, replayed.revision)
    }

    /// A pile rebuilt from its journal.
    struct Replayed {
        var pile: Pile
        var revision: Int
    }

    /// Rebuilds a stored pile: its snapshot (the API's JSON of the pile, decoded with the
    /// replay's limits), then the operation of each record after it applied to the pile.
    ///
    /// - Complexity: the snapshot's size, plus each record's operation (O(views)).
    static func rebuild(_ stored: StoredJournal) throws(APIError) -> Replayed {
        let id = String(stored.key.dropFirst(journalPrefix.count))
        guard case .object(let object)? = try? JSON.parse(stored.snapshot) else {
            throw .journalUnreadable("the snapshot of pile \(id) at revision \(stored.snapshotRevision) is not a JSON object")
        }
        let pile = try decodePile(ObjectReader(object: object, path: ""), id: id, maxJSONDepth: ServiceLimits.replay.maxJSONDepth)
        var replayed = Replayed(pile: pile, revision: stored.snapshotRevision)
        for record in stored.records {
            let what = "revision \(record.revision) of pile \(id)"
            guard record.revision == replayed.revision + 1 else { throw .journalUnreadable("\(what) follows revision \(replayed.revision)") }
            let decoded = try OperationRecord.decodePile(record.operation, what: what)
            do throws(PileError) { _ = try decoded.apply(to: &replayed.pile) } catch {
                throw .journalUnreadable("replaying \(what) failed: \(APIError(error).message)")
            }
            replayed.revision = record.revision
        }
        return replayed
    }
}
