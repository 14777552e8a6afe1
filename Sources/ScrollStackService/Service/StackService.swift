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
                throw APIError(.internalError, message: "unexpected error: \(error)")
            }
        }
        do {
            return rereads ? try ConflictRetry.run(checksFirstRefusal: false) { _ throws(APIError) in try run() } : try run()
        } catch where error.isRevisionConflict && rereads && request.method != "DELETE" {
            return .error(APIError(.storageUnavailable,
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

    /// The JSON answer to a failure the HTTP layer detects itself: 400 `bad_request`, 413
    /// `payload_too_large` or 501 `not_implemented`, each one of the service's codes too (an
    /// HTTP-layer code the service did not know would be answered as `bad_request`).
    public func respond(to request: HTTPRequest, failure: HTTPError) -> HTTPResponse {
        .error(APIError(APIError.Code(rawValue: failure.code) ?? .badRequest, message: failure.message, field: failure.field))
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
