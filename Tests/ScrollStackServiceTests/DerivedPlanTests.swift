import Foundation
import JSONCodec
import MicroHTTP
@testable import ScrollStackCore
@testable import ScrollStackService
@testable import ScrollStackStore
import ScrollStackTransitions
import TestSeeds
import XCTest

/// Plans computed when read (`PlanRecipe`): a change whose answer does not carry its plan
/// journals a recipe, and reading its plan back answers exactly what a plan kept whole (the
/// JSON of the same change asked with `?fps=`) answers, across random changes, snapshots in
/// between and a restart.
final class DerivedPlanTests: XCTestCase {
    func testARecipeReadsBackAsWritten() throws {
        let seed = TestSeed.seed("DerivedPlanTests.testARecipeReadsBackAsWritten")
        var rng = SplitMix64(seed: seed)
        for _ in 0..<500 {
            let timing = AnimationTiming(duration: Double.random(in: 0.001...3600, using: &rng), delay: Double.random(in: 0...3600, using: &rng),
                                         damping: Double.random(in: 0.01...1, using: &rng), initialVelocity: Double.random(in: -1000...1000, using: &rng))
            let targets: [String]? = Bool.random(using: &rng) ? nil
                : (0..<Int.random(in: 0...4, using: &rng)).map { i in ["a", "é-\(i)", "", "r\u{0}\(i)", "🙂"][Int.random(in: 0...4, using: &rng)] }
            let recipe = PlanRecipe(animated: Bool.random(using: &rng), timing: timing, targets: targets)
            let bytes = recipe.encoded
            XCTAssertTrue(PlanRecipe.isRecipe(bytes))
            XCTAssertEqual(try PlanRecipe.decode(bytes, what: "it"), recipe, "seed \(seed)")
            // Every shorter prefix, and a byte more, is refused as damaged, never a crash.
            for cut in [1, bytes.count / 2, bytes.count - 1] {
                XCTAssertThrowsError(try PlanRecipe.decode(Array(bytes.prefix(cut)), what: "it")) { error in
                    XCTAssertEqual((error as? APIError)?.code, .storageUnavailable)
                }
            }
            XCTAssertThrowsError(try PlanRecipe.decode(bytes + [0], what: "it"))
        }
    }

