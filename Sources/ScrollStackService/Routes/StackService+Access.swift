import MicroHTTP

extension StackService {
    /// The methods the routes matching `path` (as received, not decoded: the router's input)
    /// accept (`HEAD` wherever `GET`), or nil when no route matches it.
    public func methods(forPath path: String) -> [String]? {
        // No route has OPTIONS, so the router answers with every method the path accepts.
        switch router.match(method: "OPTIONS", path: path) {
        case .methodNotAllowed(let allowed): return allowed
        case .found: return ["OPTIONS"]
        case .notFound: return nil
        }
    }

    /// The request headers a browser may send to a route accepting `methods`: always
    /// `Authorization`, `Accept` and `Content-Type` (a client that sends one set of headers
    /// with every call must not be refused by a GET's preflight); `If-Match` on mutations,
    /// `If-None-Match` on reads; `Last-Event-ID` on the events stream; `Prefer` and
    /// `Content-Encoding` wherever a body can be sent.
    static func requestHeaders(methods: [String], path: String) -> [String] {
        var headers = ["Authorization", "Accept", "Content-Type"]
        if methods.contains(where: { !["GET", "HEAD"].contains($0) }) { headers += ["If-Match", "Prefer", "Content-Encoding"] }
        if methods.contains("GET") { headers.append("If-None-Match") }
        if path.split(separator: "/").last == "events" { headers.append("Last-Event-ID") }
        return headers
    }

    /// The query parameter of an event ticket (`ServiceEdge`'s `EventTickets`): the edge
    /// authorizes it, and the events routes accept it.
    static let ticketParameter = "ticket"

    /// Whether a request needs a token (when tokens are configured): everything under `/v1`.
    /// Both the path as received (what the router matches) and the decoded one are split like
    /// the router splits them, so neither `//v1/…` nor `/%761/…` is a way around.
    static func needsToken(_ request: HTTPRequest) -> Bool {
        request.rawPath.split(separator: "/").first == "v1" || request.path.split(separator: "/").first == "v1"
    }

    /// Whether a request to `path` (as received) may change a stack (then a read token gets
    /// 403): every method but GET and HEAD, except the stateless layout and its pictures
    /// (`POST /v1/layout`, `/v1/layout.svg`, `/v1/layout.png`), which store nothing.
    static func changesState(method: String, path: String) -> Bool {
        if method == "GET" || method == "HEAD" { return false }
        guard method == "POST" else { return true }
        let segments = path.split(separator: "/")
        return !(segments.count == 2 && segments[0] == "v1" && ["layout", "layout.svg", "layout.png"].contains(segments[1]))
    }
}
