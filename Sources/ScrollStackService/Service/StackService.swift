import Dispatch
import JSONCodec
import Logging
import MicroHTTP
import ScrollStackCore
import ScrollStackText
import ScrollStackTransitions
import ScrollStackStore
import Synchronization

/// The REST API v1 over a store of stacks. It turns requests into model operations and
/// results into JSON; it knows nothing of sockets (see `MicroHTTP`).
public final class StackService: Sendable {
    /// Handlers throw `APIError` only; the type says plain `throws` because Swift 6.3's
    /// compiler crashes on typed-throws closures stored in a generic type.
    typealias Handler = @Sendable (StackService, RequestContext) throws -> HTTPResponse

    let store = StackRegistry()
    /// The piles (push/pop view stacks): a service of their own, journaled beside the stacks.
    let piles: PileService
    let logger: Logger
    /// Where every acknowledged change is made durable; nil only for the scratch services
    /// that decode stored JSON (pile snapshots) while restoring.
    let journal: StackJournal?
    /// Live event streams, by stack.
    let hub = EventHub()
    /// The journal's events as history pages and live streams (shared with `piles`).
    let feed: EventFeed
    /// Encoded answers to repeated reads of unchanged stacks.
    let answers = AnswerCache()
    /// Which stacks embed which (rows' `stack`).
    let embeddings = Embeddings()
    /// What request values may hold.
    let limits: ServiceLimits
    /// How many layouts of whole stacks (stateless, for devices, drawn) run at once.
    let layoutGate: LayoutGate
    let router: Router<Handler>
    /// Measures fit rows: `FlexMeasurer` with a `TextEngine` over `fonts`.
    let measurer: any ContentMeasuring
    /// The fonts text nodes can use: the server's folders' and the uploaded ones
    /// (`GET /v1/fonts`, `POST /v1/fonts`).
    let fontLibrary: FontLibrary
    /// Every font text nodes can use now.
    var fonts: FontCatalog { fontLibrary.catalog }
    /// Held for reading by every request but reads and the font routes (writes to stacks,
    /// stateless layouts), from its decoding (where text is checked against the fonts) until
    /// its stack is in memory and its answer measured, and for writing by a font's deletion
    /// while it looks for text using the font: no write that checked its text against the font
    /// can land after that look, and no layout measures text whose font went meanwhile
    /// (`deleteFont`). Reads measure only stored stacks, whose fonts cannot go.
    let fontUse = ReadWriteLock()
    /// On replicas: which replica writes each stack (`WriteOwners`), set by `startReplication`.
    let writeOwners = Mutex<WriteOwners?>(nil)
    /// Measures menu titles: the same `TextEngine` as `measurer`'s (nil only in tests that
    /// build a service without text).
    let titleMeasurer: (any TitleMeasuring)?

    /// A service recording into `journal` (by default one held in memory: history and past
    /// revisions work, nothing survives the process), enforcing `limits` on request values and
    /// measuring text with `fonts` (by default Debian's Inter and DejaVu). Call `restore()`
    /// before serving.
    public convenience init(logger: Logger = Logger(label: "scrollstack.service"), journal: StackJournal? = nil,
                            limits: ServiceLimits = ServiceLimits(),
                            fonts: FontCatalog = FontCatalog(directories: FontCatalog.defaultDirectories)) {
        let text = TextEngine(catalog: fonts, shapeCacheBytes: limits.textCacheBytes, fontCacheBytes: limits.fontCacheBytes,
                              shards: limits.textShards)
        self.init(logger: logger, journalOrNone: journal ?? (try? StackJournal(path: ":memory:")), limits: limits,
                  measurer: FlexMeasurer(text: text), titleMeasurer: text, fonts: fonts)
    }

