/// Matches requests to handlers by method and path pattern. Knows nothing of what the
/// handlers do.
///
/// A pattern is a path whose segments are literals (`rows`) or parameters (`{row}`); a
/// parameter captures one whole segment, as it is in the (already percent-decoded) path.
///
/// **Precedence.** Among the routes that match the whole path *with the request's method*,
/// the most specific wins: comparing segment by segment from the left, at the first position
/// where they differ, a literal beats a parameter. So with `POST /rows/batch` and
/// `GET|DELETE /rows/{row}`, `POST /rows/batch` goes to the first, while `GET /rows/batch`
/// falls back to the second (the literal route has no GET). Routes of equal specificity: the
/// first added wins.
///
/// **Methods.** Request methods are compared case-sensitively, as HTTP says (`add`
/// upper-cases its method). `HEAD` uses the `GET` route when no `HEAD` route matches
/// (libmicrohttpd sends the headers only). When routes match the path but none has the
/// method, the match is `.methodNotAllowed` with the methods that would have matched, sorted
/// and unique, `HEAD` included wherever `GET` is.
///
/// **Slashes.** Empty segments are ignored, so a trailing slash (`/v1/stacks/`) matches the
/// same routes as without it (`/v1/stacks`), and so does `//v1//stacks`.
///
/// - Complexity: O(routes × segments) per match, with no allocation per route tried: only
///   the path's segments and the winner's parameters are allocated.
public struct Router<Handler: Sendable>: Sendable {
    private enum Segment: Sendable {
        case literal(String)
        case parameter(String)

        var isLiteral: Bool {
            if case .literal = self { return true }
            return false
        }
    }

    private struct Route: Sendable {
        let method: String
        let segments: [Segment]
        let handler: Handler
    }

    /// Routes grouped by their number of segments, in the order they were added.
    private var routesBySegmentCount: [Int: [Route]] = [:]

    /// A router with no routes.
    public init() {}

    /// Adds a route for `method` (upper-cased) and `pattern`, e.g. `"/v1/stacks/{stack}"`.
    /// A later route with the same method and an equally specific pattern is never reached.
    public mutating func add(_ method: String, _ pattern: String, _ handler: Handler) {
        let segments = Self.split(pattern).map { part -> Segment in
            part.count >= 2 && part.hasPrefix("{") && part.hasSuffix("}")
                ? .parameter(String(part.dropFirst().dropLast())) : .literal(String(part))
        }
        routesBySegmentCount[segments.count, default: []].append(Route(method: method.uppercased(), segments: segments, handler: handler))
    }

    /// Finds the route for `method` and the percent-decoded `path` (without a query string).
    public func match(method: String, path: String) -> RouteMatch<Handler> {
        let parts = Self.split(path)
        guard let candidates = routesBySegmentCount[parts.count] else { return .notFound }
        let isHead = method == "HEAD"
        var best: Int?
        var bestGet: Int?  // for HEAD without a HEAD route
        var pathMatched = false
        for index in candidates.indices {
            let route = candidates[index]
            guard Self.matches(route.segments, parts) else { continue }
            pathMatched = true
            if route.method == method {
                if best.map({ Self.isMoreSpecific(route.segments, than: candidates[$0].segments) }) ?? true { best = index }
            } else if isHead && route.method == "GET" {
                if bestGet.map({ Self.isMoreSpecific(route.segments, than: candidates[$0].segments) }) ?? true { bestGet = index }
            }
        }
        if let chosen = best ?? bestGet {
            let route = candidates[chosen]
            var parameters: [String: String] = [:]
            for (segment, part) in zip(route.segments, parts) {
                if case .parameter(let name) = segment { parameters[name] = String(part) }
            }
            return .found(route.handler, parameters: parameters)
        }
        guard pathMatched else { return .notFound }
        var allowed: [String] = []
        for route in candidates where Self.matches(route.segments, parts) && !allowed.contains(route.method) {
            allowed.append(route.method)
        }
        if allowed.contains("GET") && !allowed.contains("HEAD") { allowed.append("HEAD") }
        return .methodNotAllowed(allowed: allowed.sorted())
    }

    private static func matches(_ segments: [Segment], _ parts: [Substring]) -> Bool {
        for (segment, part) in zip(segments, parts) {
            if case .literal(let literal) = segment, literal != part { return false }
        }
        return true
    }

    /// At the first position where one has a literal and the other a parameter, the literal wins.
    private static func isMoreSpecific(_ a: [Segment], than b: [Segment]) -> Bool {
        for (x, y) in zip(a, b) where x.isLiteral != y.isLiteral { return x.isLiteral }
        return false
    }

    private static func split(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }
}
