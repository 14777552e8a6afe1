import Foundation
import JSONCodec
@testable import ScrollStackCore
@testable import ScrollStackService
@testable import ScrollStackStore
import TestSeeds
import XCTest

/// Property: whatever the API accepts — props up to the nesting limit (with unusual Unicode,
/// NUL and numbers at their limits), content trees up to 64 nested nodes, ids and types of
/// any characters, lengths and offsets at their bounds — the journal stores, and a restart
/// restores byte for byte: every stack, its layout, its rows, its history, its past
/// revisions. Random operations over real HTTP on a journal that snapshots every 3
/// revisions; some are rejected (they must be precise 4xx, never 5xx).
///
/// Seeds 1, 2 and `TestSeed`'s are checked (printed; `SCROLLSTACK_SEED=<n>` draws another).
final class RoundTripPropertyTests: XCTestCase {
    /// Random request values from a seeded SplitMix64.
    struct Generator {
        var rng: SplitMix64
        /// The nesting limit of the service under test.
        let maxDepth: Int
        /// How many props were generated at exactly `maxDepth`.
        var deepestProps = 0

        mutating func below(_ n: Int) -> Int { Int(rng.next() % UInt64(max(n, 1))) }
        mutating func chance(_ p: Double) -> Bool { Double(rng.next() % 1_000_000) < p * 1_000_000 }
        mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }

        static let pieces = ["a", "Z", "0", " ", "/", "%2F", "?", "#", "\"", "\\", "\n", "\t", "\u{1}", "\u{1F}", "\u{7F}",
                             "é", "e\u{301}", "\u{202E}", "\u{2028}", "\u{FEFF}", "\u{FFFD}", "\u{FFFF}", "\u{10FFFF}",
                             "😀", "👩‍👩‍👧", "中", "ﷺ"]

        /// A string of unusual characters; NUL only where `nul` allows it (jansson refuses it in keys).
        mutating func string(nonEmpty: Bool = false, nul: Bool = true) -> String {
            if chance(0.03) { return String(repeating: pick(Self.pieces), count: 1 + below(3000)) }
            var text = ""
            for _ in 0..<(below(8) + (nonEmpty ? 1 : 0)) {
                text += nul && chance(0.08) ? "\u{0}" : pick(Self.pieces)
            }
            return text
        }

        mutating func scalar() -> JSON {
            switch below(6) {
            case 0: return .null
            case 1: return .bool(chance(0.5))
            case 2: return .integer(pick([0, 1, -1, Int64.max, Int64.min, Int64(bitPattern: rng.next())]))
            case 3: return .real(pick([0.1, -0.0, Double.leastNonzeroMagnitude, 2.2250738585072014e-308, 1e308, 1.7976931348623157e308, -1.7976931348623157e308,
                                       1.0 / 3, Double(bitPattern: rng.next() & 0x7FEF_FFFF_FFFF_FFFF)]))
            default: return .string(string())
            }
        }

        /// A value of exactly `depth` (arrays and objects along one path, small siblings).
        mutating func value(depth: Int) -> JSON {
            var value = depth == 0 ? scalar() : (chance(0.5) ? JSON.array([]) : .object(JSONObject()))
            guard depth > 0 else { return value }
            for _ in 1..<depth {
                var siblings = (0..<below(3)).map { _ in scalar() }
                siblings.insert(value, at: below(siblings.count + 1))
                if chance(0.5) {
                    value = .array(siblings)
                } else {
                    value = .object(JSONObject(siblings.enumerated().map { ("\(string(nul: false))#\($0.offset)", $0.element) }))
                }
            }
            return value
        }

        /// Props: mostly shallow, sometimes exactly at the limit, rarely one level over it.
        mutating func props() -> JSON {
            let depth = chance(0.25) ? maxDepth : (chance(0.05) ? maxDepth + 1 : 1 + below(min(4, maxDepth)))
            let props = value(depth: depth)
            if depth == maxDepth { deepestProps += 1 }
            return props
        }

        mutating func length() -> JSON {
            chance(0.03) ? .real(pick([-1, 1e9 + 1, -0.5])) : .real(pick([0, 0.25, 1.0 / 3, 44, 999_999_999.5, 1e9, Double(below(50_000)) / 100]))
        }

        mutating func insets() -> JSON {
            let sides = ["top", "left", "bottom", "right"].filter { _ in chance(0.7) }
            return .object(JSONObject(sides.map { ($0, length()) }))
        }

        mutating func color() -> JSON {
            let digits = (0..<(chance(0.5) ? 6 : 8)).map { _ in String(pick(Array("0123456789abcdefABCDEF"))) }.joined()
            return .string(chance(0.03) ? "#12345" : "#" + digits)
        }

