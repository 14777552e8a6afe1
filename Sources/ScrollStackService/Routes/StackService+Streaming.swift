import MicroHTTP
import ScrollStackCore

extension StackService {
    /// A streamed JSON answer (`HTTPBodySource`): sent chunked, never compressed (gzip would
    /// need the whole body, or a compressor per stream), kept by the answer cache only once
    /// sent to its end (`cachedRead`). The ETag is known before the first byte, so
    /// conditional requests work as for any answer.
    func streamedJSON(_ source: HTTPBodySource, revision: Int?, headers: [(String, String)] = []) -> HTTPResponse {
        var all: [(String, String)] = [("Content-Type", "application/json")]
        if let revision { all.append(("ETag", "\"\(revision)\"")) }
        return HTTPResponse(status: 200, headers: all + headers, source: source)
    }

    /// The full layout `query` asks for, streamed, when it has at least
    /// `limits.streamedAnswerRows` rows and no window, page or devices; nil otherwise.
    func streamedLayout(_ stack: ScrollStack, revision: Int?, _ query: LayoutQuery) throws(APIError) -> HTTPResponse? {
        guard stack.count >= limits.streamedAnswerRows, !query.visibleOnly, query.page == nil, query.devices == nil else { return nil }
        let (prepared, offset) = try query.prepared(stack, viewport: nil)
        let source = ModelEncoding.layoutSource(revision: revision, prepared, offset: offset, contentFrames: query.contentFrames)
        return streamedJSON(source, revision: revision, headers: [("Vary", "Accept")])
    }

    /// The whole model, streamed when it has at least `limits.streamedAnswerRows` rows.
    func stackAnswer(id: String, revision: Int, _ stack: ScrollStack) -> HTTPResponse {
        guard stack.count >= limits.streamedAnswerRows else {
            return .json(200, text: ModelEncoding.stackText(id: id, revision: revision, stack), revision: revision)
        }
        return streamedJSON(ModelEncoding.stackSource(id: id, revision: revision, stack), revision: revision)
    }
}
