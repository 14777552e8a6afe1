import MicroHTTP
import ScrollStackCore

extension StackService {
    /// `read(_:_:)` through the answer cache (`AnswerCache`): a 200 answer `body` gives is kept
    /// for this stack's revision and request, and served again until the stack changes. The
    /// cache sits before the conditional check, so a cached answer still answers
    /// `If-None-Match` with 304. A kept answer also keeps its gzip encoding
    /// (`HTTPResponse.gzipBody`), made once, by the first request that accepts gzip.
    /// `entry` is the stack's entry when the caller already looked it up (`keptAnswer`).
    func cachedRead(_ context: RequestContext, entry: StackEntry? = nil,
                    _ body: (ScrollStack, Int) throws(APIError) -> HTTPResponse) throws(APIError) -> HTTPResponse {
        let found: StackEntry
        if let entry { found = entry } else { found = try store.entry(context.parameter("stack")) }
        let entry = found
        let key = AnswerCache.key(context.request)
        return try entry.read { stack, revision throws(APIError) in
            if let kept = answers.answer(entry, revision: revision, key: key) { return sent(kept, context, entry, revision, key) }
            let response = try body(stack, revision)
            let keep = response.status == 200 && response.stream == nil && response.source == nil
            return sent(response, context, entry, revision, key, keep: keep)
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
    func keptAnswer(_ context: RequestContext) -> (entry: StackEntry?, answer: HTTPResponse?) {
        guard let entry = try? store.entry(context.parameter("stack")) else { return (nil, nil) }
        return (entry, keptAnswer(context, entry))
    }

    private func keptAnswer(_ context: RequestContext, _ entry: StackEntry) -> HTTPResponse? {
        let key = AnswerCache.key(context.request)
        return try? entry.read { _, revision throws(APIError) -> HTTPResponse? in
            answers.answer(entry, revision: revision, key: key).map { sent($0, context, entry, revision, key) }
        }
    }

    /// `response` as this request gets it: gzipped once and kept again when the request
    /// accepts gzip and no gzip encoding is kept yet, kept when `keep`, and 304 when
    /// `If-None-Match` names its revision.
    private func sent(_ response: HTTPResponse, _ context: RequestContext, _ entry: StackEntry, _ revision: Int, _ key: String,
                      keep: Bool = false) -> HTTPResponse {
        var response = response
        var keep = keep
        if response.status == 200, response.gzipBody == nil, ServiceEdge.gzips(response, for: context.request),
           let gzipped = ServiceEdge.gzip(response.body) {
            response.gzipBody = gzipped
            keep = true
        }
        if keep { answers.keep(response, for: entry, revision: revision, key: key) }
        return notModified(context, response) ?? response
    }
}
