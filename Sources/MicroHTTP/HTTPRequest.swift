/// One HTTP request, read whole.
public struct HTTPRequest: Sendable {
    /// The method as sent: `GET`, `POST`, …
    public var method: String
    /// The percent-decoded path, without the query string.
    public var path: String
    /// Query parameters in order, percent-decoded; a parameter without `=` has the value "".
    public var query: [(name: String, value: String)]
    /// Header fields in order; names are lower case.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(method: String, path: String, query: [(name: String, value: String)] = [],
                headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers.map { ($0.name.lowercased(), $0.value) }
        self.body = body
    }

    /// The first header field named `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name == lower }?.value
    }

    /// The first query parameter named `name`.
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// The path and, if there is one, the decoded query string: what access logs show.
    public var target: String {
        query.isEmpty ? path : path + "?" + query.map { $0.value.isEmpty ? $0.name : "\($0.name)=\($0.value)" }.joined(separator: "&")
    }
}
