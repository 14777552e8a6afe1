import Foundation
import JSONCodec
import XCTest

/// The paging menu over vertically paged content (Parchment's `contentNavigationOrientation`
/// `.vertical`): the menu stays a horizontal strip, its items go with the pages in order, and
/// its selection, indicator and offset follow the paging progress along y exactly as they
/// follow it along x over a horizontal stack.
final class VerticalMenuTests: XCTestCase {
    var server: ServerHarness!

    override func setUpWithError() throws {
        server = try ServerHarness()
    }

    override func tearDown() {
        server.stop()
    }

    func j(_ text: String) throws -> JSON { try JSON.parse(Array(text.utf8)) }

    /// The menu both stacks share: titled items (one with a wider selected width), indicator
    /// insets and a border, so every part of the geometry has something to show.
    static let menu = """
        {"itemSize": {"fixed": {"width": 100, "height": 40}}, "itemSpacing": 6,
         "insets": {"top": 2, "left": 10, "bottom": 2, "right": 10}, "selectedScrollPosition": "preferCentered",
         "indicator": {"height": 3, "insets": {"left": 12, "right": 12}}}
        """

    /// Five pages in a 375 × 500 viewport: along x (375 wide) when `axis` is horizontal, along y
    /// (500 tall) when vertical, titled One…Five.
    static func stack(_ id: String, axis: String, menu: String = VerticalMenuTests.menu) -> String {
        let length = axis == "horizontal" ? 375 : 500
        let titles = ["One", "Two", #"{"text": "Three", "selectedWidth": 140}"#, "Four", "Five"]
        let rows = titles.enumerated().map { k, title in
            let text = title.hasPrefix("{") ? title : "\"\(title)\""
            return #"{"id": "p\#(k)", "view": {"type": "Page"}, "size": {"fixed": \#(length)}, "title": \#(text)}"#
        }.joined(separator: ", ")
        return """
            {"id": "\(id)", "axis": "\(axis)", "viewport": {"width": 375, "height": 500},
             "rowInsets": {"top": 0, "left": 0, "bottom": 0, "right": 0},
             "paging": {"size": {"fraction": 1}}, "menu": \(menu), "rows": [\(rows)]}
            """
    }

    /// Creates the horizontal stack `h` and the vertical stack `v`.
    func makeBoth() throws {
        let h = try server.request("POST", "/v1/stacks", json: try j(Self.stack("h", axis: "horizontal")))
        XCTAssertEqual(h.status, 201, h.text)
        let v = try server.request("POST", "/v1/stacks", json: try j(Self.stack("v", axis: "vertical")))
        XCTAssertEqual(v.status, 201, v.text)
    }

    /// The `menu` of a layout answer at `offset` along the stack's axis.
    func menu(_ id: String, at offset: Double) throws -> JSON? {
        let reply = try server.request("GET", "/v1/stacks/\(id)/layout?offset=\(offset)")
        XCTAssertEqual(reply.status, 200, reply.text)
        return reply["menu"]
    }

    func testAVerticalPagingStackTakesAMenuAndEchoesIt() throws {
        try makeBoth()
        let v = try server.request("GET", "/v1/stacks/v")
        let h = try server.request("GET", "/v1/stacks/h")
        XCTAssertEqual(v["axis"], "vertical")
        XCTAssertNotNil(v["menu"], v.text)
        XCTAssertEqual(v["menu"], h["menu"], "the same menu settings, echoed in full")
        XCTAssertEqual(v["menu.itemSpacing"], 6)
        XCTAssertEqual(v["menu.itemSize"], try j(#"{"fixed": {"width": 100, "height": 40}}"#))
        XCTAssertEqual(v["rows[2].title"], try j(#"{"text": "Three", "selectedWidth": 140}"#))

        // Defaults on a bare vertical paging stack; turning the axis of a menu stack vertical.
        let bare = try server.request("POST", "/v1/stacks", json: try j(#"{"id": "b", "paging": true, "menu": true}"#))
        XCTAssertEqual(bare.status, 201, bare.text)
        XCTAssertEqual(bare["axis"], "vertical")
        XCTAssertEqual(bare["menu.position"], "top")
        let turned = try server.request("PATCH", "/v1/stacks/h", json: try j(#"{"axis": "vertical"}"#))
        XCTAssertEqual(turned.status, 200, turned.text)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/h")["axis"], "vertical")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/h")["menu"], v["menu"], "the menu stays on")
        // Still: no menu without paging, whatever the axis.
        let unpaged = try server.request("POST", "/v1/stacks", json: try j(#"{"id": "u", "menu": true}"#))
        XCTAssertEqual(unpaged.status, 422, unpaged.text)
        XCTAssertEqual(unpaged.errorField, "menu")
    }

    func testAtRestOnPageKTheMenuIsTheHorizontalMenuOnPageK() throws {
        try makeBoth()
        for k in 0..<5 {
            let vertical = try XCTUnwrap(try menu("v", at: Double(k) * 500))
            let horizontal = try XCTUnwrap(try menu("h", at: Double(k) * 375))
            XCTAssertEqual(vertical["selected"]?["index"], .integer(Int64(k)), "page \(k)")
            XCTAssertEqual(vertical["selected"]?["id"], .string("p\(k)"))
            XCTAssertEqual(vertical["items"], horizontal["items"], "page \(k): the items, frames along x")
            XCTAssertEqual(vertical["indicator"], horizontal["indicator"], "page \(k)")
            XCTAssertEqual(vertical["contentOffset"], horizontal["contentOffset"], "page \(k)")
            XCTAssertEqual(vertical, horizontal, "page \(k): the whole menu")
            // The selected item is at progress 1, the others at 0.
            for (i, item) in (vertical["items"]?.arrayValue ?? []).enumerated() {
                XCTAssertEqual(item["progress"]?.doubleValue, i == k ? 1 : 0, "page \(k) item \(i)")
            }
        }
        // The stack's own offset: created on page 0; after scrolling to page 3 along y.
        let scrolled = try server.request("POST", "/v1/stacks/v/scroll", json: try j(#"{"offset": {"x": 0, "y": 1500}}"#))
        XCTAssertEqual(scrolled.status, 200, scrolled.text)
        let layout = try server.request("GET", "/v1/stacks/v/layout")
        XCTAssertEqual(layout["menu.selected.id"], "p3")
        XCTAssertEqual(layout["paging.currentPage"], 3)
        XCTAssertEqual(layout["menu"], try menu("h", at: 1125))
    }

    func testHalfWayBetweenPagesTheIndicatorIsBetweenTheItemsAsForHorizontal() throws {
        try makeBoth()
        for k in 0..<4 {
            let vertical = try XCTUnwrap(try menu("v", at: (Double(k) + 0.5) * 500))
            let horizontal = try XCTUnwrap(try menu("h", at: (Double(k) + 0.5) * 375))
            XCTAssertEqual(vertical, horizontal, "half-way from page \(k)")
            XCTAssertEqual(vertical["progress"]?.doubleValue, Double(k) + 0.5)
            let items = try XCTUnwrap(vertical["items"]?.arrayValue)
            let x = try XCTUnwrap(vertical["indicator"]?["x"]?.doubleValue)
            let left = try XCTUnwrap(items[k]["frame"]?["x"]?.doubleValue)
            let right = try XCTUnwrap(items[k + 1]["frame"]?["x"]?.doubleValue)
            XCTAssertGreaterThan(x, left, "half-way from page \(k): past item \(k)")
            XCTAssertLessThan(x, right, "half-way from page \(k): short of item \(k + 1)")
            XCTAssertEqual(items[k]["progress"]?.doubleValue, 0.5)
            XCTAssertEqual(items[k + 1]["progress"]?.doubleValue, 0.5)
        }
        // A quarter of the way along y is a quarter of the way along x.
        XCTAssertEqual(try menu("v", at: 125), try menu("h", at: 93.75))
    }

    func testMenuSelectScrollsTheContentAlongY() throws {
        try makeBoth()
        let selected = try server.request("POST", "/v1/stacks/v/menu/select", json: try j(#"{"row": "p3"}"#))
        XCTAssertEqual(selected.status, 200, selected.text)
        XCTAssertEqual(selected["revision"], 2)
        XCTAssertEqual(selected["events[1].type"], "didScroll")
        XCTAssertEqual(selected["events[1].from"], try j(#"{"x": 0, "y": 0}"#))
        XCTAssertEqual(selected["events[1].to"], try j(#"{"x": 0, "y": 1500}"#))
        XCTAssertEqual(selected["menu.selected.id"], "p3")
        XCTAssertEqual(selected["paging.currentPage"], 3)
        let stack = try server.request("GET", "/v1/stacks/v")
        XCTAssertEqual(stack["offset"], try j(#"{"x": 0, "y": 1500}"#))
        XCTAssertEqual(try server.request("POST", "/v1/stacks/v/menu/select", json: try j(#"{"index": 1}"#))["events[1].to.y"], 500)
        // The menu geometry answered is the horizontal menu's on the same page.
        let horizontal = try server.request("POST", "/v1/stacks/h/menu/select", json: try j(#"{"index": 1}"#))
        XCTAssertEqual(try server.request("GET", "/v1/stacks/v/layout")["menu"], try server.request("GET", "/v1/stacks/h/layout")["menu"])
        XCTAssertEqual(horizontal["events[1].to"], try j(#"{"x": 375, "y": 0}"#))
        // The infinite data source measures the menu's own width, the viewport's, whatever the axis.
        let verticalWindow = try server.request("GET", "/v1/stacks/v/menu/window?around=p2")
        let horizontalWindow = try server.request("GET", "/v1/stacks/h/menu/window?around=p2")
        XCTAssertEqual(verticalWindow.status, 200, verticalWindow.text)
        for member in ["around", "before", "after", "missingBefore", "missingAfter"] {
            XCTAssertEqual(verticalWindow[member], horizontalWindow[member], member)
        }
        // 375 (the width, not the 500 along y) less p1 and p0 at 100 + 6 each; then 375 + 163
        // less p3 and p4.
        XCTAssertEqual(verticalWindow["missingBefore.width"], 163)
        XCTAssertEqual(verticalWindow["missingAfter.width"], 326)
    }
}
