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
/// - Complexity: O(routes × segments) per match, with no allocation per route tried: only
///   the path's segments, the owning pattern's routes and the winner's decoded parameters
///   are allocated.
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

    /// Finds the route for `method` and the raw (still percent-encoded) `path`, without a
    /// query string.
    public func match(method: String, path: String) -> RouteMatch<Handler> {
        let parts = Self.split(path)
        guard let candidates = routesBySegmentCount[parts.count] else { return .notFound }
        // The most specific pattern matching the path owns it.
        var owner: Int?
        for index in candidates.indices where Self.matches(candidates[index].segments, parts) {
            if owner.map({ Self.isMoreSpecific(candidates[index].segments, than: candidates[$0].segments) }) ?? true { owner = index }
        }
        guard let owner else { return .notFound }
        let pattern = candidates[owner].segments
        let routes = candidates.filter { Self.samePattern($0.segments, pattern) }
        guard let route = routes.first(where: { $0.method == method })
                ?? (method == "HEAD" ? routes.first(where: { $0.method == "GET" }) : nil) else {
            var allowed = Set(routes.map(\.method))
            if allowed.contains("GET") { allowed.insert("HEAD") }
            return .methodNotAllowed(allowed: allowed.sorted())
        }
        var parameters: [String: String] = [:]
        for (segment, part) in zip(route.segments, parts) {
            if case .parameter(let name) = segment { parameters[name] = Self.percentDecoded(part) }
        }
        return .found(route.handler, parameters: parameters)
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

    /// Whether two patterns have the same literals and parameters in the same places.
    private static func samePattern(_ a: [Segment], _ b: [Segment]) -> Bool {
        zip(a, b).allSatisfy { x, y in
            switch (x, y) {
            case (.literal(let l), .literal(let r)): l == r
            case (.parameter, .parameter): true
            default: false
            }
        }
    }

    private static func split(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }

    /// `%HH` escapes decoded as UTF-8 (invalid sequences repaired with U+FFFD); an invalid
    /// escape, and `%00`, stay as written.
    static func percentDecoded(_ segment: Substring) -> String {
        guard segment.utf8.contains(UInt8(ascii: "%")) else { return String(segment) }
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            default: nil
            }
        }
        let bytes = Array(segment.utf8)
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count, let high = hex(bytes[i + 1]), let low = hex(bytes[i + 2]), high | low != 0 {
                decoded.append(high << 4 | low)
                i += 3
            } else {
                decoded.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }
}
