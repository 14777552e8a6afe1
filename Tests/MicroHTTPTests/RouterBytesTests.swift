@testable import MicroHTTP
import TestHTTPClient
import TestSeeds
import XCTest

/// The byte matching of ASCII paths against `String`'s matching (`routeBySplitting`, the rules
/// it replaced for them) on seeded random paths: the same outcome for every path, ASCII or not.
final class RouterBytesTests: XCTestCase {
    /// The service's patterns, and literals outside ASCII: one equal to an ASCII word by
    /// canonical equivalence (the Kelvin sign is `K`), one composed (`é`).
    var table: RouteTable {
        var table = RouteTable()
        let patterns = ["/healthz", "/v1/stacks", "/v1/stacks/{stack}", "/v1/stacks/{stack}/rows", "/v1/stacks/{stack}/rows/batch",
                        "/v1/stacks/{stack}/rows/{row}", "/v1/stacks/{stack}/rows/at/{index}", "/v1/stacks/{stack}/rows/{row}/move",
                        "/v1/stacks/{stack}/layout", "/v1/stacks/{stack}/layout.svg", "/view", "/view/{stack}", "/",
                        "/\u{212A}elvin/{x}", "/caf\u{E9}/{y}", "/{a}/b/{c}", "/a/{b}/c"]
        for (index, pattern) in patterns.enumerated() {
            for method in ["GET", "POST", "DELETE"].prefix(1 + index % 3) { table.add(method, pattern, handler: index) }
        }
        return table
    }

    func describe(_ outcome: (match: RouteTable.Match, pattern: String?)) -> String {
        let pattern = outcome.pattern ?? "-"
        switch outcome.match {
        case .found(let handler, let parameters):
            return "found \(handler) \(pattern) " + parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        case .methodNotAllowed(let allowed): return "405 \(pattern) " + allowed.joined(separator: ",")
        case .notFound: return "404 \(pattern)"
        }
    }

    func testBytesAndStringsAgreeOnRandomPaths() {
        let seed = TestSeed.seed("RouterBytesTests")
        var random = SeededRandom(seed)
        let table = table
        let pieces = ["v1", "stacks", "rows", "batch", "at", "layout", "layout.svg", "move", "healthz", "view", "a", "b", "c", "3", "s1",
                      "%62atch", "%2F", "%00", "%zz", "%", "{", "}", "{}", "rows%2Fbatch", "Kelvin", "\u{212A}elvin", "caf\u{E9}",
                      "cafe\u{301}", "\u{301}", "e\u{301}", "\u{1F600}", "?", "#", " ", "\r\n", "."]
        let methods = ["GET", "POST", "DELETE", "PUT", "HEAD", "get", "OPTIONS"]
        var asciiPaths = 0
        for _ in 0..<20_000 {
            var path = random.below(4) == 0 ? "" : "/"
            for index in 0..<random.below(7) {
                if index > 0 { path += ["/", "/", "/", "//"][random.below(4)] }
                path += pieces[random.below(pieces.count)]
                if random.below(5) == 0 { path += pieces[random.below(pieces.count)] }
            }
            if random.below(6) == 0 { path += "/" }
            if path.utf8.allSatisfy({ $0 < 0x80 }) { asciiPaths += 1 }
            let method = methods[random.below(methods.count)]
            XCTAssertEqual(describe(table.route(method: method, path: path)), describe(table.routeBySplitting(method: method, path: path)),
                           "\(method) \(path.debugDescription) (seed \(seed))")
        }
        XCTAssertGreaterThan(asciiPaths, 5_000, "the byte matching was exercised")
    }

    func testNonASCIILiteralsKeepStringEquivalence() {
        let table = table
        XCTAssertEqual(describe(table.route(method: "GET", path: "/Kelvin/1")), "found 13 /\u{212A}elvin/{x} x=1",
                       "an ASCII path reaches a literal canonically equal to it")
        XCTAssertEqual(describe(table.route(method: "GET", path: "/cafe\u{301}/2")), "found 14 /caf\u{E9}/{y} y=2",
                       "a decomposed path reaches a composed literal")
        XCTAssertEqual(describe(table.route(method: "GET", path: "/v1/\u{301}stacks")), "404 -")
    }
}
