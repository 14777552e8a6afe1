/// One HTTP response. libmicrohttpd adds `Content-Length` (or chunked encoding for a stream)
/// and `Date`; a handler's own `Content-Length` is ignored, and so is a field with an empty value.
public struct HTTPResponse: Sendable {
    /// The status code: 200, 404, …
    public var status: Int
    /// Header fields, sent in order.
    public var headers: [(name: String, value: String)]
    /// The body (ignored when `stream` or `source` is set).
    public var body: [UInt8]
    /// When set, the body is this stream instead, sent chunked as it is written.
    public var stream: HTTPStream?
    /// When set (and `stream` is not), the body is produced by this source as it is sent,
    /// chunked: a big answer without the whole of it in memory.
    public var source: HTTPBodySource?
    /// `body` gzip-compressed, when already made (an answer kept for repeated reads): a layer
    /// that compresses sends it rather than compressing again. The server never reads it.
    public var gzipBody: [UInt8]?
    /// When set, the answer is given later through it (see `DeferredResponse`); the other
    /// members are then a placeholder and not sent.
    public var deferred: DeferredResponse?
    /// When set, the server queues the libmicrohttpd response it made for an earlier send of
    /// the same status, fields and body instead of making one per request (`ResponseReuse`):
    /// for answers sent many times. Copies share it.
    public var reuse: ResponseReuse?
    /// The body is a streamed answer (`source`) recorded whole to be sent again
    /// (`HTTPBodySource.record(upTo:_:)`): layers that encode bodies leave it as it was
    /// streamed. The server never reads it.
    public var keptStream = false

    /// A response; `headers` are (name, value) pairs.
    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = [], stream: HTTPStream? = nil,
                source: HTTPBodySource? = nil) {
        self.status = status
        self.headers = headers.map { (name: $0.0, value: $0.1) }
        self.body = body
        self.stream = stream
        self.source = source
    }

    /// An answer given later through `deferred` (only where `HTTPRequest.acceptsDeferredResponse`).
    public static func deferred(_ deferred: DeferredResponse) -> HTTPResponse {
        var response = HTTPResponse(status: 0)
        response.deferred = deferred
        return response
    }

    /// `transform` applied to this answer: now, or when a deferred one is sent.
    public func mapped(_ transform: @escaping @Sendable (HTTPResponse) -> HTTPResponse) -> HTTPResponse {
        guard let deferred else { return transform(self) }
        deferred.map(transform)
        return self
    }

    /// The first header field named `name` (case-insensitive: field names are ASCII tokens,
    /// compared byte by byte with ASCII letters folded, no `String` made).
    public func header(_ name: String) -> String? {
        headers.first { Self.sameFieldName($0.name, name) }?.value
    }

    private static func sameFieldName(_ a: String, _ b: String) -> Bool {
        var a = a
        var b = b
        return a.withUTF8 { a in
            b.withUTF8 { b in
                guard a.count == b.count else { return false }
                for i in 0..<a.count where a[i] != b[i] {
                    let x = a[i]
                    guard x ^ b[i] == 0x20, (x | 0x20) >= UInt8(ascii: "a"), (x | 0x20) <= UInt8(ascii: "z") else { return false }
                }
                return true
            }
        }
    }
}
