import Foundation
import JSONCodec
@testable import ScrollStackCore
@testable import ScrollStackService
import TestSeeds
import XCTest

/// The layout answers written straight to text against the tree encoding they replace, on
/// seeded random stacks and queries: the same bytes, always. (`JSONWriterCorpusTests` holds
/// the tree's serialization to jansson's own writer.)
final class LayoutWriterCorpusTests: XCTestCase {
    /// A length as clients write them: whole, halves, thirds, arbitrary.
    static func length(_ r: inout SplitMix64) -> JSON { AnswerCorpusTests.length(&r) }

    /// Insets, a quarter of them zero (a row's content frame then is its frame).
    static func insets(_ r: inout SplitMix64) -> JSON {
        let most = Int.random(in: 0..<4, using: &r) == 0 ? Int64(0) : 20
        return .object(JSONObject(["top", "left", "bottom", "right"].map { ($0, .integer(Int64.random(in: 0...most, using: &r))) }))
    }

    static func row(_ r: inout SplitMix64, _ i: Int) -> JSON {
        var members: [(String, JSON)] = [("id", .string(["row-\(i)", "r\"\(i)", "ü/\(i)", "t\t\(i)"][Int.random(in: 0..<4, using: &r)])),
                                         ("view", ["type": "V"])]
        switch Int.random(in: 0..<4, using: &r) {
        case 0: members.append(("content", ["aspectRatio": .real(Double(Int.random(in: 1...30, using: &r)) / 7)]))
        case 1:
            members.append(("content", ["stack": "vertical", "spacing": length(&r), "padding": insets(&r),
                                        "children": [["height": length(&r)], ["height": length(&r), "width": length(&r)]]]))
        default: members.append(("size", ["fixed": length(&r)]))
        }
        if Int.random(in: 0..<7, using: &r) == 0 { members.append(("hidden", true)) }
        if Bool.random(using: &r) { members.append(("insets", insets(&r))) }
        switch Int.random(in: 0..<6, using: &r) {
        case 0: members.append(("separator", ["hidden": true]))
        case 1: members.append(("separator", ["thickness": length(&r), "insets": insets(&r)]))
        default: break
        }
        return .object(JSONObject(members))
    }

    static func stackBody(_ r: inout SplitMix64) -> JSONObject {
        let horizontal = Int.random(in: 0..<4, using: &r) == 0
        var members: [(String, JSON)] = [
            ("axis", horizontal ? "horizontal" : "vertical"),
            ("viewport", ["width": length(&r), "height": .integer(Int64.random(in: 100...900, using: &r))]),
            ("spacing", length(&r)),
            ("contentInsets", insets(&r)),
        ]
        if Int.random(in: 0..<4, using: &r) == 0 {
            members.append(("paging", ["size": ["fraction": 1]]))
            members.append(("pageIndicator", true))
        }
        members.append(("rows", .array((0..<Int.random(in: 0..<60, using: &r)).map { row(&r, $0) })))
        return JSONObject(members)
    }

    func testWriterMatchesTreeEncodingOnRandomStacksAndQueries() throws {
        let seed = TestSeed.seed("LayoutWriterCorpusTests")
        var r = SplitMix64(seed: seed)
        let service = StackService()
        var compared = 0
        for stackNumber in 0..<300 {
            let body = Self.stackBody(&r)
            let stored: ScrollStack
            do { stored = try service.decodeStack(ObjectReader(object: body, path: ""), id: "s") } catch { continue }
            for queryNumber in 0..<8 {
                var stack = stored
                if Bool.random(using: &r) {
                    let size = Size(width: Double(Int.random(in: 100...1200, using: &r)), height: Double(Int.random(in: 100...1200, using: &r)) / 2)
                    _ = try? stack.update(SettingsChange(viewport: size))
                }
                let offset: Point? = Bool.random(using: &r) ? nil : Point(x: Double.random(in: -50...500, using: &r), y: Double.random(in: -50...3000, using: &r))
                var page: Range<Int>?
                let laid: LaidOut
                switch Int.random(in: 0..<3, using: &r) {
                case 0: laid = LaidOut(stack: stack, layout: stack.visibleLayout(offset: offset), window: nil)
                case 1 where stack.count > 0:
                    let from = Int.random(in: 0..<stack.count, using: &r)
                    let range = from..<min(stack.count, from + Int.random(in: 1...20, using: &r))
                    page = range
                    laid = LaidOut(stack: stack, layout: stack.layout(offset: offset, rows: range), window: stack.visibleLayout(offset: offset))
                default: laid = LaidOut(stack: stack, layout: stack.layout(offset: offset), window: nil)
                }
                let revision: Int? = Bool.random(using: &r) ? Int.random(in: 1...1_000_000, using: &r) : nil
                let next: String? = Bool.random(using: &r) ? "/v1/stacks/s/layout?from=\(page?.upperBound ?? 0)&limit=5" : nil
                let frames = Int.random(in: 0..<3, using: &r) == 0
                let device: Device? = Int.random(in: 0..<4, using: &r) == 0 ? Device.catalog[Int.random(in: 0..<Device.catalog.count, using: &r)] : nil

                var tree = TreeLayoutEncoding.layout(revision: device == nil ? revision : nil, laid, page: page, next: next, contentFrames: frames)
                if let device { tree = TreeLayoutEncoding.deviceLayouts(revision: revision, [(device, tree)]) }
                var w = JSONWriter()
                if let device {
                    w.beginObject()
                    if let revision {
                        w.key(ascii: "revision")
                        w.integer(Int64(revision))
                    }
                    w.key(ascii: "layouts")
                    w.beginArray()
                    ModelEncoding.writeLayout(&w, revision: nil, laid, page: page, next: next, contentFrames: frames, device: device)
                    w.endArray()
                    w.endObject()
                } else {
                    ModelEncoding.writeLayout(&w, revision: revision, laid, page: page, next: next, contentFrames: frames)
                }
                let expected = tree.serialized()
                guard w.bytes == expected else {
                    XCTFail("seed \(seed), stack \(stackNumber), query \(queryNumber):\nwriter \(String(decoding: w.bytes, as: UTF8.self))\ntree   \(String(decoding: expected, as: UTF8.self))")
                    return
                }
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, 1000, "most random stacks are valid")
    }
}
