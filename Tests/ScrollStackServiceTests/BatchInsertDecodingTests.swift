import JSONCodec
import ScrollStackCore
@testable import ScrollStackService
import TestHTTPClient
import TestSeeds
import XCTest

/// `POST …/rows` decodes its rows straight into a `RowBatch` (plain rows in one pass,
/// `RowFields`) and inserts them through `ScrollStack.insert(_: RowBatch, at:)`. On seeded random stacks and bodies — valid and
/// faulty rows, ids repeated within the body and taken by the stack (a generated id's
/// included), small batches and batches of more than 1,024 rows, at the top, in the middle,
/// at the end and at bad places — the outcome is the one of decoding every row into a `Row`
/// and inserting the array: the same error (status, code, message, field), or the same
/// result, answer bytes, journal record bytes and stack.
final class BatchInsertDecodingTests: XCTestCase {
    let service = StackService()

    /// The insert route's decoding as it was: every row decoded into a `Row`.
    func operationThroughRows(_ fields: [Field], stack: ScrollStack, stackID: String, revision: Int,
                              at location: InsertLocation) throws(APIError) -> StackOperation {
        var rows: [Row] = []
        var used = Set<String>()
        var ids = RowIDGenerator(stack: stackID, revision: revision + 1)
        for field in fields {
            let row = try ModelDecoding.row(field, maxDepth: service.limits.maxJSONDepth, maxTitle: service.limits.maxTitleCharacters, defaults: stack.settings) {
                ids.next { used.contains($0) || stack.row(id: $0) != nil }
            }
            used.insert(row.id)
            rows.append(row)
        }
        return .insert(rows, at: location)
    }

    /// A row body: mostly valid plain rows, some with rarely set members, some without an id,
    /// some with an id the stack or an earlier row has; faults of every kind when `faulty`.
    func randomRow(_ rng: inout SeededRandom, _ i: Int, taken: [String], faulty: Bool) -> JSON {
        var members: [(String, JSON)] = []
        let roll = rng.below(100)
        if roll >= 6 {
            let id: String
            switch faulty ? rng.below(20) : 10 {
            case 0: id = taken.isEmpty ? "b\(i)" : taken[rng.below(taken.count)]
            case 1: id = i > 0 ? "b\(rng.below(i))" : "b\(i)"
            case 2: id = ""
            default: id = "b\(i)"
            }
            members.append(("id", .string(id)))
        }
        let type: JSON = faulty && rng.below(80) == 0 ? "" : (faulty && rng.below(120) == 0 ? 7 : .string(["Cell", "Header"][rng.below(2)]))
        var descriptor: [(String, JSON)] = [("type", type)]
        if rng.below(4) == 0 { descriptor.append(("props", object(("n", .integer(Int64(rng.below(4))))))) }
        if rng.below(2) == 0 {
            if rng.below(4) == 0 { descriptor.append(("instance", .string("i\(rng.below(3))"))) }
            members.append(("controller", .object(JSONObject(descriptor))))
        } else {
            members.append(("view", .object(JSONObject(descriptor))))
        }
        switch faulty ? rng.below(200) : 10 + rng.below(190) {
        case 0: break  // no size: an error unless there is content
        case 1: members.append(("size", "big"))
        case 2: members.append(("size", object(("fixed", -4))))
        case 3: members.append(("size", "fit"))
        case 4: members.append(("size", object(("fixed", .real(.infinity)))))
        case 5...9: members.append(("size", object(("vertical", object(("fixed", 30))), ("horizontal", "fit"))))
        default: members.append(("size", object(("fixed", .integer(Int64(rng.below(90)))))))
        }
        if rng.below(8) == 0 { members.append(("hidden", faulty && rng.below(200) == 0 ? "yes" : .bool(rng.below(2) == 0))) }
        if rng.below(30) == 0 { members.append(("insets", object(("top", .integer(Int64(rng.below(5) - (faulty ? 1 : 0))))))) }
        if rng.below(40) == 0 { members.append(("tappable", true)) }
        if rng.below(50) == 0 { members.append(("content", object(("height", 20)))) }
        if rng.below(60) == 0 { members.append(("separator", object(("thickness", 2)))) }
        if rng.below(80) == 0 { members.append(("title", "T")) }
        if faulty && rng.below(300) == 0 { members.append(("colour", "red")) }
        // Members the one-pass reading of plain rows leaves to the field-by-field one.
        if rng.below(60) == 0 { members.append(("index", .integer(Int64(i)))) }
        if faulty {
            switch rng.below(400) {
            case 0: members.append(("hidden", .null))
            case 1: members = members.map { $0.0 == "id" ? ("id", .null) : $0 }
            case 2: members = members.map { $0.0 == "size" ? ("size", object(("fixed", "tall")))  : $0 }
            case 3: members = members.map { $0.0 == "size" ? ("size", object(("fixed", .null))) : $0 }
            case 4: members.append(members.contains { $0.0 == "view" } ? ("controller", object(("type", "C"))) : ("view", object(("type", "V"))))
            case 5: members = members.map { $0.0 == "id" ? ("id", 12) : $0 }
            default: break
            }
        }
        return .object(JSONObject(members))
    }