    func testAnUnknownVersionIsRefusedNamingIt() throws {
        var bytes = PlanRecipe(animated: false, timing: .rows, targets: []).encoded
        bytes[1] = 9
        XCTAssertThrowsError(try PlanRecipe.decode(bytes, what: "the plan")) { error in
            XCTAssertTrue((error as? APIError)?.message.contains("version 9") == true, "\(error)")
        }
        XCTAssertFalse(PlanRecipe.isRecipe(Array(#"{"revision":2}"#.utf8)), "a plan kept whole is JSON")
    }

    /// Random changes sent to two services: one asks `?fps=1` (its plans are kept whole, as
    /// JSON), the other not (recipes). Every revision's plan, plain and sampled, answers the
    /// same bytes on both, before and after a restart; snapshots fall every 5 revisions.
    func testPlansComputedWhenReadEqualPlansKeptWhole() throws {
        let seed = TestSeed.seed("DerivedPlanTests")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("derived-plans-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let wholePath = directory.appendingPathComponent("whole.sqlite").path, derivedPath = directory.appendingPathComponent("derived.sqlite").path
        let whole = StackService(journal: try StackJournal(path: wholePath, snapshotInterval: 5))
        let derived = StackService(journal: try StackJournal(path: derivedPath, snapshotInterval: 5))

        var rows: [JSON] = []
        for i in 0..<12 { rows.append(row("r\(i)", Double(20 + 7 * i), hidden: i % 5 == 4)) }
        let viewport: JSON = object(("width", .integer(320)), ("height", .integer(200)))
        let create: JSON = object(("id", .string("s")), ("viewport", viewport), ("rows", .array(rows)))
        for service in [whole, derived] { XCTAssertEqual(call(service, "POST", "/v1/stacks", create).status, 201) }

        var rng = SplitMix64(seed: seed)
        var made = 0
        for step in 0..<120 {
            let ids = currentIDs(derived)
            let (method, path, body) = randomChange(&rng, ids: ids, step: step)
            let a = call(whole, method, path, body, query: [("fps", "1")])
            let b = call(derived, method, path, body)
            XCTAssertEqual(a.status, b.status, "seed \(seed), step \(step): \(method) \(path) \(body.map { String(decoding: $0.serialized(), as: UTF8.self) } ?? "")")
            if b.status == 200 { made += 1 }
        }
        XCTAssertGreaterThan(made, 60, "seed \(seed): most random changes apply")
        let revision = try XCTUnwrap(JSON.parse(call(derived, "GET", "/v1/stacks/s").body)["revision"]?.int64Value)

        // The derived journal holds recipes (so this compares something), the other JSON.
        let derivedJournal = try XCTUnwrap(derived.journal), wholeJournal = try XCTUnwrap(whole.journal)
        var recipes = 0
        for r in 2...Int(revision) {
            let kept = try XCTUnwrap(try wholeJournal.plan(id: "s", revision: r))
            XCTAssertEqual(kept.first, UInt8(ascii: "{"))
            if let plan = try derivedJournal.plan(id: "s", revision: r), PlanRecipe.isRecipe(plan) { recipes += 1 }
        }
        XCTAssertGreaterThan(recipes, 40, "seed \(seed)")

        func compareAll(_ whole: StackService, _ derived: StackService, _ when: String) {
            for r in 1...Int(revision) {
                for query in [[], [(name: "fps", value: "30")]] {
                    let path = "/v1/stacks/s/transitions/\(r)"
                    let a = call(whole, "GET", path, query: query), b = call(derived, "GET", path, query: query)
                    XCTAssertEqual(a.status, b.status, "seed \(seed), \(when), \(path) \(query): \(String(decoding: b.body, as: UTF8.self))")
                    XCTAssertEqual(a.header("etag"), b.header("etag"), "seed \(seed), \(when), \(path)")
                    XCTAssertTrue(a.body == b.body, "seed \(seed), \(when), \(path):\n\(String(decoding: a.body, as: UTF8.self))\n\(String(decoding: b.body, as: UTF8.self))")
                }
            }
        }
        compareAll(whole, derived, "running")
        let wholeAgain = StackService(journal: try StackJournal(path: wholePath, snapshotInterval: 5))
        let derivedAgain = StackService(journal: try StackJournal(path: derivedPath, snapshotInterval: 5))
        XCTAssertEqual(try wholeAgain.restore(), 1)
        XCTAssertEqual(try derivedAgain.restore(), 1)
        compareAll(wholeAgain, derivedAgain, "restarted")
    }

    func call(_ service: StackService, _ method: String, _ path: String, _ body: JSON? = nil,
              query: [(name: String, value: String)] = []) -> HTTPResponse {
        service.handle(HTTPRequest(method: method, path: path, query: query, headers: body == nil ? [] : [("Content-Type", "application/json")],
                                   body: body?.serialized() ?? []))
    }

    func currentIDs(_ service: StackService) -> [String] {
        let list = try? JSON.parse(call(service, "GET", "/v1/stacks/s/rows").body)
        return list?["rows"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
    }

    /// One random change to stack `s`, over rows `ids`: inserts (with and without ids), removes,
    /// moves, replaces, patches, batches, scrolls, settings, and now and then a remove-all or
    /// a revert.
    func randomChange(_ rng: inout SplitMix64, ids: [String], step: Int) -> (String, String, JSON?) {
        func pick() -> String { ids.isEmpty ? "none" : ids[Int.random(in: 0..<ids.count, using: &rng)] }
        func newRow() -> JSON {
            let length = Double(Int.random(in: 10...90, using: &rng))
            let size: JSON = object(("fixed", .number(length)))
            var members: [(String, JSON)] = [("view", object(("type", .string("Cell")))), ("size", size)]
            if Bool.random(using: &rng) { members.append(("id", .string("n\(step)-\(Int.random(in: 0...9, using: &rng))"))) }
            if Int.random(in: 0..<4, using: &rng) == 0 { members.append(("hidden", .bool(true))) }
            if Int.random(in: 0..<4, using: &rng) == 0 {
                let show: JSON = object(("alpha", .number(0.5)), ("scale", .number(0.8)))
                let translate: JSON = object(("x", .number(10)), ("y", .number(0)))
                let hide: JSON = object(("translate", translate))
                members.append(("transition", object(("show", show), ("hide", hide))))
            }
            return .object(JSONObject(members))
        }
        let count = max(ids.count, 1)
        switch Int.random(in: 0..<20, using: &rng) {
        case 0..<6:
            let index = Int64(Int.random(in: 0...count, using: &rng))
            let locations: [JSON] = [.string("top"), .string("bottom"), object(("index", .integer(index))), object(("after", .string(pick())))]
            let at = locations[Int.random(in: 0..<4, using: &rng)]
            var inserted: [JSON] = []
            for _ in 0..<Int.random(in: 1...3, using: &rng) { inserted.append(newRow()) }
            return ("POST", "/v1/stacks/s/rows", object(("rows", .array(inserted)), ("at", at)))
        case 6, 7: return ("DELETE", "/v1/stacks/s/rows/\(pick())", nil)
        case 8, 9: return ("POST", "/v1/stacks/s/rows/\(pick())/move", object(("to", .integer(Int64(Int.random(in: 0..<count, using: &rng))))))
        case 10: return ("PUT", "/v1/stacks/s/rows/\(pick())", newRow())
        case 11: return ("PATCH", "/v1/stacks/s/rows/\(pick())", object(("hidden", .bool(Bool.random(using: &rng)))))
        case 12, 13:
            let op = ["remove", "hide", "show", "reload", "insets"][Int.random(in: 0..<5, using: &rng)]
            let refs = Array(Set((0..<Int.random(in: 1...3, using: &rng)).map { _ in pick() })).sorted().map(JSON.string)
            var members: [(String, JSON)] = [("op", .string(op)), ("rows", .array(refs))]
            if op == "insets" {
                let insets: JSON = object(("top", .number(4)), ("left", .number(0)), ("bottom", .number(4)), ("right", .number(0)))
                members.append(("insets", insets))
            }
            return ("POST", "/v1/stacks/s/rows/batch", .object(JSONObject(members)))
        case 14, 15:
            let y = Double(Int.random(in: 0...600, using: &rng))
            let offset: JSON = object(("y", .number(y)))
            let targets: [JSON] = [object(("offset", offset)), object(("row", .string(pick())), ("position", .string("middle")))]
            return ("POST", "/v1/stacks/s/scroll", targets[Int.random(in: 0..<2, using: &rng)])
        case 16: return ("PATCH", "/v1/stacks/s", object(("spacing", .integer(Int64(Int.random(in: 0...8, using: &rng))))))
        case 17: return ("PATCH", "/v1/stacks/s", object(("viewport", object(("height", .integer(Int64(Int.random(in: 100...400, using: &rng))))))))
        case 18 where Int.random(in: 0..<4, using: &rng) == 0: return ("DELETE", "/v1/stacks/s/rows", nil)
        default: return ("POST", "/v1/stacks/s/revert", object(("to", .integer(Int64(max(1, step - Int.random(in: 0...5, using: &rng)))))))
        }
    }
}
