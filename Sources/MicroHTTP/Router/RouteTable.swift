#if canImport(Glibc)
import Glibc
#endif

/// The matching behind `Router` (see its rules), on handler numbers instead of handlers, so
/// that it is not generic.
@usableFromInline
struct RouteTable: Sendable {
    enum Segment: Sendable {
        case literal(String)
        case parameter(String)
    }

    /// A class, not a struct: a struct copied out of its array retained and released its
    /// references each time; a route is never changed once added. Matching reads `Shape`s.
    private final class Route: Sendable {
        let method: String
        let segments: [Segment]
        let handler: Int
        /// The pattern as added (`/v1/stacks/{stack}`).
        let pattern: String
        /// Its parameters' names, and the segment each is at, in order.
        let parameterNames: [String]
        let parameterPositions: [Int]

        init(method: String, segments: [Segment], handler: Int, pattern: String) {
            self.method = method
            self.segments = segments
            self.handler = handler
            self.pattern = pattern
            var names: [String] = []
            var positions: [Int] = []
            for (position, segment) in segments.enumerated() {
                if case .parameter(let name) = segment {
                    names.append(name)
                    positions.append(position)
                }
            }
            parameterNames = names
            parameterPositions = positions
        }
    }

    /// What matching reads of a route, as plain values, so that trying a route retains
    /// nothing: where its literals are, where their bytes are, and which pattern it has.
    private struct Shape {
        /// Bit `i` set: segment `i` is a literal (a pattern has at most 64 segments).
        let literals: UInt64
        /// Index in `literalSpans` of this route's segment 0 (one span per segment, empty for
        /// a parameter).
        let firstSpan: Int
        /// The same number for routes of the same pattern (the same literals in the same places).
        let patternNumber: Int
        /// Whether every literal is ASCII (then bytes equal exactly when the strings do).
        let asciiLiterals: Bool
    }

    /// The outcome of a match, with the route's handler number.
    @usableFromInline
    enum Match {
        case found(handler: Int, parameters: RouteParameters)
        case methodNotAllowed([String])
        case notFound
    }

    /// Routes grouped by their number of segments (the index), in the order they were added;
    /// `shapesBySegmentCount` holds their shapes in the same places.
    private var routesBySegmentCount: [[Route]] = []
    private var shapesBySegmentCount: [[Shape]] = []
    /// Each route's segments' literal bytes, as ranges of `literalBytes`.
    private var literalSpans: [Range<Int>] = []
    private var literalBytes: [UInt8] = []
    private var patternCount = 0

    /// Adds a route for `method` (upper-cased) and `pattern`, answered with `handler`.
    mutating func add(_ method: String, _ pattern: String, handler: Int) {
        let segments = Self.split(pattern).map { part -> Segment in
            part.count >= 2 && part.hasPrefix("{") && part.hasSuffix("}")
                ? .parameter(String(part.dropFirst().dropLast())) : .literal(String(part))
        }
        precondition(segments.count <= 64, "a route pattern has at most 64 segments")
        while routesBySegmentCount.count <= segments.count {
            routesBySegmentCount.append([])
            shapesBySegmentCount.append([])
        }
        let firstSpan = literalSpans.count
        let firstByte = literalBytes.count
        var literals: UInt64 = 0
        for (position, segment) in segments.enumerated() {
            let start = literalBytes.count
            if case .literal(let literal) = segment {
                literals |= 1 << position
                literalBytes.append(contentsOf: literal.utf8)
            }
            literalSpans.append(start..<literalBytes.count)
        }
        let siblings = routesBySegmentCount[segments.count]
        let patternNumber: Int
        if let sibling = siblings.firstIndex(where: { Self.samePattern($0.segments, segments) }) {
            patternNumber = shapesBySegmentCount[segments.count][sibling].patternNumber
        } else {
            patternNumber = patternCount
            patternCount += 1
        }
        let asciiLiterals = literalBytes[firstByte...].allSatisfy { $0 < 0x80 }
        routesBySegmentCount[segments.count].append(Route(method: method.uppercased(), segments: segments, handler: handler, pattern: pattern))
        shapesBySegmentCount[segments.count].append(Shape(literals: literals, firstSpan: firstSpan, patternNumber: patternNumber,
                                                          asciiLiterals: asciiLiterals))
    }

    /// The route for `method` and the raw `path`, and the pattern that owns the path (nil when
    /// none matches it): the most specific pattern matching the path owns it; among its
    /// routes, the first with the method (or, for HEAD, with GET).
    ///
    /// A path of ASCII bytes (every path a client percent-encodes) is matched on its bytes:
    /// split at `/` in place and literals compared byte for byte, with nothing allocated but
    /// the winner's parameters. For ASCII, that is exactly `String`'s matching (each byte is
    /// a character of its own, and equal ASCII strings are equal bytes). Any other path is
    /// matched by `routeBySplitting`, with `String`'s rules (a combining mark after `/` joins
    /// it into one character; literals compare by canonical equivalence).
    @usableFromInline
    func route(method: String, path: String) -> (match: Match, pattern: String?) {
        var path = path
        if let routed = path.withUTF8({ routeASCII(method: method, path: $0) }) { return routed }
        return routeBySplitting(method: method, path: path)
    }

