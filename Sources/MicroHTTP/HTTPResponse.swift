/// One HTTP response. libmicrohttpd adds `Content-Length` (or chunked encoding for a stream)
/// and `Date`; a handler's own `Content-Length` is ignored, and so is a field with an empty value.
///
/// A value with its members in one shared box: a response passes through several layers and
/// is copied several times per request, and a copy of the box retains one reference where
/// copying the members retained each of them (about a dozen). A member set on a shared box
/// copies the box first (copy on write).
public struct HTTPResponse: Sendable {
    /// The members. Never written while shared (`unique()` first), so sharing it between
    /// threads is safe, and no access to a member overlaps another: they skip the runtime's
    /// dynamic exclusivity checks (`@exclusivity(unchecked)`), a thread-local lookup each.
    private final class Members: @unchecked Sendable {
        @exclusivity(unchecked) var status: Int
        @exclusivity(unchecked) var headers: [(name: String, value: String)]
        @exclusivity(unchecked) var body: [UInt8]
        @exclusivity(unchecked) var stream: HTTPStream?
        @exclusivity(unchecked) var source: HTTPBodySource?
        @exclusivity(unchecked) var gzipBody: [UInt8]?
        @exclusivity(unchecked) var deferred: DeferredResponse?
        @exclusivity(unchecked) var reuse: ResponseReuse?
        @exclusivity(unchecked) var keptStream = false

        init(status: Int, headers: [(name: String, value: String)], body: [UInt8], stream: HTTPStream?, source: HTTPBodySource?) {
            self.status = status
            self.headers = headers
            self.body = body
            self.stream = stream
            self.source = source
        }

        init(copying other: Members) {
            status = other.status
            headers = other.headers
            body = other.body
            stream = other.stream
            source = other.source
            gzipBody = other.gzipBody
            deferred = other.deferred
            reuse = other.reuse
            keptStream = other.keptStream
        }
    }

    private var members: Members

    /// The members, copied first when another response shares them.
    private mutating func unique() -> Members {
        if !isKnownUniquelyReferenced(&members) { members = Members(copying: members) }
        return members
    }

    /// The status code: 200, 404, …
    public var status: Int {
        get { members.status }
        set { unique().status = newValue }
    }
    /// Header fields, sent in order.
    public var headers: [(name: String, value: String)] {
        get { members.headers }
        _modify {
            let members = unique()
            yield &members.headers
        }
    }
    /// The body (ignored when `stream` or `source` is set).
    public var body: [UInt8] {
        get { members.body }
        _modify {
            let members = unique()
            yield &members.body
        }
    }
    /// When set, the body is this stream instead, sent chunked as it is written.
    public var stream: HTTPStream? {
        get { members.stream }
        set { unique().stream = newValue }
    }
    /// When set (and `stream` is not), the body is produced by this source as it is sent,
    /// chunked: a big answer without the whole of it in memory.
    public var source: HTTPBodySource? {
        get { members.source }
        set { unique().source = newValue }
    }
    /// `body` gzip-compressed, when already made (an answer kept for repeated reads): a layer
    /// that compresses sends it rather than compressing again. The server never reads it.
    public var gzipBody: [UInt8]? {
        get { members.gzipBody }
        set { unique().gzipBody = newValue }
    }
    /// When set, the answer is given later through it (see `DeferredResponse`); the other
    /// members are then a placeholder and not sent.
    public var deferred: DeferredResponse? {
        get { members.deferred }
        set { unique().deferred = newValue }
    }
    /// When set, the server queues the libmicrohttpd response it made for an earlier send of
    /// the same status, fields and body instead of making one per request (`ResponseReuse`):
    /// for answers sent many times. Copies share it.
    public var reuse: ResponseReuse? {
        get { members.reuse }
        set { unique().reuse = newValue }
    }
    /// The body is a streamed answer (`source`) recorded whole to be sent again
    /// (`HTTPBodySource.record(upTo:_:)`): layers that encode bodies leave it as it was
    /// streamed. The server never reads it.
    public var keptStream: Bool {
        get { members.keptStream }
        set { unique().keptStream = newValue }
    }

    /// A response; `headers` are (name, value) pairs.
    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = [], stream: HTTPStream? = nil,
                source: HTTPBodySource? = nil) {
        members = Members(status: status, headers: headers.map { (name: $0.0, value: $0.1) }, body: body, stream: stream, source: source)
    }

    /// A response with these header fields, taken as they are.
    public init(status: Int, fields: [(name: String, value: String)], body: [UInt8]) {
        members = Members(status: status, headers: fields, body: body, stream: nil, source: nil)
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
    /// compared byte by byte with ASCII letters folded, no `String` made). O(fields).
    public func header(_ name: String) -> String? {
        for field in members.headers where Self.sameFieldName(field.name, name) { return field.value }
        return nil
    }

    private static func sameFieldName(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        let same = a.utf8.withContiguousStorageIfAvailable { a in
            b.utf8.withContiguousStorageIfAvailable { b in
                for i in 0..<a.count where a[i] != b[i] {
                    let x = a[i]
                    guard x ^ b[i] == 0x20, (x | 0x20) >= UInt8(ascii: "a"), (x | 0x20) <= UInt8(ascii: "z") else { return false }
                }
                return true
            }
        }
        if let same, let same { return same }
        return a.lowercased() == b.lowercased()
    }
}
