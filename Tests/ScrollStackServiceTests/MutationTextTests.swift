import Foundation
import JSONCodec
@testable import ScrollStackCore
@testable import ScrollStackService
import TestSeeds
import XCTest

/// The mutation answer and the journal's events written straight to text
/// (`ModelEncoding.mutationText`, `eventsText`) against the tree encoding they replace, on
/// seeded random stacks, operations and events: the same bytes, always.
final class MutationTextTests: XCTestCase {
    static func length(_ r: inout SplitMix64) -> JSON {
        switch Int.random(in: 0..<4, using: &r) {
        case 0: return .integer(Int64.random(in: 0...400, using: &r))
        case 1: return .number(Double(Int.random(in: 0...800, using: &r)) / 2)
        case 2: return .real(Double(Int.random(in: 1...1000, using: &r)) / 3)
        default: return .real(Double.random(in: 0...300, using: &r))
        }
    }

    static func insets(_ r: inout SplitMix64) -> JSON {
        .object(JSONObject(["top", "left", "bottom", "right"].map { ($0, length(&r)) }))
    }

    /// A row body using every member the answer writes itself, and some it writes as a tree.
    static func row(_ r: inout SplitMix64, _ i: Int) -> JSON {
        var members: [(String, JSON)] = [("id", .string(["row-\(i)", "r\"\(i)", "ü/\(i)", "t\t\(i)"][Int.random(in: 0..<4, using: &r)]))]
        if Bool.random(using: &r) {
            var controller: [(String, JSON)] = [("type", .string("Cell\\\(i % 3)"))]
            if Bool.random(using: &r) { controller.append(("instance", .string("c-\(i)"))) }
            if Bool.random(using: &r) { controller.append(("props", ["n": .integer(Int64(i)), "x": length(&r), "s": "é\n"])) }
            members.append(("controller", .object(JSONObject(controller))))
        } else {
            var view: [(String, JSON)] = [("type", "V")]
            if Bool.random(using: &r) { view.append(("props", [length(&r), "p"])) }
            members.append(("view", .object(JSONObject(view))))
        }
        switch Int.random(in: 0..<5, using: &r) {
        case 0: members.append(("content", ["aspectRatio": .real(Double(Int.random(in: 1...30, using: &r)) / 7)]))
        case 1: members.append(("size", ["vertical": ["fixed": length(&r)], "horizontal": ["fixed": length(&r)]]))
        case 2: members.append(("size", "fit"))
                members.append(("content", ["height": length(&r)]))
        default: members.append(("size", ["fixed": length(&r)]))
        }
        if Int.random(in: 0..<5, using: &r) == 0 { members.append(("hidden", true)) }
        if Bool.random(using: &r) { members.append(("insets", insets(&r))) }
        if Int.random(in: 0..<3, using: &r) == 0 {
            var separator: [(String, JSON)] = []
            if Bool.random(using: &r) { separator.append(("hidden", .bool(Bool.random(using: &r)))) }
            if Bool.random(using: &r) { separator.append(("thickness", length(&r))) }
            if Bool.random(using: &r) { separator.append(("insets", insets(&r))) }
            if Bool.random(using: &r) { separator.append(("color", "#ff0000")) }
            members.append(("separator", .object(JSONObject(separator))))
        }
        if Int.random(in: 0..<4, using: &r) == 0 { members.append(("tappable", false)) }
        if Int.random(in: 0..<4, using: &r) == 0 { members.append(("highlightable", false)) }
        if Int.random(in: 0..<4, using: &r) == 0 { members.append(("title", .string("Title \(i)"))) }
        return .object(JSONObject(members))
    }

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

    func testAnswerAndEventsMatchTheTreeEncoding() throws {
        let seed = TestSeed.seed("MutationTextTests")
        var r = SplitMix64(seed: seed)
        let service = StackService()
        var compared = 0
        for _ in 0..<60 {
            guard var stack = try? service.decodeStack(ObjectReader(object: Self.stackBody(&r, rows: Int.random(in: 0..<40, using: &r)), path: ""), id: "s"),
                  let spare = try? service.decodeStack(ObjectReader(object: Self.stackBody(&r, rows: 12), path: ""), id: "t") else { continue }
            var fresh = 0
            for revision in 1...25 {
                let operation = Self.randomOperation(&r, on: stack, spare: spare, fresh: &fresh, changingAxis: false)
                guard let result = try? operation.apply(to: &stack) else { continue }
                let tree = ModelEncoding.mutation(revision: revision, result, in: stack).serialized()
                XCTAssertEqual(String(decoding: ModelEncoding.mutationText(revision: revision, result, in: stack), as: UTF8.self),
                               String(decoding: tree, as: UTF8.self), "seed \(seed)")
                for precision in [15, 17] {
                    XCTAssertEqual(ModelEncoding.eventsText(result.events, realPrecision: precision),
                                   JSON.array(result.events.map(ModelEncoding.event)).serialized(realPrecision: precision), "seed \(seed)")
                }
                compared += 1
            }
        }
        for _ in 0..<2_000 {
            let events = (0..<Int.random(in: 0..<6, using: &r)).map { _ in Self.randomEvent(&r) }
            for precision in [15, 17] {
                XCTAssertEqual(String(decoding: ModelEncoding.eventsText(events, realPrecision: precision), as: UTF8.self),
                               String(decoding: JSON.array(events.map(ModelEncoding.event)).serialized(realPrecision: precision), as: UTF8.self),
                               "seed \(seed)")
            }
        }
        XCTAssertGreaterThan(compared, 500, "seed \(seed): too few operations applied to compare")
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