    /// `route`'s matching on a path's bytes; nil when the path holds a byte outside ASCII.
    /// O(path + routes × segments).
    private func routeASCII(method: String, path: UnsafeBufferPointer<UInt8>) -> (match: Match, pattern: String?)? {
        let slash = UInt8(ascii: "/")
        let most = routesBySegmentCount.count
        return withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: most + 1) { parts -> (match: Match, pattern: String?)? in
            var count = 0
            var i = 0
            while i < path.count {
                if path[i] == slash {
                    i += 1
                    continue
                }
                let start = i
                while i < path.count && path[i] != slash {
                    if path[i] >= 0x80 { return nil }
                    i += 1
                }
                if count < most { parts[count] = start..<i }
                count += 1
            }
            guard count < most else { return (.notFound, nil) }
            let routes = routesBySegmentCount[count]
            return shapesBySegmentCount[count].withUnsafeBufferPointer { shapes in
                literalSpans.withUnsafeBufferPointer { spans in
                    literalBytes.withUnsafeBufferPointer { literals in
                        select(method: method, routes, shapes, matches: { index in
                            let shape = shapes[index]
                            // From the last literal back: routes share their leading segments
                            // (`v1/stacks/{stack}/…`), so a route that fails does so at once.
                            var positions = shape.literals
                            while positions != 0 {
                                let position = UInt64.bitWidth - 1 - positions.leadingZeroBitCount
                                positions &= ~(1 << position)
                                let segment = UnsafeBufferPointer(rebasing: path[parts[position]])
                                if shape.asciiLiterals {
                                    let literal = spans[shape.firstSpan + position]
                                    guard literal.count == segment.count,
                                          memcmp(literals.baseAddress! + literal.lowerBound, segment.baseAddress!, segment.count) == 0
                                    else { return false }
                                } else if case .literal(let literal) = routes[index].segments[position],
                                          literal != String(decoding: segment, as: UTF8.self) {
                                    return false
                                }
                            }
                            return true
                        }, capture: { position in Self.percentDecoded(UnsafeBufferPointer(rebasing: path[parts[position]])) })
                    }
                }
            }
        }
    }

    /// `route`'s matching with `String`'s rules: the path split into `Substring`s at the
    /// character `/`, literals compared as strings. O(path + routes × segments).
    func routeBySplitting(method: String, path: String) -> (match: Match, pattern: String?) {
        let parts = Self.split(path)
        guard parts.count < routesBySegmentCount.count else { return (.notFound, nil) }
        let routes = routesBySegmentCount[parts.count]
        return shapesBySegmentCount[parts.count].withUnsafeBufferPointer { shapes in
            select(method: method, routes, shapes, matches: { Self.matches(routes[$0].segments, parts) },
                   capture: { Self.percentDecoded(parts[$0]) })
        }
    }

    /// Among `routes` (those with the path's segment count; `shapes` theirs), the owner of the
    /// path (`matches` says which route numbers match it) and its route for `method`;
    /// `capture` gives a parameter's decoded segment. Inlined into each caller, so that
    /// `matches` is too: called through a closure, trying a route cost about 70 instructions.
    @inline(__always)
    private func select(method: String, _ routes: [Route], _ shapes: UnsafeBufferPointer<Shape>, matches: (Int) -> Bool,
                        capture: (Int) -> String) -> (match: Match, pattern: String?) {
        var owner: Int?
        for index in shapes.indices where matches(index) {
            if let current = owner, !Self.isMoreSpecific(shapes[index].literals, than: shapes[current].literals) { continue }
            owner = index
        }
        guard let owner else { return (.notFound, nil) }
        let patternNumber = shapes[owner].patternNumber
        var chosen: Int?
        var getRoute: Int?
        var allowed: [String] = []
        for index in shapes.indices where shapes[index].patternNumber == patternNumber {
            let routeMethod = routes[index].method
            if routeMethod == method {
                chosen = index
                break
            }
            if routeMethod == "GET" && getRoute == nil { getRoute = index }
            if !allowed.contains(routeMethod) { allowed.append(routeMethod) }
        }
        if chosen == nil && method == "HEAD" { chosen = getRoute }
        guard let chosen else {
            if allowed.contains("GET") && !allowed.contains("HEAD") { allowed.append("HEAD") }
            return (.methodNotAllowed(allowed.sorted()), routes[owner].pattern)
        }
        let route = routes[chosen]
        let parameters = RouteParameters(names: route.parameterNames) { capture(route.parameterPositions[$0]) }
        return (.found(handler: route.handler, parameters: parameters), routes[owner].pattern)
    }

    private static func matches(_ segments: [Segment], _ parts: [Substring]) -> Bool {
        for position in segments.indices {
            if case .literal(let literal) = segments[position], literal != parts[position] { return false }
        }
        return true
    }

    /// At the first position where one has a literal and the other a parameter, the literal
    /// wins: the lowest bit where the literal masks differ. O(1).
    private static func isMoreSpecific(_ a: UInt64, than b: UInt64) -> Bool {
        let differ = a ^ b
        return differ != 0 && a & (differ & (~differ &+ 1)) != 0
    }

    /// Whether two patterns of one length have the same literals and parameters in the same places.
    private static func samePattern(_ a: [Segment], _ b: [Segment]) -> Bool {
        for position in a.indices {
            switch (a[position], b[position]) {
            case (.literal(let l), .literal(let r)) where l == r: continue
            case (.parameter, .parameter): continue
            default: return false
            }
        }
        return true
    }

    private static func split(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }

    /// `%HH` escapes decoded as UTF-8 (invalid sequences repaired with U+FFFD); an invalid
    /// escape, and `%00`, stay as written.
    static func percentDecoded(_ segment: Substring) -> String {
        guard segment.utf8.contains(UInt8(ascii: "%")) else { return String(segment) }
        return Array(segment.utf8).withUnsafeBufferPointer { percentDecoded($0) }
    }

    /// `percentDecoded(_:)` of a segment's UTF-8 bytes.
    static func percentDecoded(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard bytes.contains(UInt8(ascii: "%")) else { return String(decoding: bytes, as: UTF8.self) }
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            default: nil
            }
        }
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