        mutating func separator(nulls: Bool) -> JSON {
            var members: [(String, JSON)] = []
            if chance(0.5) { members.append(("hidden", nulls && chance(0.2) ? .null : .bool(chance(0.5)))) }
            if chance(0.5) { members.append(("thickness", nulls && chance(0.2) ? .null : length())) }
            if chance(0.5) { members.append(("insets", nulls && chance(0.2) ? .null : insets())) }
            if chance(0.5) { members.append(("color", nulls && chance(0.2) ? .null : color())) }
            return .object(JSONObject(members))
        }

        /// A content tree: sometimes one chain of exactly 64 nested groups (the model's limit).
        mutating func content(nodes: Int = 12) -> JSON {
            if chance(0.1) {
                var tree = object(("height", length()))
                for _ in 1..<64 { tree = object(("stack", .string(pick(["vertical", "horizontal"]))), ("children", [tree])) }
                return tree
            }
            var budget = nodes
            return contentNode(&budget)
        }

        mutating func contentNode(_ budget: inout Int) -> JSON {
            budget -= 1
            var members: [(String, JSON)] = []
            switch below(3) {
            case 0:
                if chance(0.7) { members.append(("width", length())) }
                if chance(0.7) { members.append(("height", length())) }
            case 1:
                members.append(("aspectRatio", .real(pick([0.001, 1.5, 1.0 / 3, 1e9]))))
            default:
                members.append(("stack", .string(pick(["vertical", "horizontal"]))))
                if chance(0.5) { members.append(("spacing", length())) }
                if chance(0.5) { members.append(("padding", insets())) }
                var children: [JSON] = []
                while budget > 0, chance(0.6) { children.append(contentNode(&budget)) }
                members.append(("children", .array(children)))
            }
            for clamp in ["minWidth", "maxWidth", "minHeight", "maxHeight"] where chance(0.1) {
                members.append((clamp, length()))
            }
            return .object(JSONObject(members))
        }

        mutating func descriptor() -> (String, JSON) {
            var members: [(String, JSON)] = [("type", .string(string(nonEmpty: true)))]
            let controller = chance(0.5)
            if controller, chance(0.5) { members.append(("instance", .string(string()))) }
            if chance(0.7) { members.append(("props", props())) }
            return (controller ? "controller" : "view", .object(JSONObject(members)))
        }

        mutating func sizeRule() -> JSON {
            switch below(4) {
            case 0: return "fit"
            case 1: return object(("vertical", object(("fixed", length()))), ("horizontal", chance(0.5) ? "fit" : object(("fixed", length()))))
            default: return object(("fixed", length()))
            }
        }

        mutating func row(idless: Bool = false) -> JSON {
            var members: [(String, JSON)] = []
            if !idless, chance(0.7) { members.append(("id", .string(string(nonEmpty: true)))) }
            members.append(descriptor())
            let hasContent = chance(0.5)
            if hasContent { members.append(("content", content())) }
            if !hasContent || chance(0.5) { members.append(("size", sizeRule())) }
            if chance(0.3) { members.append(("insets", insets())) }
            if chance(0.3) { members.append(("separator", separator(nulls: true))) }
            for flag in ["hidden", "tappable", "highlightable"] where chance(0.3) { members.append((flag, .bool(chance(0.5)))) }
            if chance(0.2) { members.append(("style", style())) }
            return .object(JSONObject(members))
        }

        /// A row style with any of its members.
        mutating func style() -> JSON {
            var members: [(String, JSON)] = []
            if chance(0.5) { members.append(("background", color())) }
            if chance(0.4) { members.append(("cornerRadius", .real(pick([0, 0.5, 12, 10_000])))) }
            if chance(0.4) { members.append(("border", object(("width", .real(pick([0, 1, 2.5, 1000]))), ("color", color())))) }
            if chance(0.4) { members.append(("textColor", color())) }
            if chance(0.3) { members.append(("image", object(("aspectRatio", .real(pick([0.001, 1, 16.0 / 9, 1000]))), ("fill", color())))) }
            return .object(JSONObject(members))
        }

        mutating func settings() -> [(String, JSON)] {
            var members: [(String, JSON)] = []
            if chance(0.3) { members.append(("axis", .string(pick(["vertical", "horizontal"])))) }
            if chance(0.5) { members.append(("viewport", object(("width", length()), ("height", length())))) }
            if chance(0.3) { members.append(("contentInsets", insets())) }
            if chance(0.3) {
                members.append(("offset", object(("x", .real(pick([0, -1e15, 1e15, 1.0 / 3]))), ("y", .real(pick([0, 1e15, -1e15, 2.0 / 3, Double(below(10_000))]))))))
            }
            if chance(0.3) { members.append(("spacing", length())) }
            if chance(0.3) { members.append(("rowInsets", insets())) }
            if chance(0.3) { members.append(("separator", separator(nulls: false))) }
            if chance(0.2) { members.append(("autoHideLastRowSeparator", .bool(chance(0.5)))) }
            return members
        }

