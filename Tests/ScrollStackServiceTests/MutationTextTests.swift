import Foundation
import JSONCodec
@testable import ScrollStackCore
@testable import ScrollStackService
import TestHTTPClient
import TestSeeds
import XCTest

/// The mutation answer and the journal's events (`ModelEncoding.mutationText`, `eventsText`)
/// read back, on seeded random stacks, operations and events: rows decode to the rows the
/// stack holds, events to the events made.
final class MutationTextTests: XCTestCase {
    /// A row using every member a row answer writes (the answer corpus's rows).
    static func row(_ r: inout SplitMix64, _ i: Int) -> JSON { AnswerCorpusTests.row(&r, i) }

    static func length(_ r: inout SplitMix64) -> JSON { AnswerCorpusTests.length(&r) }

    static func stackBody(_ r: inout SplitMix64, rows: Int) -> JSONObject {
        JSONObject([
            ("viewport", ["width": length(&r), "height": .integer(Int64.random(in: 100...900, using: &r))]),
            ("spacing", length(&r)),
            ("rows", .array((0..<rows).map { row(&r, $0) })),
        ])
    }

    static func randomEvent(_ r: inout SplitMix64) -> StackEvent {
        let id = ["a", "b\"", "ü"][Int.random(in: 0..<3, using: &r)]
        let index = Int.random(in: 0..<100_000, using: &r)
        func real() -> Double {
            switch Int.random(in: 0..<5, using: &r) {
            case 0: Double(Int.random(in: -500...500, using: &r))
            case 1: Double.random(in: -1e6...1e6, using: &r)
            case 2: Double.random(in: 0...1, using: &r) / 3
            case 3: [Double.infinity, 2e12, -0.0, 1e-7][Int.random(in: 0..<4, using: &r)]
            default: Double(Int.random(in: 0...3000, using: &r)) / 3
            }
        }
        func visibility() -> Visibility {
            [.hidden, .offscreen, .entire, .partial(fraction: Double.random(in: 0...1, using: &r)), .partial(fraction: 1e-9)][Int.random(in: 0..<5, using: &r)]
        }
        switch Int.random(in: 0..<11, using: &r) {
        case 0: return .rowAdded(id: id, index: index)
        case 1: return .rowRemoved(id: id, index: index)
        case 2: return .rowMoved(id: id, from: index, to: Int.random(in: 0..<100, using: &r))
        case 3: return .rowHidden(id: id, index: index)
        case 4: return .rowShown(id: id, index: index)
        case 5: return .rowResized(id: id, index: index, from: real(), to: real())
        case 6: return .becameVisible(id: id, index: index, visibility: visibility())
        case 7: return .becameHidden(id: id, index: index, visibility: visibility())
        case 8: return .contentSizeChanged(from: Size(width: real(), height: real()), to: Size(width: real(), height: real()))
        case 9: return .didScroll(from: Point(x: real(), y: real()), to: Point(x: real(), y: real()))
        default: return .layoutUpdated
        }
    }

    /// A random row operation on `stack`: an insert of one of `spare`'s rows (renamed
    /// `new-N`), a removal, a move, a hide or show, a scroll, or (when `changingAxis`) a change
    /// of axis. Operations that need more rows than `stack` has become scrolls.
    static func randomOperation(_ r: inout SplitMix64, on stack: ScrollStack, spare: ScrollStack, fresh: inout Int, changingAxis: Bool) -> StackOperation {
        let count = stack.count
        switch Int.random(in: 0..<(changingAxis ? 7 : 6), using: &r) {
        case 0, 1:
            var row = spare.row(at: Int.random(in: 0..<spare.count, using: &r))
            row.id = "new-\(fresh)"
            fresh += 1
            return .insert([row], at: count == 0 ? .bottom : .index(Int.random(in: 0...count, using: &r)))
        case 2 where count > 0: return .remove([.index(Int.random(in: 0..<count, using: &r))])
        case 3 where count > 1: return .move(index: Int.random(in: 0..<count, using: &r), to: Int.random(in: 0..<count, using: &r))
        case 4 where count > 0: return .setHidden([.index(Int.random(in: 0..<count, using: &r))], Bool.random(using: &r))
        case 6:
            var settings = stack.settings
            settings.axis = Bool.random(using: &r) ? .vertical : .horizontal
            return .settings(settings)
        default:
            var settings = stack.settings
            settings.offset = Point(x: 0, y: Double.random(in: -50...2000, using: &r))
            return .settings(settings)
        }
    }

