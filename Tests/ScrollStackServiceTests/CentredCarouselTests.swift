import Foundation
import JSONCodec
@testable import ScrollStackService
import TestHTTPClient
import TestSeeds
import XCTest

/// Carousels over HTTP as Docs/API.md's recipe "A carousel of centred cards" writes them: page
/// sizes that include the spacing, centring insets, where a paging stack is created, its
/// separators, `POST …/scroll {"page"}`, animated scrolls held inside their ends, offsets
/// stored as answered, and the scroll's `window`.
final class CentredCarouselTests: XCTestCase {
    var server: ServerHarness!

    override func setUpWithError() throws {
        server = try ServerHarness()
    }

    override func tearDown() {
        server.stop()
    }

    func j(_ text: String) throws -> JSON { try JSON.parse(Array(text.utf8)) }

    func post(_ path: String, _ body: String) throws -> Reply {
        try server.request("POST", path, json: try j(body))
    }

    /// The recipe's create body: `count` cards `p` long, `s` apart, in a `v`-wide viewport,
    /// pages of `size` (a page size member), centred.
    func recipe(id: String, p: Double, s: Double, v: Double, count: Int, size: String) -> String {
        let cards = (0..<count).map { #"{"id": "c\#($0)", "view": {"type": "Card"}, "size": {"fixed": \#(p)}}"# }
        return """
            {"id": "\(id)", "axis": "horizontal", "viewport": {"width": \(v), "height": 300}, "spacing": \(s),
             "rowInsets": {"top": 0, "left": 0, "bottom": 0, "right": 0},
             "paging": {"size": \(size), "alignment": "center"},
             "rows": [\(cards.joined(separator: ", "))]}
            """
    }

    /// Where card `id`'s centre is in the viewport, from a layout answer.
    func cardCentre(_ layout: JSON?, _ id: String) -> Double? {
        guard let rows = layout?["rows"]?.arrayValue, let row = rows.first(where: { $0["id"]?.stringValue == id }),
              let x = row["frame"]?["x"]?.doubleValue, let width = row["frame"]?["width"]?.doubleValue,
              let offset = layout?["offset"]?["x"]?.doubleValue else { return nil }
        return x + width / 2 - offset
    }

    /// Every card centred at its own stop, the first and the last included, for seeded random
    /// card lengths P, spacings S, viewports V and counts, with absolute and fraction pages.
    func testEveryCardRestsCentredAtItsStop() throws {
        let seed = TestSeed.seed("CentredCarouselTests.testEveryCardRestsCentredAtItsStop")
        var rng = SeededRandom(seed)
        func uniform(_ range: ClosedRange<Double>) -> Double {
            // On a 1/64 grid, so the numbers travel as JSON exactly.
            ((range.lowerBound + (range.upperBound - range.lowerBound) * Double(rng.next() % 1_000_000) / 1_000_000) * 64).rounded() / 64
        }
        for trial in 0..<12 {
            let v = uniform(200...500)
            let p = uniform(60...(v - 1))
            let s = uniform(0...40)
            let count = 1 + rng.below(9)
            let fraction = trial % 2 == 1
            let size = fraction ? #"{"fraction": \#(p / v)}"# : #"{"absolute": \#(p)}"#
            let context = "seed \(seed) trial \(trial): P \(p), S \(s), V \(v), \(count) cards, size \(size)"
            let id = "t\(trial)"
            let created = try post("/v1/stacks", recipe(id: id, p: p, s: s, v: v, count: count, size: size))
            XCTAssertEqual(created.status, 201, "\(context): \(created.text)")

            // Created resting on the first card, centred.
            let first = try server.request("GET", "/v1/stacks/\(id)/layout?window=visible")
            XCTAssertEqual(first["paging.currentPage"], 0, context)
            XCTAssertEqual(first["paging.progress"], 0, context)
            XCTAssertEqual(first["paging.pageCount"]?.int64Value, Int64(count), context)
            XCTAssertEqual(try XCTUnwrap(cardCentre(first.json, "c0"), context), v / 2, accuracy: 2e-6, context)

            for k in 0..<count {
                let scrolled = try post("/v1/stacks/\(id)/scroll", #"{"page": \#(k)}"#)
                XCTAssertEqual(scrolled.status, 200, "\(context): \(scrolled.text)")
                let window = scrolled["window"]
                XCTAssertEqual(window?["paging"]?["currentPage"]?.int64Value, Int64(k), context)
                XCTAssertEqual(window?["paging"]?["progress"]?.doubleValue, Double(k), context)
                let centre = try XCTUnwrap(cardCentre(window, "c\(k)"), "card \(k) is not visible at its stop: \(context)")
                XCTAssertEqual(centre, v / 2, accuracy: 2e-6, "card \(k): \(context)")
            }
            // The ends of the scroll range are the first and the last card's stops.
            let top = try post("/v1/stacks/\(id)/scroll", #"{"to": "top"}"#)
            XCTAssertEqual(try XCTUnwrap(cardCentre(top["window"], "c0"), context), v / 2, accuracy: 2e-6, context)
            let bottom = try post("/v1/stacks/\(id)/scroll", #"{"to": "bottom"}"#)
            XCTAssertEqual(try XCTUnwrap(cardCentre(bottom["window"], "c\(count - 1)"), context), v / 2, accuracy: 2e-6, context)
        }
    }

    /// The recipe's own numbers (Docs/API.md): cards 300 wide, 12 apart, in 375.
    func testTheRecipeAnswers() throws {
        let created = try post("/v1/stacks", recipe(id: "cards", p: 300, s: 12, v: 375, count: 4, size: #"{"absolute": 300}"#))
        XCTAssertEqual(created.status, 201, created.text)
        // Card k's centre is 312k + 150; the viewport's 187.5: stops −37.5, 274.5, 586.5, 898.5.
        XCTAssertEqual(created["offset"], try j(#"{"x": -37.5, "y": 0}"#))
        XCTAssertEqual(created["separator.hidden"], true)
        let last = try post("/v1/stacks/cards/scroll", #"{"page": 3}"#)
        XCTAssertEqual(last["window.offset"], try j(#"{"x": 898.5, "y": 0}"#))
        XCTAssertEqual(last["window.paging"], try j(#"{"pageSize": 300, "pageCount": 4, "currentPage": 3, "progress": 3}"#))
        XCTAssertEqual(last["window.visibleRows"], try j(#"["c2", "c3"]"#))
        let bottom = try post("/v1/stacks/cards/scroll", #"{"to": "bottom", "dryRun": true}"#)
        XCTAssertEqual(bottom["offset"], try j(#"{"x": 898.5, "y": 0}"#), "the range ends at the last card's stop")
    }

    /// A paging stack is created on the first page's stop; an explicit `offset` is kept.
    func testAPagingStackIsCreatedOnTheFirstPageStop() throws {
        // Row pages 300 long in 375, contentInsets 37.5 each side, leading alignment: the first
        // page's stop is the range's low end, −37.5 (offset 0 was between stops).
        let body = """
            {"id": "inset", "axis": "horizontal", "viewport": {"width": 375, "height": 300},
             "contentInsets": {"left": 37.5, "right": 37.5}, "spacing": 12,
             "rowInsets": {"top": 0, "left": 0, "bottom": 0, "right": 0}, "paging": {"size": "rows"},
             "rows": [{"id": "a", "view": {"type": "Card"}, "size": {"fixed": 300}},
                      {"id": "b", "view": {"type": "Card"}, "size": {"fixed": 300}}]}
            """
        let created = try post("/v1/stacks", body)
        XCTAssertEqual(created.status, 201, created.text)
        XCTAssertEqual(created["offset.x"], -37.5)
        let layout = try server.request("GET", "/v1/stacks/inset/layout")
        XCTAssertEqual(layout["paging.progress"], 0)
        XCTAssertEqual(layout["paging.currentPage"], 0)

        let given = body.replacingOccurrences(of: #""id": "inset","#, with: #""id": "given", "offset": {"x": 10},"#)
        XCTAssertEqual(try post("/v1/stacks", given)["offset.x"], 10, "an explicit offset is kept")
        // The stateless layout starts there too.
        let stateless = try server.request("POST", "/v1/layout", json: try j(body))
        XCTAssertEqual(stateless["offset.x"], -37.5)
        XCTAssertEqual(stateless["paging.progress"], 0)
    }

    /// Pages draw no separator unless asked; explicit separators still draw.
    func testPagesDrawNoSeparatorUnlessAsked() throws {
        func body(_ id: String, paging: Bool, extra: String = "", rowExtra: String = "") -> String {
            """
            {"id": "\(id)", "axis": "horizontal", "viewport": {"width": 200, "height": 100}\(paging ? #", "paging": true"# : "")\(extra),
             "rows": [{"id": "a", "view": {"type": "Page"}, "size": {"fixed": 168}\(rowExtra)},
                      {"id": "b", "view": {"type": "Page"}, "size": {"fixed": 168}}]}
            """
        }
        let paged = try post("/v1/stacks", body("paged", paging: true))
        XCTAssertEqual(paged["separator.hidden"], true)
        let layout = try server.request("GET", "/v1/stacks/paged/layout")
        XCTAssertEqual(layout["rows[0].separatorFrame"], .null)

        // Without paging the standard separator is drawn as before.
        XCTAssertEqual(try post("/v1/stacks", body("plain", paging: false))["separator.hidden"], false)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/plain/layout")["rows[0].separatorFrame"],
                       try j(#"{"x": 199, "y": 0, "width": 1, "height": 100}"#))

        // Asked for on the stack, or on a row.
        let asked = try post("/v1/stacks", body("asked", paging: true, extra: #", "separator": {"hidden": false}"#))
        XCTAssertEqual(asked["separator.hidden"], false)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/asked/layout")["rows[0].separatorFrame"],
                       try j(#"{"x": 199, "y": 0, "width": 1, "height": 100}"#))
        XCTAssertEqual(try post("/v1/stacks", body("row", paging: true, rowExtra: #", "separator": {"hidden": false}"#)).status, 201)
        let row = try server.request("GET", "/v1/stacks/row/layout")
        XCTAssertEqual(row["rows[0].separatorFrame"], try j(#"{"x": 199, "y": 0, "width": 1, "height": 100}"#))
        XCTAssertEqual(row["rows[1].separatorFrame"], .null)
    }

    static let carousel = """
        {"id": "c", "axis": "horizontal", "viewport": {"width": 375, "height": 500},
         "rowInsets": {"top": 0, "left": 0, "bottom": 0, "right": 0},
         "paging": {"size": {"fraction": 1}}, "pageIndicator": true,
         "menu": {"itemSize": {"fixed": {"width": 100, "height": 40}}},
         "rows": [
           {"id": "p0", "view": {"type": "Page"}, "size": {"fixed": 375}, "title": "One"},
           {"id": "p1", "view": {"type": "Page"}, "size": {"fixed": 375}, "title": "Two"},
           {"id": "p2", "view": {"type": "Page"}, "size": {"fixed": 375}, "title": "Three"},
           {"id": "p3", "view": {"type": "Page"}, "size": {"fixed": 375}, "title": "Four"}]}
        """

    func testScrollToAPage() throws {
        XCTAssertEqual(try post("/v1/stacks", Self.carousel).status, 201)
        let scrolled = try post("/v1/stacks/c/scroll", #"{"page": 2}"#)
        XCTAssertEqual(scrolled.status, 200, scrolled.text)
        XCTAssertEqual(scrolled["revision"], 2)
        XCTAssertEqual(scrolled["window.offset"], try j(#"{"x": 750, "y": 0}"#))
        XCTAssertTrue(scrolled["events"]?.arrayValue?.contains(try j(#"{"type": "didScroll", "from": {"x": 0, "y": 0}, "to": {"x": 750, "y": 0}}"#)) == true,
                      scrolled.text)

        // Animated, with keyframes from 750 to 375.
        let animated = try post("/v1/stacks/c/scroll", #"{"page": 1, "animation": true, "fps": 30}"#)
        XCTAssertEqual(animated.status, 200, animated.text)
        XCTAssertEqual(animated["transition.offset"], try j(#"{"from": {"x": 750, "y": 0}, "to": {"x": 375, "y": 0}}"#))
        XCTAssertEqual(animated["transition.keyframes"]?.arrayValue?.last?["offset"], try j(#"{"x": 375, "y": 0}"#))

        // A dry run answers the offset and the window there, and changes nothing.
        let dry = try post("/v1/stacks/c/scroll", #"{"page": 3, "dryRun": true}"#)
        XCTAssertEqual(dry.status, 200, dry.text)
        XCTAssertEqual(dry["revision"], 3)
        XCTAssertEqual(dry["dryRun"], true)
        XCTAssertEqual(dry["offset"], try j(#"{"x": 1125, "y": 0}"#))
        XCTAssertEqual(dry["window.paging.currentPage"], 3)
        XCTAssertNil(dry["events"])
        // With animation, the plan it would make (for the revision it would make), and still no change.
        let planned = try post("/v1/stacks/c/scroll", #"{"page": 0, "dryRun": true, "animation": true, "fps": 20}"#)
        XCTAssertEqual(planned.status, 200, planned.text)
        XCTAssertEqual(planned["revision"], 3)
        XCTAssertEqual(planned["transition.revision"], 4)
        XCTAssertEqual(planned["transition.offset"], try j(#"{"from": {"x": 375, "y": 0}, "to": {"x": 0, "y": 0}}"#))
        XCTAssertEqual(planned["transition.keyframes"]?.arrayValue?.last?["offset"], try j(#"{"x": 0, "y": 0}"#))
        XCTAssertEqual(try server.request("GET", "/v1/stacks/c")["offset.x"], 375, "unchanged")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/c")["revision"], 3)

        // Errors name `page`, and change nothing.
        func assertPageError(_ body: String, _ message: String, stack: String = "c", code: String = "invalid_value") throws {
            let reply = try post("/v1/stacks/\(stack)/scroll", body)
            XCTAssertEqual(reply.status, 422, reply.text)
            XCTAssertEqual(reply.errorCode, code, reply.text)
            XCTAssertEqual(reply.errorField, "page", reply.text)
            XCTAssertTrue(reply["error.message"]?.stringValue?.contains(message) == true, reply.text)
        }
        try assertPageError(#"{"page": 4}"#, "must be a page in 0…3, got 4")
        try assertPageError(#"{"page": -1}"#, "must be a page in 0…3, got -1")
        try assertPageError(#"{"page": 4, "dryRun": true}"#, "must be a page in 0…3, got 4")
        try assertPageError(#"{"page": "two"}"#, "expected an integer", code: "wrong_type")
        XCTAssertEqual(try post("/v1/stacks/c/scroll", #"{"page": 1, "to": "top"}"#).errorField, "page")
        XCTAssertEqual(try post("/v1/stacks", #"{"id": "flat", "rows": [{"id": "a", "view": {"type": "V"}, "size": {"fixed": 44}}]}"#).status, 201)
        try assertPageError(#"{"page": 0}"#, "the stack does not page", stack: "flat")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/c")["revision"], 3, "no error made a revision")
    }

    /// Animated scrolls stay inside their two ends: the offset's keyframes never pass the
    /// bottom of the content, even with a bouncy spring.
    func testAnimatedScrollsNeverOvershoot() throws {
        let rows = (0..<10).map { #"{"id": "r\#($0)", "view": {"type": "V"}, "size": {"fixed": 70}}"# }.joined(separator: ", ")
        XCTAssertEqual(try post("/v1/stacks", #"{"id": "v", "viewport": {"width": 320, "height": 600}, "rows": [\#(rows)]}"#).status, 201)
        let maxOffset = try XCTUnwrap(try server.request("GET", "/v1/stacks/v/layout?scrollTo=bottom")["offset.y"]?.doubleValue)
        for body in [#"{"to": "bottom", "animation": true, "fps": 60}"#,
                     #"{"to": "top", "animation": {"damping": 0.3}, "fps": 120}"#,
                     #"{"row": "r9", "position": "final", "animation": {"damping": 0.2, "duration": 0.6}, "fps": 240}"#] {
            let reply = try post("/v1/stacks/v/scroll", body)
            XCTAssertEqual(reply.status, 200, reply.text)
            let frames = try XCTUnwrap(reply["transition.keyframes"]?.arrayValue, body)
            let progress = frames.compactMap { $0["progress"]?.doubleValue }
            XCTAssertTrue(progress.contains { $0 > 1 || $0 < 0 }, "the spring itself overshoots: \(body)")
            for frame in frames {
                let y = try XCTUnwrap(frame["offset"]?["y"]?.doubleValue)
                XCTAssertTrue((0...maxOffset).contains(y), "keyframe offset \(y) outside 0…\(maxOffset): \(body)")
            }
        }
    }

    /// A settle's target is stored exactly as its answer shows it: reading the stack back
    /// gives the same number (0.3 × 957 is 287.09999999999997 in doubles).
    func testASettleStoresTheOffsetItAnswers() throws {
        let rows = (0..<8).map { #"{"id": "r\#($0)", "view": {"type": "Page"}, "size": {"fixed": 287.1}}"# }.joined(separator: ", ")
        let body = """
            {"id": "s", "axis": "horizontal", "viewport": {"width": 957, "height": 300},
             "rowInsets": {"top": 0, "left": 0, "bottom": 0, "right": 0}, "paging": {"size": {"fraction": 0.3}}, "rows": [\(rows)]}
            """
        XCTAssertEqual(try post("/v1/stacks", body).status, 201)
        let settled = try post("/v1/stacks/s/scroll/settle", #"{"velocity": 900, "offset": 60}"#)
        XCTAssertEqual(settled.status, 200, settled.text)
        XCTAssertEqual(settled["target.x"], 287.1)
        let stored = try server.request("GET", "/v1/stacks/s")
        XCTAssertEqual(stored["offset.x"], settled["target.x"])
        let page = try post("/v1/stacks/s/scroll", #"{"page": 2}"#)
        XCTAssertEqual(page["window.offset.x"], try server.request("GET", "/v1/stacks/s")["offset.x"])
        XCTAssertEqual(page["window.offset.x"], 574.2)
    }

    /// `POST …/scroll`'s `window` is `GET …/layout?window=visible` without `revision`, the
    /// carousel members included.
    func testTheScrollWindowIsTheVisibleLayout() throws {
        XCTAssertEqual(try post("/v1/stacks", Self.carousel).status, 201)
        for body in [#"{"page": 2}"#, #"{"offset": {"x": 562.5}}"#, #"{"row": "p3", "position": "middle"}"#] {
            let scrolled = try post("/v1/stacks/c/scroll", body)
            XCTAssertEqual(scrolled.status, 200, scrolled.text)
            let window = try XCTUnwrap(scrolled["window"]?.objectValue, body)
            XCTAssertNotNil(window["paging"])
            XCTAssertNotNil(window["pageIndicator"])
            XCTAssertNotNil(window["menu"])
            var visible = try XCTUnwrap(try server.request("GET", "/v1/stacks/c/layout?window=visible").json?.objectValue)
            XCTAssertEqual(visible["revision"]?.int64Value, scrolled["revision"]?.int64Value)
            visible["revision"] = nil
            XCTAssertEqual(JSON.object(window), JSON.object(visible), body)
        }
    }
}