        /// One request on stack `stack` of about `rows` rows at `revision`.
        mutating func operation(stack: String, rows: Int, revision: Int) -> (String, String, JSON?) {
            let base = "/v1/stacks/\(stack)"
            let index = below(rows + 1)
            switch below(20) {
            case 0..<5:
                let location: JSON = pick(["top", "bottom", object(("index", .integer(Int64(below(rows + 1)))))])
                var rows: [JSON] = []
                for _ in 0...below(4) { rows.append(row(idless: chance(0.3))) }
                return ("POST", base + "/rows", object(("rows", .array(rows)), ("at", location)))
            case 5, 6:
                return ("PUT", base + "/rows/at/\(index)", row())
            case 7, 8:
                var members: [(String, JSON)] = []
                if chance(0.4) { members.append(descriptor()) }
                if chance(0.3) { members.append(("content", chance(0.2) ? .null : content())) }
                if chance(0.3) { members.append(("size", sizeRule())) }
                if chance(0.3) { members.append(("insets", chance(0.3) ? .null : insets())) }
                if chance(0.3) { members.append(("separator", chance(0.2) ? .null : separator(nulls: true))) }
                if chance(0.2) { members.append(("style", chance(0.3) ? .null : style())) }
                if members.isEmpty || chance(0.3) { members.append(("hidden", .bool(chance(0.5)))) }
                return ("PATCH", base + "/rows/at/\(index)", .object(JSONObject(members)))
            case 9, 10:
                let members = settings()
                return ("PATCH", base, .object(JSONObject(members.isEmpty ? [("spacing", length())] : members)))
            case 11, 12:
                let target: JSON
                switch below(3) {
                case 0: target = object(("row", .integer(Int64(index))), ("position", .string(pick(["initial", "middle", "final", "automatic"]))))
                case 1: target = object(("to", .string(pick(["top", "bottom"]))))
                default: target = object(("offset", object(("y", .real(pick([1.0 / 3, 1e15, -7.25]))))))
                }
                return ("POST", base + "/scroll", target)
            case 13:
                return ("POST", base + "/rows/at/\(index)/move", object(("to", .integer(Int64(below(rows + 1))))))
            case 14:
                return ("DELETE", base + "/rows/at/\(index)", nil)
            case 15, 16:
                let op = pick(["hide", "show", "insets", "reload", "remove"])
                var members: [(String, JSON)] = [("op", .string(op)), ("rows", .array((0..<(1 + below(3))).map { _ in .integer(Int64(below(rows + 1))) }))]
                if op == "insets" { members.append(("insets", chance(0.3) ? .null : insets())) }
                return ("POST", base + "/rows/batch", .object(JSONObject(members)))
            case 17, 18:
                return ("POST", base + "/revert", object(("to", .integer(Int64(1 + below(revision))))))
            default:
                return chance(0.3) ? ("DELETE", base + "/rows", nil) : ("POST", base + "/scroll", object(("to", "bottom")))
            }
        }
    }

    /// A request whose body has every real written exactly (17 digits), so that the extreme
    /// doubles reach the server as they are.
    static func send(_ server: ServerHarness, _ method: String, _ path: String, _ body: JSON?) throws -> Reply {
        guard let body else { return try server.request(method, path) }
        return try server.raw(method, path, body: body.serialized(realPrecision: 17), headers: [("Content-Type", "application/json")])
    }

    /// The revision an answer names (its ETag, which every answer about a stack carries).
    static func revision(_ reply: Reply) -> Int? {
        reply.header("etag").flatMap { Int($0.dropFirst().dropLast()) }
    }

    /// Each stack's row count, from the list (which holds no props).
    static func rowCounts(_ server: ServerHarness) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for item in try server.request("GET", "/v1/stacks").json?.arrayValue ?? [] {
            if let id = item["id"]?.stringValue, let count = item["rowCount"]?.int64Value { counts[id] = Int(count) }
        }
        return counts
    }

    func testWhateverTheAPIAcceptsARestartRestoresByteForByte() throws {
        for seed in [1, 2, TestSeed.seed("RoundTripPropertyTests")] {
            print("RoundTripPropertyTests: checking seed \(seed)")
            try check(seed: seed)
        }
    }

    func check(seed: UInt64) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ssproperty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("db.sqlite").path
        var generator = Generator(rng: SplitMix64(seed: seed), maxDepth: [3, 12, ServiceLimits.defaultMaxJSONDepth, ServiceLimits.maxJSONDepthCeiling][Int(seed % 4)])
        let limits = ServiceLimits(maxJSONDepth: generator.maxDepth)
        let context = "seed \(seed), --max-json-depth \(generator.maxDepth)"

        var answers: [String: String] = [:]
        var accepted = 0
        var sent = 0
        var acceptedDeepest = 0
        var rejected: [String: Int] = [:]
        do {
            let service = StackService(journal: try StackJournal(path: path, snapshotInterval: 3), limits: limits)
            try service.restore()
            let server = try ServerHarness(service: service, maxBodyBytes: 16 << 20)
            defer { server.stop() }
            var revisions: [String: Int] = [:]
            var rowCounts: [String: Int] = [:]
            for s in 0..<3 {
                let id = "p\(s)"
                for _ in 0..<4 where revisions[id] == nil {
                    let rows = JSON.array((0..<generator.below(6)).map { _ in generator.row() })
                    let reply = try Self.send(server, "POST", "/v1/stacks", .object(JSONObject([("id", .string(id)), ("rows", rows)] + generator.settings())))
                    sent += 1
                    XCTAssertLessThan(reply.status, 500, "\(context): create: \(reply.text)")
                    if reply.status == 201 {
                        accepted += 1
                        revisions[id] = 1
                    }
                }
                if revisions[id] == nil {
                    XCTAssertEqual(try server.request("POST", "/v1/stacks", json: object(("id", .string(id)))).status, 201)
                    revisions[id] = 1
                }
            }
            rowCounts = try Self.rowCounts(server)
            for step in 0..<300 {
                let id = "p\(step % 3)"
                let deepestBefore = generator.deepestProps
                let (method, target, body) = generator.operation(stack: id, rows: rowCounts[id]!, revision: revisions[id]!)
                let reply = try Self.send(server, method, target, body)
                sent += 1
                XCTAssertLessThan(reply.status, 500, "\(context): \(method) \(target): \(reply.text)")
                guard reply.status == 200 else {
                    rejected[reply.errorCode ?? "?", default: 0] += 1
                    XCTAssertNotNil(reply.errorCode, "\(context): \(method) \(target): \(reply.text)")
                    continue
                }
                accepted += 1
                if generator.deepestProps > deepestBefore { acceptedDeepest += 1 }
                revisions[id] = Self.revision(reply) ?? revisions[id]!
                rowCounts = try Self.rowCounts(server)
            }
            // One insert valid whatever the seed, with props at exactly the limit: the random
            // ones that reach it (counted in `acceptedDeepest`) may all be refused for other
            // reasons (about 1 seed in 10,000).
            let view = object(("type", .string("Deepest")), ("props", generator.value(depth: generator.maxDepth)))
            let row = object(("view", view), ("size", object(("fixed", .real(10)))))
            let reply = try Self.send(server, "POST", "/v1/stacks/p0/rows", object(("rows", .array([row]))))
            sent += 1
            XCTAssertEqual(reply.status, 200, "\(context): props at exactly the limit: \(reply.text)")
            if reply.status == 200 {
                accepted += 1
                revisions["p0"] = Self.revision(reply) ?? revisions["p0"]!
            }
            var paths = ["/v1/stacks"]
            for (id, revision) in revisions.sorted(by: { $0.key < $1.key }) {
                let base = "/v1/stacks/\(id)"
                paths += [base, base + "/layout", base + "/rows", base + "/events?limit=1000", base + "/layout?window=visible"]
                paths += (0..<3).map { _ in base + "?revision=\(1 + generator.below(revision))" }
            }
            for path in paths {
                let reply = try server.request("GET", path)
                XCTAssertEqual(reply.status, 200, "\(context): GET \(path): \(reply.text)")
                answers[path] = reply.text
            }
        }
        print("\(context): \(accepted) of \(sent) requests accepted (\(acceptedDeepest) with props at the limit); rejected: \(rejected.sorted { $0.key < $1.key })")
        XCTAssertGreaterThan(accepted, sent / 3, "\(context): most requests are valid (\(accepted) of \(sent))")

        let service = StackService(journal: try StackJournal(path: path, snapshotInterval: 3))
        XCTAssertEqual(try service.restore(), 3, context)
        XCTAssertEqual(service.unavailableStacks, [], context)
        let server = try ServerHarness(service: service)
        defer { server.stop() }
        for (path, before) in answers.sorted(by: { $0.key < $1.key }) {
            let after = try server.request("GET", path).text
            if after != before {
                XCTFail("\(context): GET \(path) differs after the restart:\n before \(before.prefix(600))\n after  \(after.prefix(600))")
            }
        }
    }
}
