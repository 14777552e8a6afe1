import Foundation
import JSONCodec
import MicroHTTP
@testable import ScrollStackService
@testable import ScrollStackStore
import XCTest

/// Paging, settle, the page indicator and the paging menu over HTTP, with their errors, their
/// place in history and live events, and their survival across a restart.
final class CarouselEndpointTests: XCTestCase {
    var server: ServerHarness!

    override func setUpWithError() throws {
        server = try ServerHarness()
    }

    override func tearDown() {
        server.stop()
    }

    /// JSON from text (test bodies read better this way).
    func j(_ text: String) throws -> JSON { try JSON.parse(Array(text.utf8)) }

    /// Five full-width pages of 375 titled One…Five (zero insets: stops 0, 375, …, 1500), a
    /// page indicator and a fixed-size menu.
    static let carousel = """
        {"id": "c", "axis": "horizontal", "viewport": {"width": 375, "height": 500},
         "rowInsets": {"top": 0, "left": 0, "bottom": 0, "right": 0},
         "paging": {"size": {"fraction": 1}}, "pageIndicator": true,
         "menu": {"itemSize": {"fixed": {"width": 100, "height": 40}}},
         "rows": [
           {"id": "p0", "view": {"type": "Page"}, "size": {"fixed": 375}, "title": "One"},
           {"id": "p1", "view": {"type": "Page"}, "size": {"fixed": 375}, "title": "Two"},
           {"id": "p2", "view": {"type": "Page"}, "size": {"fixed": 375}, "title": {"text": "Three", "selectedWidth": 140}},
           {"id": "p3", "view": {"type": "Page"}, "size": {"fixed": 375}, "title": "Four"},
           {"id": "p4", "view": {"type": "Page"}, "size": {"fixed": 375}, "title": "Five"}]}
        """

    @discardableResult
    func makeCarousel() throws -> Reply {
        let reply = try server.request("POST", "/v1/stacks", json: try j(Self.carousel))
        XCTAssertEqual(reply.status, 201, reply.text)
        return reply
    }

    func post(_ path: String, _ body: String) throws -> Reply {
        try server.request("POST", path, json: try j(body))
    }

    func patch(_ body: String) throws -> Reply {
        try server.request("PATCH", "/v1/stacks/c", json: try j(body))
    }

    func assertError(_ reply: Reply, _ status: Int, _ code: String, _ field: String?, _ message: String? = nil,
                     file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(reply.status, status, reply.text, file: file, line: line)
        XCTAssertEqual(reply.errorCode, code, reply.text, file: file, line: line)
        XCTAssertEqual(reply.errorField, field, reply.text, file: file, line: line)
        if let message { XCTAssertTrue(reply["error.message"]?.stringValue?.contains(message) == true, reply.text, file: file, line: line) }
    }

