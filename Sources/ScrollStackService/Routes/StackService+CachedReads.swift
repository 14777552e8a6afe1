import MicroHTTP
import ScrollStackCore

extension StackService {
    /// `read(_:_:)` through the answer cache (`AnswerCache`): a 200 answer `body` gives is kept
    /// for this stack's revision and request, and served again until the stack changes. The
    /// cache sits before the conditional check, so a cached answer still answers
    /// `If-None-Match` with 304. A kept answer also keeps its gzip encoding
    /// (`HTTPResponse.gzipBody`), made once, by the first request that accepts gzip.
    /// `lookup` is what `keptAnswer` found when the caller asked it first: the entry and the
    /// key are not looked up or made again, and the cache is not asked again at the revision
    /// where it had no answer (one kept since by another request is the same answer, made
    /// again and kept again).
    func cachedRead(_ context: RequestContext, lookup: KeptLookup? = nil,
                    _ body: (ScrollStack, Int) throws(APIError) -> HTTPResponse) throws(APIError) -> HTTPResponse {
        let found: StackEntry
        if let entry = lookup?.entry { found = entry } else { found = try store.entry(context.parameter("stack")) }
        let entry = found
        let key = lookup?.key ?? AnswerCache.key(context.request)
        let missed = lookup?.missedAt
        return try entry.read { stack, revision throws(APIError) in
            if revision != missed, let kept = answers.answer(entry, revision: revision, key: key) {
                return sent(kept, context, entry, revision, key, hit: true)
            }
            let response = try body(stack, revision)
            if response.status == 200, let source = response.source {
                record(response, source, rows: stack.count, entry, revision, key)
            }
            // A composed answer (`EmbeddedLayouts.entityTag`) depends on other stacks too: never kept.
            let keep = response.status == 200 && response.stream == nil && response.source == nil && !Self.isComposed(response)
            return sent(response, context, entry, revision, key, keep: keep)
        }
    }

    /// Whether `response` is a composed answer, whose entity tag is not the bare revision. Looks
    /// at the tag's bytes: `String.contains` with a string argument resolves to Foundation's
    /// (bridged through `NSString`), which cost about 5 % of an uncached read's CPU.
    static func isComposed(_ response: HTTPResponse) -> Bool {
        response.header("etag")?.utf8.contains(UInt8(ascii: ".")) ?? false
    }

    /// The fewest bytes a streamed answer writes per row (a full layout writes about 250, a
    /// whole stack about 130): a stack with more rows than `largestAnswer` over this is not
    /// recorded, its answer could not be kept.
    static let streamedBytesPerRow = 100

    /// Records a streamed 200 answer asked for the second time at this revision as it is
    /// sent (`HTTPBodySource.record`) and keeps it whole once sent to its end, when the stack
    /// is still at `revision`: a repeated read is
    /// then answered from its bytes, with a `Content-Length`, as whole answers are, and not
    /// compressed, as when streamed (`HTTPResponse.keptStream`). Nothing is recorded for a
    /// stack too big for the cache, nor past the cache's recording slots.
    private func record(_ response: HTTPResponse, _ source: HTTPBodySource, rows: Int, _ entry: StackEntry, _ revision: Int, _ key: String) {
        guard rows <= answers.largestAnswer / Self.streamedBytesPerRow, answers.secondAsk(entry, revision: revision, key: key),
              answers.beginRecording() else { return }
        let status = response.status
        let headers = response.headers.map { ($0.name, $0.value) }
        source.record(upTo: answers.largestAnswer, expecting: rows * 256) { [answers] body in
            answers.endRecording()
            guard let body else { return }
            var kept = HTTPResponse(status: status, headers: headers, body: body)
            kept.keptStream = true
            kept.reuse = ResponseReuse()
            // Under the read lock: a change (which forgets the stack's answers under the
            // write lock) either came before, and the revision differs, or comes after.
            try? entry.read { _, current throws(APIError) in
                if current == revision { answers.keep(kept, for: entry, revision: revision, key: key) }
            }
        }
    }

    /// The stack's entry and the answer kept for this request, found before anything else of
    /// the request is read (its query parsed, its parameters checked): no answer when none is
    /// kept, and no entry either when the stack cannot be read (the caller's own checks then
    /// answer, in their order). Pass the entry on to `cachedRead`.
    ///
    /// Exact for a route whose answer depends only on the stack, the method, the raw target
    /// and `Accept` (the cache's key): a kept answer is a 200 that this very key was given at
    /// this revision, so the checks it passed then pass again, the same way.
    func keptAnswer(_ context: RequestContext) -> KeptLookup {
        guard let entry = try? store.entry(context.parameter("stack")) else { return KeptLookup() }
        let key = AnswerCache.key(context.request)
        var missedAt: Int?
        let answer = try? entry.read { _, revision throws(APIError) -> HTTPResponse? in
            guard let kept = answers.answer(entry, revision: revision, key: key) else {
                missedAt = revision
                return nil
            }
            return sent(kept, context, entry, revision, key, hit: true)
        }
        return KeptLookup(entry: entry, key: key, answer: answer, missedAt: missedAt)
    }

    /// What `keptAnswer` found: the stack's entry (nil when it cannot be read), the request's
    /// cache key, the kept answer if there is one, else the revision at which there was none.
    struct KeptLookup {
        var entry: StackEntry?
        var key: String?
        var answer: HTTPResponse?
        var missedAt: Int?
    }

    /// `response` as this request gets it: gzipped once and kept again when the request
    /// accepts gzip and no gzip encoding is kept yet, kept when `keep`, and 304 when
    /// `If-None-Match` names its revision. A kept answer read again (`hit`) gets a
    /// `ResponseReuse` on its first hit (kept again with it), so that its later sends share
    /// one libmicrohttpd response; an answer never read again never gets one.
    private func sent(_ given: consuming HTTPResponse, _ context: RequestContext, _ entry: StackEntry, _ revision: Int, _ key: String,
                      keep: Bool = false, hit: Bool = false) -> HTTPResponse {
        // Moved, not copied: a fresh answer's fields stay uniquely held, and grow in place.
        var response = consume given
        var keep = keep
        if hit, response.reuse == nil {
            response.reuse = ResponseReuse()
            keep = true
        }
        if response.status == 200, response.gzipBody == nil, ServiceEdge.gzips(response, for: context.request),
           let gzipped = ServiceEdge.gzip(response.body) {
            response.gzipBody = gzipped
            keep = true
        }
        if keep {
            // Kept as the edge sends it (`ServiceEdge.compressed`), so a hit copies nothing.
            response = ServiceEdge.withVaryField(consume response)
            answers.keep(response, for: entry, revision: revision, key: key)
        }
        if let unchanged = notModified(context, response) { return unchanged }
        return response
    }
}
