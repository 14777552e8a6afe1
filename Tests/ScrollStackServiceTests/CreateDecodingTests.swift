import JSONCodec
import ScrollStackCore
@testable import ScrollStackService
import TestHTTPClient
import TestSeeds
import XCTest

/// The create body's rows go straight into a `ScrollStackBuilder` as they are decoded. On
/// seeded random bodies, with decoding errors and model errors anywhere, the answer is the
/// one of decoding every row into a `Row` first and building the stack from the array:
/// the same error (status, code, message, field), or the same stack (rows, generated ids
/// included, and its API encoding).
final class CreateDecodingTests: XCTestCase {
    let service = StackService()

    /// The create decoder as it was: every row decoded into a `Row`, then the stack built.
    func decodeThroughRows(_ body: ObjectReader, id: String) throws(APIError) -> ScrollStack {
        try body.allowOnly(["id", "rows", "revision", "contentSize"] + ModelDecoding.settingsKeys)
        let settings = try ModelDecoding.settings(body, base: StackSettings())
        var rows: [Row] = []
        var used = Set<String>()
        var ids = RowIDGenerator(stack: id, revision: 1)
        if let f = try body.optional("rows") {
            for field in try f.array() {
                let row = try ModelDecoding.row(field, maxDepth: service.limits.maxJSONDepth, maxTitle: service.limits.maxTitleCharacters, defaults: settings) { ids.next(isTaken: used.contains) }
                used.insert(row.id)
                rows.append(row)
            }
        }
        do { return try ScrollStack(settings: settings, rows: rows, measurer: service.measurer, titleMeasurer: service.titleMeasurer) } catch {
            throw APIError(error)
        }
    }

    /// A row body: mostly valid plain rows, some with rarely set members, some without an id
    /// (or with the id a generated one would take), and faults of both kinds.
    /// Unless `faulty`, the row is valid (its id may still be left out).
    func randomRow(_ rng: inout SeededRandom, _ i: Int, ids: inout [String], faulty: Bool) -> JSON {
        var members: [(String, JSON)] = []
        let roll = rng.below(100)
        if roll >= 8 {
            let id = faulty && rng.below(30) == 0 && !ids.isEmpty ? ids[rng.below(ids.count)] : (faulty && rng.below(25) == 0 ? "" : "r\(i)")
            ids.append(id)
            members.append(("id", .string(id)))
        }
        let type: JSON = faulty && rng.below(40) == 0 ? "" : (faulty && rng.below(60) == 0 ? 7 : .string(["Cell", "Header"][rng.below(2)]))
        var descriptor: [(String, JSON)] = [("type", type)]
        if rng.below(3) == 0 { descriptor.append(("props", object(("n", .integer(Int64(rng.below(4))))))) }
        if rng.below(2) == 0 {
            if rng.below(4) == 0 { descriptor.append(("instance", .string("i\(rng.below(3))"))) }
            members.append(("controller", .object(JSONObject(descriptor))))
        } else {
            members.append(("view", .object(JSONObject(descriptor))))
        }
        switch faulty ? rng.below(30) : 5 + rng.below(25) {
        case 0: break  // no size: an error unless there is content
        case 1: members.append(("size", "big"))
        case 2: members.append(("size", object(("fixed", -4))))
        case 3: members.append(("size", "fit"))
        case 4: members.append(("size", object(("fixed", .real(.infinity)))))
        default: members.append(("size", object(("fixed", .integer(Int64(rng.below(90)))))))
        }
        if rng.below(8) == 0 { members.append(("hidden", faulty && rng.below(30) == 0 ? "yes" : .bool(rng.below(2) == 0))) }
        if rng.below(15) == 0 { members.append(("insets", object(("top", .integer(Int64(rng.below(5) - (faulty ? 1 : 0))))))) }
        if rng.below(20) == 0 { members.append(("tappable", true)) }
        if rng.below(25) == 0 { members.append(("content", object(("height", 20)))) }
        if rng.below(30) == 0 { members.append(("separator", object(("thickness", 2)))) }
        if rng.below(40) == 0 { members.append(("title", "T")) }
        if faulty && rng.below(60) == 0 { members.append(("colour", "red")) }
        return .object(JSONObject(members))
    }

    func testRowsDecodedIntoTheBuilderAnswerAsRowsDecodedFirst() throws {
        let seed = TestSeed.seed("CreateDecodingTests")
        var rng = SeededRandom(seed)
        var outcomes: [String: Int] = [:]
        for trial in 0..<400 {
            var ids: [String] = []
            let faulty = rng.below(2) == 0
            let rows = (0..<rng.below(40)).map { randomRow(&rng, $0, ids: &ids, faulty: faulty) }
            var members: [(String, JSON)] = [("rows", .array(rows))]
            switch rng.below(12) {
            case 0: members.append(("spacing", -1))
            case 1: members.append(("axis", "diagonal"))
            case 2: members.append(("rowInsets", object(("left", 3))))
            default: break
            }
            if rng.below(50) == 0 { members = [("rows", "none")] }
            let body = ObjectReader(object: JSONObject(members), path: "")
            var got: Result<ScrollStack, APIError>, want: Result<ScrollStack, APIError>
            do throws(APIError) { got = .success(try service.decodeStack(body, id: "s\(trial)")) } catch { got = .failure(error) }
            do throws(APIError) { want = .success(try decodeThroughRows(body, id: "s\(trial)")) } catch { want = .failure(error) }
            switch (got, want) {
            case (.success(let stack), .success(let expected)):
                outcomes["built", default: 0] += 1
                stack.checkInvariants()
                XCTAssertEqual(stack.rows, expected.rows, "seed \(seed) trial \(trial)")
                XCTAssertEqual(ModelEncoding.stackText(id: "s", revision: 1, stack, realPrecision: 17),
                               ModelEncoding.stackText(id: "s", revision: 1, expected, realPrecision: 17), "seed \(seed) trial \(trial)")
            case (.failure(let e), .failure(let f)):
                outcomes[e.code.rawValue, default: 0] += 1
                XCTAssertEqual(e, f, "seed \(seed) trial \(trial)")
            default:
                XCTFail("seed \(seed) trial \(trial): builder \(got), rows first \(want)")
            }
        }
        print("CreateDecodingTests: outcomes \(outcomes.sorted { $0.key < $1.key })")
        // The bodies reach both kinds of outcome, and several kinds of error.
        XCTAssertGreaterThan(outcomes["built", default: 0], 50, "seed \(seed)")
        XCTAssertGreaterThan(outcomes.count, 3, "seed \(seed)")
    }
}