    func testSettingsRoundTripAndLayoutMembers() throws {
        let created = try makeCarousel()
        XCTAssertEqual(created["paging.size.fraction"], 1)
        XCTAssertEqual(created["paging.alignment"], "leading")
        XCTAssertEqual(created["pageIndicator.dotDiameter"], 7)
        XCTAssertEqual(created["menu.itemSize.fixed.width"], 100)
        XCTAssertEqual(created["menu.selectedScrollPosition"], "preferCentered")
        XCTAssertEqual(created["menu.indicator.height"], 4)
        XCTAssertEqual(created["rows[0].title"], "One")
        XCTAssertEqual(created["rows[2].title.selectedWidth"], 140)

        let layout = try server.request("GET", "/v1/stacks/c/layout?offset=562.5")
        XCTAssertEqual(layout["paging"], try j(#"{"pageSize": 375, "pageCount": 5, "currentPage": 1, "progress": 1.5}"#))
        XCTAssertEqual(layout["pageIndicator.frame"], try j(#"{"x": 152, "y": 463, "width": 71, "height": 37}"#))
        XCTAssertEqual(layout["pageIndicator.numberOfPages"], 5)
        XCTAssertEqual(layout["pageIndicator.currentPage"], 1)
        XCTAssertEqual(layout["pageIndicator.hidden"], false)
        XCTAssertEqual(layout["pageIndicator.dots"]?.arrayValue?.count, 5, "one dot per page")
        XCTAssertEqual(layout["menu.frame"], try j(#"{"x": 0, "y": -40, "width": 375, "height": 40}"#))
        // Half way from item 1 to item 2: item 2 is tween(100, 140, 0.5) = 120 wide.
        XCTAssertEqual(layout["menu.items[2].frame"], try j(#"{"x": 200, "y": 0, "width": 120, "height": 40}"#))
        XCTAssertEqual(layout["menu.items[3].frame.x"], 320)
        XCTAssertEqual(layout["menu.contentSize.width"], 520)
        XCTAssertEqual(layout["menu.selected.id"], "p1")
        XCTAssertEqual(layout["menu.items[1].selected"], true)
        // Indicator: from (100, 100) to item 2 at 200 and its selected width 140 by 0.5
        // (Parchment's frameForIndex takes both items at their selected widths while scrolling).
        XCTAssertEqual(layout["menu.indicator"], try j(#"{"x": 150, "y": 36, "width": 120, "height": 4}"#))
        XCTAssertEqual(layout["menu.border"], try j(#"{"x": 8, "y": 39, "width": 504, "height": 1}"#))
        // Offsets where selecting each item puts the menu, linearly by 0.5: 0 (item 1 centred:
        // 150 − 187.5 → 0) and 82.5 (item 2 selected, 140 wide at 200: 270 − 187.5).
        XCTAssertEqual(layout["menu.contentOffset.x"], 41.25)

        // Off: the members go away; a plain stack has none.
        XCTAssertEqual(try patch(#"{"menu": null, "pageIndicator": false}"#).status, 200)
        let plain = try server.request("GET", "/v1/stacks/c/layout")
        XCTAssertNil(plain["menu"])
        XCTAssertNil(plain["pageIndicator"])
        XCTAssertNotNil(plain["paging"])
        XCTAssertNil(try server.request("GET", "/v1/stacks/c")["menu"])
        XCTAssertEqual(try patch(#"{"paging": false}"#).status, 200)
        XCTAssertNil(try server.request("GET", "/v1/stacks/c/layout")["paging"])

        // The stateless layout answers them too.
        let stateless = try server.request("POST", "/v1/layout?offset=1500", json: try j(Self.carousel))
        XCTAssertEqual(stateless["paging.currentPage"], 4)
        XCTAssertEqual(stateless["menu.selected.id"], "p4")
    }

    /// A stack of millions of pages lists 1,000 dots around the current page, the first of
    /// them named by `firstDot`, in an answer of kilobytes and milliseconds; up to 1,000 pages
    /// every dot is listed and there is no `firstDot`.
    func testAPageIndicatorListsAtMostAThousandDotsAroundTheCurrentPage() throws {
        let body = #"{"id": "tall", "paging": true, "pageIndicator": true, "viewport": {"width": 375, "height": 500}, "rows": [{"id": "a", "view": {"type": "R"}, "size": {"fixed": 1000000000}}]}"#
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: try j(body)).status, 201)
        for offset in [0.0, 500.0 * 600, 1_000_000_000.0] {
            let layout = try server.request("GET", "/v1/stacks/tall/layout?window=visible&offset=\(offset)")
            XCTAssertEqual(layout.status, 200, layout.text)
            let pages = Int(try XCTUnwrap(layout["pageIndicator.numberOfPages"]?.int64Value))
            let current = Int(try XCTUnwrap(layout["pageIndicator.currentPage"]?.int64Value))
            XCTAssertGreaterThanOrEqual(pages, 2_000_000)
            // 500 before the current page, but within 0…pages − 1,000.
            let first = min(max(current - 500, 0), pages - 1_000)
            XCTAssertEqual(layout["pageIndicator.firstDot"]?.int64Value, Int64(first), "at offset \(offset), page \(current)")
            let dots = try XCTUnwrap(layout["pageIndicator.dots"]?.arrayValue)
            XCTAssertEqual(dots.count, 1_000)
            let tint = dots[current - first]["color"]
            XCTAssertEqual(dots.filter { $0["color"] == tint }.count, 1, "the current page's dot alone has its tint")
            XCTAssertEqual(dots[current - first]["frame"]?["x"]?.doubleValue, layout["pageIndicator.frame.x"].flatMap { $0.doubleValue }.map { $0 + Double(current) * 16 },
                           "a dot's frame is its page's, 16 pt per page from the control's left edge")
            XCTAssertLessThan(layout.body.count, 200_000)
        }
        _ = try makeCarousel()
        let small = try server.request("GET", "/v1/stacks/c/layout")
        XCTAssertNil(small["pageIndicator.firstDot"])
    }

    /// A menu of 2,500 pages lists the 1,000 items around the selected one, the first of them
    /// named by `firstItem`, each with its own index and frame; the content size still counts
    /// every item. Up to 1,000 items every one is listed and there is no `firstItem`. A picture
    /// draws the items that show.
    func testAMenuListsAtMostAThousandItemsAroundTheSelectedOne() throws {
        let rows = (0..<2_500).map { #"{"id": "p\#($0)", "view": {"type": "Page"}, "size": {"fixed": 375}}"# }.joined(separator: ", ")
        let body = ##"{"id": "long", "axis": "horizontal", "viewport": {"width": 375, "height": 500}, "rowInsets": {"top": 0, "left": 0, "bottom": 0, "right": 0}, "paging": {"size": {"fraction": 1}}, "menu": {"itemSize": {"fixed": {"width": 100, "height": 40}}, "backgroundColor": "#FF000080"}, "rows": [\##(rows)]}"##
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: try j(body)).status, 201)
        for (page, first) in [(0, 0), (1_200, 700), (2_499, 1_500)] {
            let layout = try server.request("GET", "/v1/stacks/long/layout?window=visible&offset=\(page * 375)")
            XCTAssertEqual(layout.status, 200, String(layout.text.prefix(300)))
            XCTAssertEqual(layout["menu.selected.index"]?.int64Value, Int64(page))
            XCTAssertEqual(layout["menu.firstItem"]?.int64Value, Int64(first), "page \(page)")
            let items = try XCTUnwrap(layout["menu.items"]?.arrayValue)
            XCTAssertEqual(items.count, 1_000)
            XCTAssertEqual(items.map { $0["index"]?.int64Value }, (first..<(first + 1_000)).map { Int64($0) })
            XCTAssertEqual(items[page - first]["selected"], .bool(true))
            XCTAssertEqual(items[page - first]["frame"]?["x"]?.doubleValue, Double(page) * 100, "an item's frame is its own, 100 pt per item")
            XCTAssertEqual(layout["menu.contentSize.width"]?.doubleValue, 250_000, "every item is laid out")
        }
        let svg = try server.request("GET", "/v1/stacks/long/layout.svg?window=visible&offset=\(1_200 * 375)")
        XCTAssertEqual(svg.status, 200)
        // The menu, 375 wide, shows 4 or 5 of the 100-wide items, each on its background.
        let backgrounds = svg.text.components(separatedBy: "menu-item-background").count - 1
        XCTAssertTrue((4...5).contains(backgrounds), "\(backgrounds) item backgrounds drawn")
        _ = try makeCarousel()
        let small = try server.request("GET", "/v1/stacks/c/layout")
        XCTAssertNil(small["menu.firstItem"])
        XCTAssertEqual(small["menu.items"]?.arrayValue?.count, 5)
    }

    func testPatchMergesAndRowTitles() throws {
        try makeCarousel()
        let patched = try patch(#"{"paging": {"alignment": "center", "size": {"absolute": 300}}, "menu": {"indicator": "hidden", "border": {"height": 2}}}"#)
        XCTAssertEqual(patched.status, 200, patched.text)
        let stack = try server.request("GET", "/v1/stacks/c")
        XCTAssertEqual(stack["paging.alignment"], "center")
        XCTAssertEqual(stack["paging.size.absolute"], 300)
        XCTAssertEqual(stack["menu.itemSize.fixed.width"], 100, "merged, not replaced")
        XCTAssertEqual(stack["menu.indicator"], "hidden")
        XCTAssertEqual(stack["menu.border.height"], 2)
        XCTAssertEqual(stack["menu.border.insets.left"], 8)
        XCTAssertNil(try server.request("GET", "/v1/stacks/c/layout")["menu.indicator"]?.objectValue)

        let titled = try server.request("PATCH", "/v1/stacks/c/rows/p1", json: try j(#"{"title": {"text": "Deux", "width": 90}}"#))
        XCTAssertEqual(titled.status, 200, titled.text)
        XCTAssertEqual(titled["changed[0].title"], try j(#"{"text": "Deux", "width": 90}"#))
        XCTAssertEqual(try server.request("GET", "/v1/stacks/c/layout")["menu.items[1].frame.width"], 90)
        let cleared = try server.request("PATCH", "/v1/stacks/c/rows/p1", json: .object(JSONObject([("title", .null)])))
        XCTAssertNil(cleared["changed[0].title"])
    }

    func testBadSettingsGetPreciseErrors() throws {
        try makeCarousel()
        assertError(try patch(#"{"paging": {"size": "pages"}}"#), 422, "invalid_value", "paging.size", "\"rows\"")
        assertError(try patch(#"{"paging": {"size": {"absolute": -5}}}"#), 422, "invalid_value", "paging.size.absolute", "negative")
        assertError(try patch(#"{"paging": {"size": {"absolute": 0}}}"#), 422, "invalid_value", "paging.size.absolute", "greater than 0")
        assertError(try patch(#"{"paging": {"size": {"fraction": 0}}}"#), 422, "invalid_value", "paging.size.fraction", "(0, 1]")
        assertError(try patch(#"{"paging": {"size": {"fraction": 1.5}}}"#), 422, "invalid_value", "paging.size.fraction", "(0, 1]")
        assertError(try patch(#"{"paging": {"size": {"absolute": 3, "fraction": 0.5}}}"#), 422, "invalid_value", "paging.size")
        assertError(try patch(#"{"paging": {"alignment": "middle"}}"#), 422, "invalid_value", "paging.alignment", "\"leading\"")
        assertError(try patch(#"{"paging": {"contentInsetEdges": ["left", "up"]}}"#), 422, "invalid_value", "paging.contentInsetEdges[1]")
        assertError(try patch(#"{"paging": {"sizeInsets": {"left": -1}}}"#), 422, "invalid_value", "paging.sizeInsets.left")
        assertError(try patch(#"{"paging": 3}"#), 422, "wrong_type", "paging")
        assertError(try patch(#"{"paging": {"pageSize": 3}}"#), 422, "unknown_field", "paging.pageSize")
        assertError(try patch(#"{"menu": {"itemSize": {"auto": {}}}}"#), 422, "invalid_value", "menu.itemSize.auto", "fixed, sizeToFit, selfSizing")
        assertError(try patch(#"{"menu": {"itemSize": {"fixed": {"width": -1}}}}"#), 422, "invalid_value", "menu.itemSize.fixed.width")
        assertError(try patch(#"{"menu": {"itemSpacing": -2}}"#), 422, "invalid_value", "menu.itemSpacing")
        assertError(try patch(#"{"menu": {"selectedScrollPosition": "middle"}}"#), 422, "invalid_value", "menu.selectedScrollPosition")
        assertError(try patch(#"{"menu": {"indicator": "shown"}}"#), 422, "invalid_value", "menu.indicator")
        assertError(try patch(#"{"pageIndicator": {"dotDiameter": -7}}"#), 422, "invalid_value", "pageIndicator.dotDiameter")
        assertError(try patch(#"{"pageIndicator": {"position": "left"}}"#), 422, "invalid_value", "pageIndicator.position")
        assertError(try patch(#"{"paging": null}"#), 422, "invalid_value", "pageIndicator", "needs paging")
        assertError(try server.request("PATCH", "/v1/stacks/c/rows/p0", json: try j(#"{"title": 5}"#)), 422, "wrong_type", "title")
        assertError(try server.request("PATCH", "/v1/stacks/c/rows/p0", json: try j(#"{"title": {"width": -4}}"#)), 422, "invalid_value", "title.width")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/c")["revision"], 1, "no error changed anything")

        // A menu without paging, on either axis (over vertical pages it is VerticalMenuTests').
        for axis in ["vertical", "horizontal"] {
            let unpaged = try server.request("POST", "/v1/stacks", json: try j(#"{"id": "v", "axis": "\#(axis)", "menu": true}"#))
            assertError(unpaged, 422, "invalid_value", "menu", "needs paging")
        }
    }

    func testSettle() throws {
        try makeCarousel()
        // Dry run: answers, changes nothing.
        let dry = try post("/v1/stacks/c/scroll/settle", #"{"velocity": 800, "offset": 120, "dryRun": true, "fps": 30}"#)
        XCTAssertEqual(dry.status, 200, dry.text)
        XCTAssertEqual(dry["revision"], 1)
        XCTAssertEqual(dry["target"], try j(#"{"x": 375, "y": 0}"#))
        XCTAssertEqual(dry["page"], 1)
        XCTAssertEqual(dry["motion"], "spring")
        XCTAssertNil(dry["events"])
        let curve = try XCTUnwrap(dry["curve"]?.arrayValue)
        let duration = try XCTUnwrap(dry["duration"]?.doubleValue)
        XCTAssertEqual(curve.count, Int((duration * 30).rounded(.up)) + 1)
        XCTAssertEqual(curve.first, try j(#"{"t": 0, "offset": 120}"#))
        XCTAssertEqual(curve.last?["offset"], 375)
        XCTAssertEqual(curve[1]["t"]?.doubleValue ?? 0, 1.0 / 30, accuracy: 1e-6)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/c")["offset.x"], 0)

        // For real: a mutation with didScroll, and the layout follows.
        let real = try post("/v1/stacks/c/scroll/settle", #"{"velocity": 800, "offset": 120}"#)
        XCTAssertEqual(real["revision"], 2)
        XCTAssertEqual(real["events[1]"], try j(#"{"type": "didScroll", "from": {"x": 0, "y": 0}, "to": {"x": 375, "y": 0}}"#))
        XCTAssertEqual(real["page"], 1)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/c/layout")["pageIndicator.currentPage"], 1)
        // A slow flick from page 1 back to near page 0 settles on the nearest stop.
        XCTAssertEqual(try post("/v1/stacks/c/scroll/settle", #"{"velocity": -100, "offset": 150}"#)["page"], 0)
        // From page 0 a fast flick backwards stays on page 0.
        XCTAssertEqual(try post("/v1/stacks/c/scroll/settle", #"{"velocity": -3000, "offset": -20, "dryRun": true}"#)["page"], 0)

        // Without paging: deceleration, rates by name or number; offset as a point too.
        XCTAssertEqual(try patch(#"{"paging": null, "pageIndicator": null, "menu": null}"#).status, 200)
        let normal = try post("/v1/stacks/c/scroll/settle", #"{"velocity": 1000, "offset": 100, "dryRun": true}"#)
        XCTAssertEqual(normal["target.x"], 599)
        XCTAssertEqual(normal["page"], .null)
        XCTAssertEqual(normal["motion"], "deceleration")
        XCTAssertEqual(try post("/v1/stacks/c/scroll/settle", #"{"velocity": 1000, "offset": {"x": 100}, "decelerationRate": "fast", "dryRun": true}"#)["target.x"], 199)
        XCTAssertEqual(try post("/v1/stacks/c/scroll/settle", #"{"velocity": 1000, "offset": 100, "decelerationRate": 0.95, "dryRun": true}"#)["target.x"], 119)
        XCTAssertEqual(try post("/v1/stacks/c/scroll/settle", #"{"velocity": 100000, "offset": 100, "dryRun": true}"#)["target.x"], 1500, "clamped")
    }

    func testSettleErrors() throws {
        try makeCarousel()
        let path = "/v1/stacks/c/scroll/settle"
        assertError(try post(path, #"{}"#), 422, "missing_field", "velocity")
        assertError(try post(path, #"{"velocity": "fast"}"#), 422, "wrong_type", "velocity")
        assertError(try post(path, #"{"velocity": 1e8}"#), 422, "invalid_value", "velocity", "finite")
        let overflow = try server.raw("POST", path, body: Array(#"{"velocity": 1e999}"#.utf8), headers: [("Content-Type", "application/json")])
        assertError(overflow, 400, "malformed_json", nil, "overflow")
        assertError(try post(path, #"{"velocity": 1, "decelerationRate": "slow"}"#), 422, "invalid_value", "decelerationRate", "\"normal\", \"fast\"")
        assertError(try post(path, #"{"velocity": 1, "decelerationRate": 1}"#), 422, "invalid_value", "decelerationRate", "(0, 1)")
        assertError(try post(path, #"{"velocity": 1, "decelerationRate": true}"#), 422, "wrong_type", "decelerationRate")
        assertError(try post(path, #"{"velocity": 1, "fps": 0}"#), 422, "invalid_value", "fps")
        assertError(try post(path, #"{"velocity": 1, "offset": "left"}"#), 422, "wrong_type", "offset")
        assertError(try post(path, #"{"velocity": 1, "offset": 1e16}"#), 422, "invalid_value", "offset")
        assertError(try post(path, #"{"velocity": 1, "dryRun": "yes"}"#), 422, "wrong_type", "dryRun")
        assertError(try post(path, #"{"velocity": 1, "speed": 2}"#), 422, "unknown_field", "speed")
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: try j(#"{"id": "d", "rows": [{"view": {"type": "V"}, "size": {"fixed": 1000000000}}]}"#)).status, 201)
        assertError(try post("/v1/stacks/d/scroll/settle", #"{"velocity": 1e6, "decelerationRate": 0.99999, "fps": 240, "dryRun": true}"#), 422, "invalid_value", "fps", "10000")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/c")["revision"], 1)
        XCTAssertEqual(try post("/v1/stacks/none/scroll/settle", #"{"velocity": 1}"#).status, 404)
    }

    func testMenuWindowAndSelect() throws {
        try makeCarousel()
        let window = try server.request("GET", "/v1/stacks/c/menu/window?around=p4&width=250")
        XCTAssertEqual(window.status, 200, window.text)
        // Before p4: p3 (150 left), p2 (50), p1 (−50); after: nothing of 200, so 2 items are
        // missing after, and the 200 goes before: p0.
        XCTAssertEqual(ids(window["before"]), ["p0", "p1", "p2", "p3"])
        XCTAssertEqual(ids(window["after"]), [])
        XCTAssertEqual(window["missingAfter"], try j(#"{"width": 200, "items": 2}"#))
        XCTAssertEqual(window["missingBefore.items"], 0)
        let first = try server.request("GET", "/v1/stacks/c/menu/window?around=p0")
        XCTAssertEqual(ids(first["after"]), ["p1", "p2", "p3", "p4"])
        XCTAssertEqual(first["missingBefore"], try j(#"{"width": 375, "items": 4}"#))
        assertError(try server.request("GET", "/v1/stacks/c/menu/window?around=zz"), 400, "bad_query_parameter", "around", "\"zz\"")
        assertError(try server.request("GET", "/v1/stacks/c/menu/window?around=p1&index=9"), 400, "bad_query_parameter", "index")
        assertError(try server.request("GET", "/v1/stacks/c/menu/window"), 400, "bad_query_parameter", "around", "required")
        assertError(try server.request("GET", "/v1/stacks/c/menu/window?around=p1&width=-3"), 400, "bad_query_parameter", "width")

        let selected = try post("/v1/stacks/c/menu/select", #"{"row": "p3"}"#)
        XCTAssertEqual(selected.status, 200, selected.text)
        XCTAssertEqual(selected["revision"], 2)
        XCTAssertEqual(selected["events[1].to.x"], 1125)
        XCTAssertEqual(selected["menu.selected.id"], "p3")
        XCTAssertEqual(selected["paging.currentPage"], 3)
        XCTAssertEqual(try post("/v1/stacks/c/menu/select", #"{"index": 0}"#)["menu.selected.id"], "p0")
        XCTAssertEqual(try post("/v1/stacks/c/menu/select", #"{"row": 2}"#)["paging.currentPage"], 2, "a row index")
        XCTAssertEqual(try post("/v1/stacks/c/rows/batch", #"{"op": "hide", "rows": ["p1"]}"#).status, 200)
        assertError(try post("/v1/stacks/c/menu/select", #"{"row": "p1"}"#), 422, "invalid_value", "row", "hidden")
        assertError(try post("/v1/stacks/c/menu/select", #"{"index": 4}"#), 422, "invalid_value", "index", "0…3")
        assertError(try post("/v1/stacks/c/menu/select", #"{"row": "p1", "index": 1}"#), 422, "invalid_value", nil, "exactly one")

        XCTAssertEqual(try patch(#"{"menu": null}"#).status, 200)
        assertError(try post("/v1/stacks/c/menu/select", #"{"index": 0}"#), 409, "no_menu", nil, "no menu")
        assertError(try server.request("GET", "/v1/stacks/c/menu/window?around=p0"), 409, "no_menu", nil)
    }

    /// Two requests that took the server down (found by CI's schemathesis run and a review):
    /// a layout scrolled to less than 10⁻⁶ short of the last stop of row pages (an index one
    /// past the stops), and a menu window over items of width 0 with a spacing of 10⁻³⁰⁰ (a
    /// missing-item count beyond `Int`). Both answer now, and the server goes on serving.
    func testEdgeOffsetsAndTinyMenuItemsAnswer() throws {
        try makeCarousel()
        XCTAssertEqual(try patch(#"{"paging": {"size": "rows"}}"#).status, 200)
        XCTAssertEqual(try post("/v1/stacks/c/scroll", #"{"offset": {"x": 1499.9999996, "y": 0}}"#).status, 200)
        let layout = try server.request("GET", "/v1/stacks/c/layout")
        XCTAssertEqual(layout.status, 200, layout.text)
        XCTAssertEqual(layout["paging.currentPage"], 4)
        let progress = try XCTUnwrap(layout["paging.progress"]?.doubleValue, layout.text)
        XCTAssertEqual(progress, 4, accuracy: 1e-6, "just short of the last stop, in the last gap")
        XCTAssertLessThanOrEqual(progress, 4)

        XCTAssertEqual(try patch(#"{"menu": {"itemSize": {"fixed": {"width": 0, "height": 40}}, "itemSpacing": 1e-300}}"#).status, 200)
        let window = try server.request("GET", "/v1/stacks/c/menu/window?around=p0&width=1000000000")
        XCTAssertEqual(window.status, 200, window.text)
        XCTAssertEqual(window["missingBefore.items"], 9_007_199_254_740_992, "2⁵³ at most")
        XCTAssertEqual(try server.request("GET", "/healthz").status, 200)
    }

    func ids(_ json: JSON?) -> [String] { (json?.arrayValue ?? []).compactMap { $0["id"]?.stringValue } }

    /// Carousel mutations are revisions like any other: in history and in live events.
    func testHistoryAndLiveEvents() throws {
        try makeCarousel()
        let reader = try LiveEventsTests.EventReader(port: server.port, stack: "c")
        XCTAssertEqual(try patch(#"{"paging": {"size": "rows"}}"#).status, 200)
        XCTAssertEqual(try post("/v1/stacks/c/scroll/settle", #"{"velocity": 900}"#).status, 200)
        XCTAssertEqual(try post("/v1/stacks/c/scroll/settle", #"{"velocity": 900, "dryRun": true}"#).status, 200)
        XCTAssertEqual(try post("/v1/stacks/c/menu/select", #"{"row": "p4"}"#).status, 200)
        var live: [Int: JSON] = [:]
        for _ in 0..<3 {
            let message = try XCTUnwrap(try reader.next())
            live[message.revision] = message.data
        }
        XCTAssertEqual(live.keys.sorted(), [2, 3, 4], "the dry run made no revision")
        let history = try server.request("GET", "/v1/stacks/c/events?after=2")
        let scrolls = (history["events"]?.arrayValue ?? []).filter { $0["type"] == "didScroll" }
        XCTAssertEqual(scrolls.map { $0["revision"] }, [3, 4])
        XCTAssertEqual(scrolls.map { $0["to"]?["x"] }, [375, 1500])
        XCTAssertEqual(live[3].flatMap { $0["events"]?.arrayValue?.first { $0["type"] == "didScroll" } }, scrolls[0].objectValue.map { var o = $0; o["revision"] = nil; return JSON.object(o) })
    }

    /// The journal replays carousel requests and snapshots hold the settings: a restart gives
    /// the same stack, layout and history, byte for byte.
    func testSurvivesARestart() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sscarousel-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("journal.sqlite").path
        func call(_ service: StackService, _ method: String, _ target: String, _ body: String? = nil) throws -> HTTPResponse {
            let parts = target.split(separator: "?", maxSplits: 1)
            let query = parts.count > 1 ? parts[1].split(separator: "&").map { pair -> (name: String, value: String) in
                let kv = pair.split(separator: "=", maxSplits: 1)
                return (String(kv[0]), kv.count > 1 ? String(kv[1]) : "")
            } : []
            return service.handle(HTTPRequest(method: method, path: String(parts[0]), query: query,
                                              headers: body == nil ? [] : [("Content-Type", "application/json")], body: Array((body ?? "").utf8)))
        }
        // A snapshot every 2 revisions: the restart reads settings from snapshots and replays the rest.
        let service = StackService(journal: try StackJournal(path: path, snapshotInterval: 2))
        XCTAssertEqual(try call(service, "POST", "/v1/stacks", Self.carousel).status, 201)
        for (method, target, body) in [
            ("PATCH", "/v1/stacks/c", #"{"paging": {"alignment": "center", "positionInsets": {"left": 4}}, "menu": {"itemSpacing": 6}}"#),
            ("POST", "/v1/stacks/c/scroll/settle", #"{"velocity": 1200, "offset": 200}"#),
            ("PATCH", "/v1/stacks/c/rows/p2", #"{"title": {"text": "Drei", "width": 120, "selectedWidth": 150}}"#),
            ("POST", "/v1/stacks/c/menu/select", #"{"row": "p3"}"#),
            ("PATCH", "/v1/stacks/c", #"{"pageIndicator": {"hidesForSinglePage": true, "inset": 12}}"#),
            // Revision 7: titles measured by the text engine, in a bold selected font.
            ("PATCH", "/v1/stacks/c", #"{"menu": {"itemSize": {"sizeToFit": {"minWidth": 0}}, "selectedFont": {"family": "Inter", "size": 15, "weight": "bold"}}}"#),
            ("PATCH", "/v1/stacks/c", #"{"menu": {"itemSpacing": 2}}"#),
        ] {
            let response = try call(service, method, target, body)
            XCTAssertEqual(response.status, 200, String(decoding: response.body, as: UTF8.self))
        }
        let restarted = StackService(journal: try StackJournal(path: path, snapshotInterval: 2))
        XCTAssertEqual(try restarted.restore(), 1)
        for target in ["/v1/stacks/c", "/v1/stacks/c/layout", "/v1/stacks/c/events", "/v1/stacks/c/layout?revision=3",
                       "/v1/stacks/c/layout?revision=7"] {
            let before = String(decoding: try call(service, "GET", target).body, as: UTF8.self)
            XCTAssertEqual(String(decoding: try call(restarted, "GET", target).body, as: UTF8.self), before, target)
        }
        let stack = try JSON.parse(try call(restarted, "GET", "/v1/stacks/c").body)
        XCTAssertEqual(stack["pageIndicator"]?["inset"], 12)
        XCTAssertEqual(stack["paging"]?["alignment"], "center")
        XCTAssertEqual(stack["offset"]?["x"], 1123, "page 3 centred on (4 + 375) / 2")
        let layout = try JSON.parse(try call(restarted, "GET", "/v1/stacks/c/layout").body)
        let one = layout["menu"]?["items"]?.arrayValue?.first?["frame"]?["width"]?.doubleValue ?? 0
        XCTAssertTrue(one > 40 && one != 100, "the measured title \"One\" + 2·20, not the old fixed 100: \(one)")
    }
}
