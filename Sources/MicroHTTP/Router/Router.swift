/// Matches requests to handlers by method and path pattern.
///
/// A pattern is a path whose segments are literals (`rows`) or placeholders (`{row}`) that
/// capture one whole segment. When several routes match a path, the most specific wins:
/// segment by segment from the left, a literal beats a placeholder. So with
/// `/rows/batch` and `/rows/{row}`, `POST /rows/batch` goes to the first, and `GET /rows/batch`
/// (if only the second has GET) to the second. A trailing slash is ignored.
///
/// - Complexity: O(routes × segments) per match; the API has a few dozen routes.
public struct Router<Handler: Sendable>: Sendable {
    private enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    private struct Route: Sendable {
        let method: String
        let segments: [Segment]
        let handler: Handler
    }

    /// Routes grouped by their number of segments, in the order they were added.
    private var routesBySegmentCount: [Int: [Route]] = [:]

    public init() {}

    /// Adds a route. A later route with the same method and pattern is never reached.
    public mutating func add(_ method: String, _ pattern: String, _ handler: Handler) {
        let segments = Self.split(pattern).map { part -> Segment in
            part.hasPrefix("{") && part.hasSuffix("}") ? .parameter(String(part.dropFirst().dropLast())) : .literal(String(part))
        }
        routesBySegmentCount[segments.count, default: []].append(Route(method: method.uppercased(), segments: segments, handler: handler))
    }

    /// Finds the route for `method` and `path`. `HEAD` uses the `GET` route when it has none of
    /// its own (libmicrohttpd sends the headers only), and is listed wherever `GET` is allowed.
    public func match(method: String, path: String) -> RouteMatch<Handler> {
        let result = exactMatch(method: method, path: path)
        if method.uppercased() == "HEAD", case .methodNotAllowed(let allowed) = result, allowed.contains("GET") {
            return exactMatch(method: "GET", path: path)
        }
        if case .methodNotAllowed(let allowed) = result, allowed.contains("GET"), !allowed.contains("HEAD") {
            return .methodNotAllowed(allowed: (allowed + ["HEAD"]).sorted())
        }
        return result
    }

    private func exactMatch(method: String, path: String) -> RouteMatch<Handler> {
        let parts = Self.split(path).map(String.init)
        var best: (route: Route, parameters: [String: String], rank: [Bool])?
        var allowed: Set<String> = []
        for route in routesBySegmentCount[parts.count] ?? [] {
            var parameters: [String: String] = [:]
            var rank: [Bool] = []  // true = literal, per segment
            var matches = true
            for (segment, part) in zip(route.segments, parts) {
                switch segment {
                case .literal(let literal):
                    if literal != part { matches = false }
                    rank.append(true)
                case .parameter(let name):
                    parameters[name] = part
                    rank.append(false)
                }
                if !matches { break }
            }
            guard matches else { continue }
            allowed.insert(route.method)
            guard route.method == method.uppercased() else { continue }
            if best == nil || Self.isMoreSpecific(rank, than: best!.rank) {
                best = (route, parameters, rank)
            }
        }
        if let best { return .found(best.route.handler, parameters: best.parameters) }
        if !allowed.isEmpty { return .methodNotAllowed(allowed: allowed.sorted()) }
        return .notFound
    }

    private static func isMoreSpecific(_ a: [Bool], than b: [Bool]) -> Bool {
        for (x, y) in zip(a, b) where x != y { return x }
        return false
    }

    private static func split(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }
}
