/// One HTTP response. libmicrohttpd adds `Content-Length` and `Date`.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// When set, the body is this stream instead, sent chunked as it is written.
    public var stream: HTTPStream?

    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = [], stream: HTTPStream? = nil) {
        self.status = status
        self.headers = headers.map { (name: $0.0, value: $0.1) }
        self.body = body
        self.stream = stream
    }

    /// The first header field named `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name.lowercased() == lower }?.value
    }
}