    /// Every changed or removed row of a mutation answer decodes back to the row the stack
    /// holds (a row is answered as the client wrote it), at the index the answer gives.
    func testAnsweredRowsDecodeToTheRowsTheStackHolds() throws {
        let seed = TestSeed.seed("MutationTextTests")
        var r = SplitMix64(seed: seed)
        let service = StackService()
        var compared = 0
        for _ in 0..<40 {
            guard var stack = try? service.decodeStack(ObjectReader(object: Self.stackBody(&r, rows: Int.random(in: 0..<40, using: &r)), path: ""), id: "s"),
                  let spare = try? service.decodeStack(ObjectReader(object: Self.stackBody(&r, rows: 12), path: ""), id: "t") else { continue }
            var fresh = 0
            for revision in 1...20 {
                let operation = Self.randomOperation(&r, on: stack, spare: spare, fresh: &fresh, changingAxis: false)
                guard let result = try? operation.apply(to: &stack) else { continue }
                let answer = try JSON.parse(ModelEncoding.mutationText(revision: revision, result, in: stack))
                XCTAssertEqual(answer["revision"]?.int64Value, Int64(revision), "seed \(seed)")
                let changed = ModelEncoding.changedRows(result, in: stack)
                let answered = answer["changed"]?.arrayValue ?? []
                XCTAssertEqual(answered.count, changed.count, "seed \(seed)")
                for (json, (row, index)) in zip(answered, changed) {
                    XCTAssertEqual(json["index"]?.int64Value, Int64(index), "seed \(seed)")
                    XCTAssertEqual(try Self.decodedRow(json, service), row, "seed \(seed): \(json)")
                }
                let removed = answer["removed"]?.arrayValue ?? []
                XCTAssertEqual(removed.count, result.removed.count, "seed \(seed)")
                for (json, gone) in zip(removed, result.removed) {
                    XCTAssertEqual(json["index"]?.int64Value, Int64(gone.index), "seed \(seed)")
                    XCTAssertEqual(try Self.decodedRow(json, service), gone.row, "seed \(seed): \(json)")
                }
                XCTAssertEqual(answer["events"]?.arrayValue?.count, result.events.count, "seed \(seed)")
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, 300, "seed \(seed): too few operations applied to compare")
    }

    /// The row an answered row decodes to, sent back as the only row of a stack (its
    /// `index` left out).
    static func decodedRow(_ json: JSON, _ service: StackService) throws -> Row {
        guard case .object(var members) = json else { throw TestHTTPError(description: "not an object: \(json)") }
        members["index"] = nil
        let stack = try service.decodeStack(ObjectReader(object: JSONObject([("rows", .array([.object(members)]))]), path: ""), id: "r")
        return stack.row(at: 0)
    }

    /// Events written at 17 digits read back as the events they are: their type, rows,
    /// indexes and every position and size exactly (computed lengths rounded to 10⁻⁶).
    func testEventsAtSeventeenDigitsReadBackExactly() throws {
        let seed = TestSeed.seed("MutationTextTests")
        var r = SplitMix64(seed: seed)
        for _ in 0..<2_000 {
            let events = (0..<Int.random(in: 0..<6, using: &r)).map { _ in Self.randomEvent(&r) }
            let read = try JSON.parse(ModelEncoding.eventsText(events, realPrecision: 17)).arrayValue ?? []
            XCTAssertEqual(read.count, events.count, "seed \(seed)")
            for (json, event) in zip(read, events) {
                XCTAssertEqual(json["type"]?.stringValue, event.name, "seed \(seed)")
                func number(_ value: JSON?) -> Double? { value?.doubleValue }
                func rounded(_ value: Double) -> Double { ModelEncoding.computedValue(value) }
                switch event {
                case .rowAdded(let id, let index), .rowRemoved(let id, let index), .rowHidden(let id, let index), .rowShown(let id, let index):
                    XCTAssertEqual(json["id"]?.stringValue, id, "seed \(seed)")
                    XCTAssertEqual(json["index"]?.int64Value, Int64(index), "seed \(seed)")
                case .rowMoved(let id, let from, let to):
                    XCTAssertEqual(json["id"]?.stringValue, id, "seed \(seed)")
                    XCTAssertEqual(json["from"]?.int64Value, Int64(from), "seed \(seed)")
                    XCTAssertEqual(json["to"]?.int64Value, Int64(to), "seed \(seed)")
                case .rowResized(let id, _, let from, let to):
                    XCTAssertEqual(json["id"]?.stringValue, id, "seed \(seed)")
                    if from.isFinite { XCTAssertEqual(number(json["from"]), rounded(from), "seed \(seed)") }
                    if to.isFinite { XCTAssertEqual(number(json["to"]), rounded(to), "seed \(seed)") }
                case .becameVisible(let id, _, let v), .becameHidden(let id, _, let v):
                    XCTAssertEqual(json["id"]?.stringValue, id, "seed \(seed)")
                    XCTAssertEqual(json["visibility"]?.stringValue, v.name, "seed \(seed)")
                    let fraction = number(json["visibleFraction"]) ?? -1
                    if case .partial = v { XCTAssertTrue(fraction > 0 && fraction < 1, "seed \(seed): \(json)") }
                case .contentSizeChanged(let from, let to):
                    for (value, size) in [(json["from"], from), (json["to"], to)] where size.width.isFinite && size.height.isFinite {
                        XCTAssertEqual(number(value?["width"]), rounded(size.width), "seed \(seed)")
                        XCTAssertEqual(number(value?["height"]), rounded(size.height), "seed \(seed)")
                    }
                case .didScroll(let from, let to):
                    for (value, point) in [(json["from"], from), (json["to"], to)] where point.x.isFinite && point.y.isFinite {
                        XCTAssertEqual(number(value?["x"]), point.x, "seed \(seed)")
                        XCTAssertEqual(number(value?["y"]), point.y, "seed \(seed)")
                    }
                case .layoutUpdated:
                    break
                }
            }
        }
    }
}

/// `RequestContext.mediaType` against the `split` it replaces, on seeded random header values.
final class MediaTypeTests: XCTestCase {
    func testMediaTypeMatchesSplit() {
        let seed = TestSeed.seed("MediaTypeTests")
        var r = SplitMix64(seed: seed)
        let pieces = [";", " ", "\t", "application/json", "Application/JSON", "charset=utf-8", "text/plain", "é", "=", "\u{301}", "\r\n"]
        for _ in 0..<5_000 {
            let value = (0..<Int.random(in: 0..<6, using: &r)).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &r)] }.joined()
            // The caller compares with "application/json" only, so no piece and an empty one are alike.
            let split = value.split(separator: ";").first?.trimmingSpaces.lowercased() ?? ""
            XCTAssertEqual(RequestContext.mediaType(value), split, "seed \(seed): \(value.debugDescription)")
        }
    }
}