    func testRowsDecodedIntoABatchInsertAsRowsDecodedFirst() throws {
        let seed = TestSeed.seed("BatchInsertDecodingTests")
        var rng = SeededRandom(seed)
        var outcomes: [String: Int] = [:]
        for trial in 0..<160 {
            let stackID = "s\(trial)", revision = 1 + rng.below(5)
            // The stack: plain rows, one of them sometimes holding the id the body's first
            // id-less row would be given.
            let sizes = [0, 1, 5, 40, 1100]
            var existing: [Row] = []
            for i in 0..<sizes[rng.below(sizes.count)] {
                let length = Double(10 + i % 30)
                existing.append(Row(id: "e\(i)", content: .view(ViewDescriptor(type: "Cell")), size: .fixed(length), hidden: i % 9 == 4))
            }
            if !existing.isEmpty, rng.below(4) == 0 {
                var generator = RowIDGenerator(stack: stackID, revision: revision + 1)
                existing[rng.below(existing.count)].id = generator.next { _ in false }
            }
            var settings = StackSettings()
            settings.offset.y = Double(rng.below(400))
            let stack = try ScrollStack(settings: settings, rows: existing)
            let faulty = rng.below(2) == 0
            let count = rng.below(10) == 0 ? 1024 + rng.below(200) : rng.below(30)
            let taken = existing.map { (row: Row) in row.id }
            let elements = (0..<count).map { i in randomRow(&rng, i, taken: taken, faulty: faulty && rng.below(count > 100 ? 400 : 8) == 0) }
            let array = Field(.array(elements), path: "rows")
            let location: InsertLocation = switch rng.below(8) {
            case 0: .top
            case 1: .bottom
            case 2: .index(rng.below(stack.count + 1))
            case 3: .index(stack.count + 1 + rng.below(3))
            case 4: .before(.id(taken.isEmpty ? "nowhere" : taken[rng.below(taken.count)]))
            case 5: .after(.id(rng.below(5) == 0 || taken.isEmpty ? "nowhere" : taken[rng.below(taken.count)]))
            case 6: .after(.index(rng.below(stack.count + 1)))
            default: .index(stack.count / 2)
            }
            func outcome(_ decode: () throws(APIError) -> StackOperation) -> Result<(StackOperation, OperationResult, ScrollStack), APIError> {
                var copy = stack
                do throws(APIError) {
                    let operation = try decode()
                    let result = try service.model { () throws(StackError) in try operation.apply(to: &copy) }
                    return .success((operation, result, copy))
                } catch {
                    return .failure(error)
                }
            }
            let got = outcome { () throws(APIError) in
                .insertBatch(try service.insertedRows(try RowFields(array), into: stack, stackID: stackID, revision: revision), at: location)
            }
            let want = outcome { () throws(APIError) in
                try operationThroughRows(try array.array(), stack: stack, stackID: stackID, revision: revision, at: location)
            }
            switch (got, want) {
            case (.success(let (operation, result, after)), .success(let (expectedOperation, expectedResult, expected))):
                outcomes["inserted", default: 0] += 1
                after.checkInvariants()
                XCTAssertEqual(result, expectedResult, "seed \(seed) trial \(trial)")
                XCTAssertEqual(after.rows, expected.rows, "seed \(seed) trial \(trial)")
                XCTAssertEqual(ModelEncoding.mutationText(revision: revision + 1, result, in: after, realPrecision: 17),
                               ModelEncoding.mutationText(revision: revision + 1, expectedResult, in: expected, realPrecision: 17),
                               "seed \(seed) trial \(trial)")
                XCTAssertEqual(OperationRecord.stack(operation), OperationRecord.stack(expectedOperation), "seed \(seed) trial \(trial)")
                XCTAssertEqual(ModelEncoding.stackText(id: "s", revision: 1, after, realPrecision: 17),
                               ModelEncoding.stackText(id: "s", revision: 1, expected, realPrecision: 17), "seed \(seed) trial \(trial)")
            case (.failure(let e), .failure(let f)):
                outcomes[e.code.rawValue, default: 0] += 1
                XCTAssertEqual(e, f, "seed \(seed) trial \(trial)")
            default:
                XCTFail("seed \(seed) trial \(trial): batch \(got), rows first \(want)")
            }
        }
        print("BatchInsertDecodingTests: outcomes \(outcomes.sorted { $0.key < $1.key })")
        // The bodies reach both kinds of outcome, and several kinds of error.
        XCTAssertGreaterThan(outcomes["inserted", default: 0], 30, "seed \(seed)")
        XCTAssertGreaterThan(outcomes.count, 3, "seed \(seed)")
    }
}
