import MicroHTTP
import ScrollStackCore

extension StackService {
    /// `read(_:_:)` through the answer cache (`AnswerCache`): a 200 answer `body` gives is kept
    /// for this stack's revision and request, and served again until the stack changes. The
    /// cache sits before the conditional check, so a cached answer still answers
    /// `If-None-Match` with 304. A kept answer also keeps its gzip encoding
    /// (`HTTPResponse.gzipBody`), made once, by the first request that accepts gzip.
    func cachedRead(_ context: RequestContext, _ body: (ScrollStack, Int) throws(APIError) -> HTTPResponse) throws(APIError) -> HTTPResponse {
        let entry = try store.entry(context.parameter("stack"))
        let key = AnswerCache.key(context.request)
        return try entry.read { stack, revision throws(APIError) in
            var response: HTTPResponse
            var keep = false
            if let kept = answers.answer(entry, revision: revision, key: key) {
                response = kept
            } else {
                response = try body(stack, revision)
                keep = response.status == 200 && response.stream == nil && response.source == nil
            }
            if response.status == 200, response.gzipBody == nil, ServiceEdge.gzips(response, for: context.request),
               let gzipped = ServiceEdge.gzip(response.body) {
                response.gzipBody = gzipped
                keep = true
            }
            if keep { answers.keep(response, for: entry, revision: revision, key: key) }
            return notModified(context, response) ?? response
        }
    }
}