    init(logger: Logger, journalOrNone journal: StackJournal?, limits: ServiceLimits, measurer: any ContentMeasuring,
         titleMeasurer: (any TitleMeasuring)?, fonts: FontCatalog) {
        self.logger = logger
        self.journal = journal
        self.limits = limits
        self.layoutGate = LayoutGate(limit: limits.concurrentLayouts, patience: limits.layoutSlotPatience)
        feed = EventFeed(journal: journal, hub: hub, eventsAnswerBytes: limits.eventsAnswerBytes)
        piles = PileService(journal: journal, feed: feed, limits: limits, logger: logger)
        let embedded = EmbeddedStackMeasurer(base: measurer)
        self.measurer = embedded
        self.titleMeasurer = titleMeasurer
        let engine = titleMeasurer as? TextEngine
        fontLibrary = FontLibrary(server: fonts, engine: engine)
        var router = Router<Handler>()
        Self.addRoutes(to: &router)
        self.router = router
        embedded.attach(store)
        if let journal {
            // A gap at a stack's publication point is filled from the journal (`EventHub`).
            hub.fillGaps { key, after, upTo in
                guard upTo > after, let page = try? journal.events(id: key, after: after, limit: upTo - after) else { return nil }
                return page.filter { $0.revision <= upTo }.map { ($0.revision, EventHub.answerText(ofJournaled: $0.events)) }
            }
        }
        if let journal, let engine {
            // A family nobody here uploaded may have been uploaded on another replica: the
            // store's fonts are read again before it is refused.
            engine.onMissingFamily { [weak self] family in self?.fontMissing(family, journal: journal) }
        }
        journal?.observeDamage { [store, hub, logger] key, detail in
            Self.stackDamaged(key, detail: detail, store: store, hub: hub, logger: logger)
        }
    }

    /// What the text engine holds and has done (shapings, cached bytes), or nil for a service
    /// without one.
    public var textStatistics: TextEngine.Statistics? { (titleMeasurer as? TextEngine)?.statistics }

