/// Matches requests to handlers by method and path pattern. Knows nothing of what the
/// handlers do.
///
/// A pattern is a path whose segments are literals (`rows`) or parameters (`{row}`).
///
/// **Raw paths.** `match` takes the path as received, still percent-encoded, and splits it at
/// `/` before decoding anything, so an encoded slash (`%2F`) stays inside its segment: the
/// row id `a/b` is reached as `rows/a%2Fb`. A parameter captures its whole segment,
/// percent-decoded on its own (invalid escapes and `%00` stay as they are; the server refuses
/// `%00` before routing). A literal matches its segment only as written, undecoded, so a
/// parameter whose value spells a literal (a row named `batch`) is reached by encoding any of
/// its characters (`rows/%62atch`).
///
/// **Precedence.** Among the patterns that match the whole path, the most specific owns it:
/// comparing segment by segment from the left, at the first position where they differ, a
/// literal beats a parameter. Only the routes of that pattern serve the path: so with
/// `POST /rows/batch` and `GET|DELETE /rows/{row}`, `GET /rows/batch` is 405 (allowed: POST),
/// not a read of a row named `batch`. Routes of the same pattern and method: the first added
/// wins.
///
/// **Methods.** Request methods are compared case-sensitively, as HTTP says (`add`
/// upper-cases its method). `HEAD` uses the `GET` route when no `HEAD` route matches
/// (libmicrohttpd sends the headers only). When the owning pattern has no route with the
/// method, the match is `.methodNotAllowed` with that pattern's methods, sorted and unique,
/// `HEAD` included wherever `GET` is.
///
/// **Slashes.** Empty segments are ignored, so a trailing slash (`/v1/stacks/`) matches the
/// same routes as without it (`/v1/stacks`), and so does `//v1//stacks`.
///
/// - Complexity: O(path + routes × segments) per match, with no allocation per route tried:
///   an ASCII path is matched on its bytes and only the winner's decoded parameters are
///   allocated; another path is split into `Substring`s first (`String`'s rules: see
///   `RouteTable.route`). The matching
///   itself is `RouteTable`'s, which is not generic: a generic type is not specialized across
///   modules, and each generic operation in it would cost a runtime metadata lookup per
///   request. For the same reason `route` and `match` are inlinable: specialized where they
///   are called, they no longer look up their result's tuple type in the runtime's locked
///   cache on every request (about 1 % of a cached read's CPU).
public struct Router<Handler: Sendable>: Sendable {
    @usableFromInline var table = RouteTable()
    /// Handlers, indexed by `RouteTable`'s handler numbers.
    @usableFromInline var handlers: [Handler] = []

    /// A router with no routes.
    public init() {}

    /// Adds a route for `method` (upper-cased) and `pattern`, e.g. `"/v1/stacks/{stack}"`.
    /// A later route with the same method and pattern is never reached.
    public mutating func add(_ method: String, _ pattern: String, _ handler: Handler) {
        table.add(method, pattern, handler: handlers.count)
        handlers.append(handler)
    }

    /// Finds the route for `method` and the raw (still percent-encoded) `path`, without a
    /// query string.
    @inlinable
    public func match(method: String, path: String) -> RouteMatch<Handler> {
        route(method: method, path: path).match
    }

    /// `match`'s outcome, and the pattern of the routes that own the path as it was added
    /// (`/v1/stacks/{stack}`; nil when no route matches): a label for metrics that never holds
    /// a client's ids. The same single match as `match`.
    @inlinable
    public func route(method: String, path: String) -> (match: RouteMatch<Handler>, pattern: String?) {
        let (match, pattern) = table.route(method: method, path: path)
        switch match {
        case .found(let handler, let parameters): return (.found(handlers[handler], parameters: parameters), pattern)
        case .methodNotAllowed(let allowed): return (.methodNotAllowed(allowed: allowed), pattern)
        case .notFound: return (.notFound, nil)
        }
    }
}
