/// One HTTP request, read whole (headers and body).
public struct HTTPRequest: Sendable {
    /// The method as sent: `GET`, `POST`, …
    public var method: String
    /// The percent-decoded path, without the query string: `/a b` for `/a%20b?x=1`.
    ///
    /// Decoded whole, so an encoded slash (`%2F`) looks like a separator: for display only.
    /// Route on `rawPath` (`Router` decodes each segment on its own). `%00` is never decoded
    /// (the server refuses a path holding it).
    public var path: String
    /// The path as received, not decoded, without the query string: `/a%20b`. What
    /// `Router.match` takes.
    public var rawPath: String
    /// Query parameters in order, percent-decoded (`+` too is a space); a parameter without
    /// `=` has the value "".
    public var query: [(name: String, value: String)]
    /// Header fields in order; names are lower case.
    public var headers: [(name: String, value: String)]
    /// The body, empty if there is none.
    public var body: [UInt8]

    /// A request; header names are lowered here. `rawPath` defaults to `path`.
    public init(method: String, path: String, rawPath: String? = nil, query: [(name: String, value: String)] = [],
                headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.rawPath = rawPath ?? path
        self.query = query
        self.headers = headers.map { ($0.name.lowercased(), $0.value) }
        self.body = body
    }

    /// The first header field named `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name == lower }?.value
    }

    /// The first query parameter named `name` (case-sensitive).
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// The path and, if there is one, the decoded query string: what access logs show.
    public var target: String {
        query.isEmpty ? path : path + "?" + query.map { $0.value.isEmpty ? $0.name : "\($0.name)=\($0.value)" }.joined(separator: "&")
    }
}