    /// Answers one request. Never throws: every failure becomes a JSON error response.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        var route: String?
        return handle(request, route: &route)
    }

    /// Answers one request, and sets `route` to the pattern of the routes owning its path
    /// (`/v1/stacks/{stack}`), or nil when none does: a label for metrics.
    public func handle(_ request: HTTPRequest, route: inout String?) -> HTTPResponse {
        let (match, pattern) = router.route(method: request.method, path: request.rawPath)
        route = pattern
        switch match {
        case .found(let handler, let parameters):
            var contended = false
            if let forwarded = forwardedWrite(request, pattern: pattern, parameters: parameters, note: &contended) { return forwarded }
            let response = answer(request, handler: handler, parameters: parameters, pattern: pattern)
            // The owner's answer to a forwarder while several sources write the stack: keep forwarding.
            return !contended ? response : response.mapped { response in
                var marked = response
                marked.headers.append((WriteOwners.contendedHeader, "1"))
                return marked
            }
        case .methodNotAllowed(let allowed):
            // Every path also answers OPTIONS (the edge's preflight and `Allow`).
            return .error(.methodNotAllowed(request.method, allowed: allowed + ["OPTIONS"]))
        case .notFound:
            return .error(.routeNotFound(request.method, request.path))
        }
    }

    /// Runs `handler` for `request` (its routed `parameters`, `pattern`): the fonts held where
    /// text is measured, a read on a replica looked up again after its stack was replaced,
    /// every failure turned into its JSON error.
    private func answer(_ request: HTTPRequest, handler: Handler, parameters: RouteParameters, pattern: String?) -> HTTPResponse {
        let context = RequestContext(request: request, parameters: parameters)
        // Writes and stateless layouts check text against the fonts, then measure it: they
        // hold `fontUse` so that no font goes in between. Told by the route's pattern, not
        // the path: however the path is written, such a request is one.
        let usesFonts = request.method != "GET" && request.method != "HEAD" && pattern.map { !$0.hasPrefix("/v1/fonts") } == true
        // A read (or a DELETE, refused before it deleted anything) may hold a stack that
        // another replica deleted meanwhile, or that this one reloaded after its own write
        // lost: nothing was changed, and it looks the stack up again (404, or the stack as
        // it is now: a lookup that cannot bring the cached stack forward loads it whole,
        // `ReplicaCache.current`), as `ConflictRetry` has writes do (`mutate`). A read never
        // answers a conflict: one whose stack was replaced each time it ran is 503 with
        // Retry-After, as when the store cannot be reached.
        let rereads = Self.changesNothing(request.method) && isReplicated
        func run() throws(APIError) -> HTTPResponse {
            do {
                if usesFonts { return try fontUse.withReadLock { () throws -> HTTPResponse in try handler(self, context) } }
                return try handler(self, context)
            } catch let error as APIError {
                throw error
            } catch {
                logger.error("unexpected error for \(request.summary): \(error)")
                throw APIError(status: 500, code: "internal_error", message: "unexpected error: \(error)")
            }
        }
        do {
            return rereads ? try ConflictRetry.run(checksFirstRefusal: false) { _ throws(APIError) in try run() } : try run()
        } catch where error.isRevisionConflict && rereads && request.method != "DELETE" {
            return .error(APIError(status: 503, code: "storage_unavailable",
                                   message: "the stack was replaced on another replica each time it was read; retry",
                                   headers: [("Retry-After", "1")]))
        } catch {
            return .error(error)
        }
    }

    /// Methods whose handlers change nothing when they fail with a revision conflict, so that
    /// `handle` may run them again: reads, and DELETE (a conflict comes before the deletion).
    private static func changesNothing(_ method: String) -> Bool {
        method == "GET" || method == "HEAD" || method == "DELETE"
    }

    /// The JSON answer to a failure the HTTP layer detects itself (400, 413, 501).
    public func respond(to request: HTTPRequest, failure: HTTPError) -> HTTPResponse {
        .error(APIError(status: failure.status, code: failure.code, message: failure.message, field: failure.field))
    }

    /// Every route of API v1. Paths with `{row}` are also served as `rows/at/{index}`.
    private static func addRoutes(to router: inout Router<Handler>) {
        router.add("GET", "/") { s, c in try s.index(c) }
        router.add("GET", "/openapi.yaml") { s, c in try s.openAPIYAML(c) }
        router.add("GET", "/openapi.json") { s, c in try s.openAPIJSON(c) }
        router.add("GET", "/healthz") { s, _ in s.health() }
        router.add("GET", "/v1/health") { s, c in try s.detailedHealth(c) }
        router.add("GET", "/v1/stacks") { s, c in try s.listStacks(c) }
        router.add("POST", "/v1/stacks") { s, c in try s.createStack(c) }
        router.add("GET", "/v1/stacks/{stack}") { s, c in try s.getStack(c) }
        router.add("PUT", "/v1/stacks/{stack}") { s, c in try s.putStack(c) }
        router.add("PATCH", "/v1/stacks/{stack}") { s, c in try s.patchStack(c) }
        router.add("POST", "/v1/stacks/{stack}/copy") { s, c in try s.copyStack(c) }
        router.add("DELETE", "/v1/stacks/{stack}") { s, c in try s.deleteStack(c) }
        router.add("POST", "/v1/stacks/{stack}/rows") { s, c in try s.insertRows(c) }
        router.add("GET", "/v1/stacks/{stack}/rows") { s, c in try s.listRows(c) }
        router.add("DELETE", "/v1/stacks/{stack}/rows") { s, c in try s.removeAllRows(c) }
        router.add("POST", "/v1/stacks/{stack}/rows/batch") { s, c in try s.batch(c) }
        for row in ["{row}", "at/{index}"] {
            let path = "/v1/stacks/{stack}/rows/" + row
            router.add("GET", path) { s, c in try s.getRow(c) }
            router.add("PUT", path) { s, c in try s.replaceRow(c) }
            router.add("PATCH", path) { s, c in try s.patchRow(c) }
            router.add("DELETE", path) { s, c in try s.removeRow(c) }
            router.add("POST", path + "/move") { s, c in try s.moveRow(c) }
        }
        router.add("GET", "/v1/stacks/{stack}/layout") { s, c in try s.stackLayout(c) }
        router.add("GET", "/v1/stacks/{stack}/layout.svg") { s, c in try s.stackLayoutSVG(c) }
        router.add("GET", "/v1/stacks/{stack}/layout.png") { s, c in try s.stackLayoutPNG(c) }
        router.add("GET", "/v1/stacks/{stack}/diff") { s, c in try s.stackDiff(c) }
        router.add("GET", "/v1/stacks/{stack}/diff.svg") { s, c in try s.stackDiffSVG(c) }
        router.add("GET", "/v1/stacks/{stack}/diff.png") { s, c in try s.stackDiffPNG(c) }
        router.add("GET", "/view") { s, c in try s.viewer(c) }
        router.add("GET", "/view/{stack}") { s, c in try s.viewer(c) }
        router.add("GET", "/v1/stacks/{stack}/hit") { s, c in try s.hitTest(c) }
        router.add("POST", "/v1/stacks/{stack}/scroll") { s, c in try s.scroll(c) }
        router.add("POST", "/v1/stacks/{stack}/scroll/settle") { s, c in try s.settle(c) }
        router.add("GET", "/v1/stacks/{stack}/menu/window") { s, c in try s.menuWindow(c) }
        router.add("POST", "/v1/stacks/{stack}/menu/select") { s, c in try s.menuSelect(c) }
        router.add("POST", "/v1/layout") { s, c in try s.statelessLayout(c) }
        router.add("POST", "/v1/layout.svg") { s, c in try s.statelessLayoutSVG(c) }
        router.add("POST", "/v1/layout.png") { s, c in try s.statelessLayoutPNG(c) }
        router.add("GET", "/v1/fonts") { s, c in try s.listFonts(c) }
        router.add("POST", "/v1/fonts") { s, c in try s.uploadFont(c) }
        router.add("GET", "/v1/fonts/{font}") { s, c in try s.getFont(c) }
        router.add("DELETE", "/v1/fonts/{font}") { s, c in try s.deleteFont(c) }
        router.add("GET", "/v1/devices") { s, c in try s.listDevices(c) }
        router.add("GET", "/v1/stacks/{stack}/events") { s, c in try s.history(c) }
        router.add("POST", "/v1/stacks/{stack}/revert") { s, c in try s.revert(c) }
        router.add("GET", "/v1/stacks/{stack}/transitions/{revision}") { s, c in try s.transition(c) }
        PileService.addRoutes(to: &router)
    }

    // MARK: Shared steps

    /// Applies one model operation to the stack a request names and answers with the
    /// mutation result (revision, changed rows, removed rows, events). An `If-Match` that
    /// does not name the current revision gets 412 and changes nothing; it is judged once the
    /// path's target is found, so an unknown row in the path is 404 (RFC 9110 §13.2.1).
    ///
    /// `operation` decodes the rest of the request against the current state (for example
    /// to merge a PATCH or generate row ids) into the one model operation this applies.
    ///
    /// Every change gets a transition plan, from a capture of the stack taken just before
    /// it: `targets` names the rows the change will touch (nil: the capture keeps the whole
    /// stack, see `TransitionCapture`). The answer carries the plan when `animation` asks;
    /// otherwise, for most operations (`derivesPlan`), only what computes it is journaled
    /// (`PlanRecipe`) and the plan is computed when read.
    ///
    /// The operation is journaled (`OperationRecord`; replaying it rebuilds the state) with
    /// the events it answers with and its plan, durably, before the answer is sent (pipelined:
    /// after the stack's lock is released, see `StackEntry.writeQueued`; deferred, without holding
    /// a server thread meanwhile: `answerWhenDurable`). `extra` writes members of its own
    /// after the answer's events, from the stack after the operation, under its lock. With `Prefer: return=minimal` the answer is
    /// only `{"id", "revision"}` (`HTTPResponse.minimal`): no rows, events, plan nor `extra`.
    /// A caller that changes the answer must
    /// pass `deferrable: false` (a deferred answer is only a placeholder when returned).
    ///
    /// Replicas: another one may journal the same revision first (the journal's 409
    /// `revision_conflict`); the change is then tried again on the new state, where an
    /// `If-Match` naming the revision the client saw answers 412. The first try is built on
    /// the cached stack without asking the journal where it stands (`entryForWriting`): an
    /// error it answers is judged again on a checked one.
    func mutate(_ context: RequestContext, snapshot: Bool = false, animation: AnimationRequest = AnimationRequest(),
                targets: ((ScrollStack) throws(APIError) -> [String])? = nil, extra: ((ScrollStack, inout JSONWriter) -> Void)? = nil,
                deferrable: Bool = true,
                _ operation: (ScrollStack, _ revision: Int) throws(APIError) -> StackOperation) throws(APIError) -> HTTPResponse {
        let id = context.parameter("stack")
        // A planned change of a stack that hosts re-measure answers their plans too: now.
        let plansHosts = animation.answersPlan && !embeddings.hosts(of: id).isEmpty
        let context = deferrable && !plansHosts ? context : context.answeringNow
        let written = try write(context, snapshot: snapshot, animation: animation, targets: targets, extra: extra, keepsPlan: false, operation)
        // The answer (written now: `plansHosts`) ends with the hosts' plans as its last member.
        let response = written.response
        guard !written.hosts.isEmpty, response.status == 200, !context.prefersMinimal, response.body.last == UInt8(ascii: "}") else { return response }
        var w = JSONWriter()
        w.beginArray()
        for host in written.hosts { host.write(into: &w) }
        w.endArray()
        let member = Array(#","hostTransitions":"#.utf8) + w.take()
        return HTTPResponse(status: response.status, headers: response.headers, body: response.body.dropLast() + member + [UInt8(ascii: "}")])
    }

    /// A host's fit rows re-measured after a write to a stack they embed (`refreshHosts`):
    /// the host, the revision the refresh made and its plan, as JSON text.
    struct HostTransition {
        var stack: String
        var revision: Int
        var transition: [UInt8]

        /// `{"stack", "revision", "transition"}`, a member of `hostTransitions`.
        func write(into w: inout JSONWriter) {
            w.beginObject()
            w.key(ascii: "stack")
            w.string(stack)
            w.key(ascii: "revision")
            w.integer(Int64(revision))
            w.key(ascii: "transition")
            w.json(transition)
            w.endObject()
        }
    }

    /// `mutate`'s write, tried again on a revision conflict, then its hosts refreshed: the
    /// answer, the write's own plan when `keepsPlan` (a host's refresh; nil when another
    /// replica made the write, nothing was planned or the answer is minimal) and the plans of
    /// the hosts it refreshed, theirs included.
    private func write(_ context: RequestContext, snapshot: Bool, animation: AnimationRequest,
                       targets: ((ScrollStack) throws(APIError) -> [String])?, extra: ((ScrollStack, inout JSONWriter) -> Void)?,
                       keepsPlan: Bool,
                       _ operation: (ScrollStack, _ revision: Int) throws(APIError) -> StackOperation) throws(APIError)
        -> (response: HTTPResponse, plan: HostTransition?, hosts: [HostTransition]) {
        let id = context.parameter("stack")
        var madeByOwner = false
        let (response, plan) = try ConflictRetry.run(checksFirstRefusal: isReplicated) { attempt throws(APIError) -> (HTTPResponse, HostTransition?) in
            if attempt > 0 {
                // Lost a race: the stack is contended; its owner, if another replica, makes it
                // (and refreshes its hosts).
                noteConflict(id)
                if let forwarded = forwardedRetry(context.request, id: id) {
                    madeByOwner = true
                    return (forwarded, nil)
                }
            }
            return try mutateOnce(context, checked: attempt > 0, snapshot: snapshot, animation: animation, targets: targets, extra: extra,
                                  keepsPlan: keepsPlan, operation)
        }
        if madeByOwner { return (response, nil, []) }
        return (response, plan, refreshHosts(of: id, animation: animation))
    }

    /// The nested rows of each row of `kept` that embeds a stack of `host`
    /// (`EmbeddedLayouts.nestedRows(of:host:)`, `writePlan`'s `nested`); nil when `host`
    /// embeds none.
    func nestedPlanRows(_ kept: TransitionPlan, host: ScrollStack) -> [JSON?]? {
        guard !host.embeddedStacks.isEmpty else { return nil }
        return EmbeddedLayouts(depth: 1, visibleOnly: true) { [store] id in try? store.entry(id) }.nestedRows(of: kept, host: host)
    }

    /// After a write to stack `id`: each host with fit rows embedding it whose length the
    /// write changed gets them re-measured by a `reload` of those rows, a write of its own
    /// (journaled, with its `rowResized` events, planned with `animation`), which in turn
    /// refreshes its own hosts; the graph has no cycle, so this ends. When `animation` asks
    /// for plans, answers each refreshed host's `{stack, revision, transition}`, hosts'
    /// hosts included. O(1) for a stack no fit row embeds; otherwise, per host, O(n) to find
    /// the rows and a measure of each.
    func refreshHosts(of id: String, animation: AnimationRequest = AnimationRequest()) -> [HostTransition] {
        var plans: [HostTransition] = []
        for host in embeddings.hosts(of: id) {
            guard let entry = try? store.entry(host),
                  let stale = try? entry.read({ stack, _ throws(APIError) in stack.staleFitRows(embedding: id) }), !stale.isEmpty else { continue }
            // Made here, never forwarded: a host is refreshed by the replica that wrote its guest.
            let request = HTTPRequest(method: "POST", path: "/v1/stacks/\(host)/rows/batch", headers: [(WriteOwners.forwardedHeader, "here")])
            let context = RequestContext(request: request, parameters: ["stack": host]).answeringNow
            let refreshed = try? write(context, snapshot: false, animation: animation, targets: nil, extra: nil,
                                       keepsPlan: animation.answersPlan) { stack, _ throws(APIError) in
                .reload(stack.staleFitRows(embedding: id).map { RowReference.index($0) })
            }
            guard let refreshed, refreshed.response.status == 200 else {
                logger.warning("the fit rows of \(host) embedding \(id) were not re-measured (the next write to \(id) retries)")
                continue
            }
            if let plan = refreshed.plan { plans.append(plan) }
            plans += refreshed.hosts
        }
        return plans
    }

    private func mutateOnce(_ context: RequestContext, checked: Bool, snapshot: Bool, animation: AnimationRequest,
                            targets: ((ScrollStack) throws(APIError) -> [String])?, extra: ((ScrollStack, inout JSONWriter) -> Void)?,
                            keepsPlan: Bool,
                            _ operation: (ScrollStack, _ revision: Int) throws(APIError) -> StackOperation) throws(APIError)
        -> (HTTPResponse, HostTransition?) {
        let (entry, incarnation) = try store.entryForWriting(context.parameter("stack"), checked: checked)
        let (outcome, pending) = try entry.writeQueued({ (stack: inout ScrollStack, revision: Int) throws(APIError) -> Planned in
            answers.forget(entry)
            // The path's row first: an unknown one is 404 whatever If-Match says (RFC 9110 §13.2.1).
            if context.parameters["row"] != nil || context.parameters["index"] != nil { _ = try pathRow(context, in: stack) }
            try context.checkIfMatch(revision)
            let named = try targets?(stack)
            let operation = try operation(stack, revision)
            let embeds = try admitEmbeddings(operation, host: entry.id, in: stack)
            // Whatever happens below, the graph ends with what the rows embed. When that
            // changes, the streams following this stack's tree (its own, and those relaying it)
            // end: their clients reconnect and follow the new tree.
            defer { if embeds && embeddings.set(host: entry.id, to: stack.embeddedStacks) { hub.closeAll(entry.id) } }
            let (timing, animated) = (animation.timing(for: operation, in: stack), animation.timing != nil)
            if !animation.answersPlan, Self.derivesPlan(of: operation) {
                // Nobody sees this plan now: the journal keeps what computes it when read.
                let (result, cost) = try timedApply(operation, to: &stack)
                return Planned(result: result, plan: nil, operation: operation.journaled(after: stack),
                               recipe: PlanRecipe(animated: animated, timing: timing, targets: named), replayCost: cost)
            }
            let capture = TransitionCapture(stack, targets: named)
            guard let fps = animation.fps else {
                let (result, cost) = try timedApply(operation, to: &stack)
                let plan = TransitionPlanner.plan(from: capture, to: stack, result: result, timing: timing, animated: animated)
                return Planned(result: result, plan: plan, operation: operation.journaled(after: stack), recipe: nil, replayCost: cost)
            }
            // Keyframes asked for: the change is made on a copy first, so that a plan too big
            // to sample (`AnimationRequest.maxRowSamples`) is refused with the stack unchanged.
            var after = stack
            let (result, cost) = try timedApply(operation, to: &after)
            let plan = TransitionPlanner.plan(from: capture, to: after, result: result, timing: timing, animated: animated)
            if let error = AnimationRequest.rowSampleViolation(plan, fps: fps) { throw error }
            stack = after
            return Planned(result: result, plan: plan, operation: operation.journaled(after: stack), recipe: nil, replayCost: cost)
        }, persist: { planned, stack, revision -> PendingWrite? in
            journalMutation(entry.id, planned.operation, planned.result, stack, revision, forceSnapshot: snapshot,
                                plan: planned.recipe?.encoded ?? planned.plan.map { ModelEncoding.planText($0, revision: revision, realPrecision: 17) },
                                after: entry.inFlight, incarnation: incarnation, replayCost: planned.replayCost)
        }, restore: { () throws(APIError) in
            try journaledState(of: entry)
        }, recover: { [weak self] () throws(APIError) in
            guard let self else { throw APIError.storageFailed("the service is gone") }
            answers.forget(entry)
            return try journaledState(of: entry)
        }, answer: { planned, stack, revision -> MutationAnswer in
            if context.prefersMinimal { return .response(.minimal(200, id: entry.id, revision: revision)) }
            if extra == nil, animation.fps == nil, !keepsPlan, !(animation.answersPlan && !stack.embeddedStacks.isEmpty) {
                // The common answer, and one with its plan, written once the lock is released:
                // only the changed rows are taken now. A plan with nested rows (a host's), with
                // keyframes or kept for the caller (`keepsPlan`) is written below, under the lock.
                return .text(revision: revision, result: planned.result, changed: ModelEncoding.changedRows(planned.result, in: stack),
                             transition: animation.answersPlan ? planned.plan : nil)
            }
            // Keyframes are bounded (`AnimationRequest.maxRowSamples`); nested rows are read under the lock.
            let result = planned.result
            var w = JSONWriter(capacity: ModelEncoding.mutationCapacity(result, planRows: planned.plan?.rows.count ?? 0))
            ModelEncoding.writeMutationOpening(revision: revision, result, changed: ModelEncoding.changedRows(result, in: stack), into: &w)
            var kept: HostTransition?
            if animation.answersPlan, let plan = planned.plan {
                let nested = nestedPlanRows(plan, host: stack)
                w.key(ascii: "transition")
                if keepsPlan {
                    // Written apart once, for the caller, and copied into the answer.
                    var text = JSONWriter()
                    ModelEncoding.writePlan(plan, revision: revision, nested: nested, fps: animation.fps, into: &text)
                    kept = HostTransition(stack: entry.id, revision: revision, transition: text.take())
                    w.json(kept!.transition)
                } else {
                    ModelEncoding.writePlan(plan, revision: revision, nested: nested, fps: animation.fps, into: &w)
                }
            }
            extra?(stack, &w)
            w.endObject()
            return .response(.json(200, text: w.take(), revision: revision), plan: kept)
        })
        let plan = if case .success(.response(_, let plan)) = outcome { plan } else { HostTransition?.none }
        return (try answerWhenDurable(context, entry, outcome.map { $0.response }, pending), plan)
    }

    /// Checks and reserves the embeddings `operation` adds to `host` (`Embeddings.admit`);
    /// true when the host's embeddings may change, so that the graph must be set after it.
    /// Replicas refuse embedding: their graph would know only this replica's writes.
    func admitEmbeddings(_ operation: StackOperation, host: String, in stack: ScrollStack) throws(APIError) -> Bool {
        let requests = operation.embeddingRequests
        if let first = requests.first, isReplicated {
            throw .invalid(first.field, "embedding a stack is not available with replicas (--store postgres://): their graph of embeddings is not shared yet")
        }
        try embeddings.admit(host: host, requests, exists: store.contains)
        return !requests.isEmpty || !stack.embeddedStacks.isEmpty
    }

    /// A mutation's answer as its body leaves the stack's lock: made, or still to be written
    /// from what was taken under the lock (the common answer, written after the lock is
    /// released so that other writers of the stack wait less).
    private enum MutationAnswer {
        /// Made; with the write's own plan when the caller keeps it (`HostTransition`).
        case response(HTTPResponse, plan: HostTransition? = nil)
        case text(revision: Int, result: OperationResult, changed: [(row: Row, index: Int)], transition: TransitionPlan?)

        var response: HTTPResponse {
            switch self {
            case .response(let response, _):
                return response
            case .text(let revision, let result, let changed, let transition):
                return .json(200, text: ModelEncoding.mutationText(revision: revision, result, changed: changed, transition: transition),
                             revision: revision)
            }
        }
    }

    /// What a mutation's body made, for its journal write and its answer.
    private struct Planned {
        var result: OperationResult
        /// The plan, when computed now (nil: the `recipe` computes it when read).
        var plan: TransitionPlan?
        var operation: StackOperation
        var recipe: PlanRecipe?
        /// Nanoseconds the model operation took to apply: what replaying it costs
        /// (`StackJournal.claimSnapshot`).
        var replayCost: UInt64
    }

    /// Applies `operation` to `stack`, timing it.
    private func timedApply(_ operation: StackOperation, to stack: inout ScrollStack) throws(APIError) -> (OperationResult, UInt64) {
        let started = DispatchTime.now().uptimeNanoseconds
        let result = try model { () throws(StackError) in try operation.apply(to: &stack) }
        return (result, DispatchTime.now().uptimeNanoseconds - started)
    }

    /// Answers a read of the stack a request names under its read lock: `body`'s answer, or
    /// 304 (with the ETag, no body) when `If-None-Match` names the revision that answer is
    /// about (a past one for `?revision=`). Decided after `body`, so a bad query is still a 400.
    func read(_ context: RequestContext, _ body: (ScrollStack, Int) throws(APIError) -> HTTPResponse) throws(APIError) -> HTTPResponse {
        let entry = try store.entry(context.parameter("stack"))
        return try entry.read { stack, revision throws(APIError) in
            let response = try body(stack, revision)
            return notModified(context, response) ?? response
        }
    }

    /// 304 (with the ETag, no body) when `response` is a 200 whose ETag names the revision
    /// `If-None-Match` names.
    func notModified(_ context: RequestContext, _ response: HTTPResponse) -> HTTPResponse? {
        guard response.status == 200, let wanted = context.request.header("if-none-match"), let tag = response.header("etag") else { return nil }
        if let answered = Int(tag.dropFirst().dropLast()) {
            guard RequestContext.tags(wanted, include: answered) else { return nil }
        } else {
            // A composed answer's tag (`EmbeddedLayouts.entityTag`), compared whole (weak tags match too).
            let named = wanted.split(separator: ",").map { $0.trimmingSpaces }.map { $0.hasPrefix("W/") ? String($0.dropFirst(2)) : String($0) }
            guard named.contains(tag) || named.contains("*") else { return nil }
        }
        return HTTPResponse(status: 304, headers: [("ETag", tag)])
    }

    /// Runs a model operation, turning its error into the API's.
    func model<T>(_ body: () throws(StackError) -> T) throws(APIError) -> T {
        do { return try body() } catch { throw APIError(error) }
    }

    /// Resolves the row a path names, as a 404 when it is unknown.
    func pathRow(_ context: RequestContext, in stack: ScrollStack) throws(APIError) -> (row: Row, index: Int) {
        let reference = try context.rowReference()
        do { return try stack.resolve(reference) } catch { throw .rowNotFound(reference) }
    }

    /// A random stack id: `s-` and 12 hex digits, not used by `isTaken`.
    static func makeStackID(isTaken: (String) -> Bool) -> String {
        var generator = SystemRandomNumberGenerator()
        while true {
            let id = hex12(generator.next(), after: UInt8(ascii: "s"))
            if !isTaken(id) { return id }
        }
    }

    /// `letter`, `-` and the low 48 bits of `value` as 12 lower-case hex digits (`s-…`, `r-…`),
    /// written into one string.
    static func hex12(_ value: UInt64, after letter: UInt8) -> String {
        String(unsafeUninitializedCapacity: 14) { buffer in
            buffer[0] = letter
            buffer[1] = UInt8(ascii: "-")
            for i in 0..<12 {
                let digit = UInt8((value >> (4 * UInt64(11 - i))) & 0xF)
                buffer[2 + i] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
            }
            return 14
        }
    }
}
