import Jansson
import XCTest

/// A paging menu over vertically paged content: Parchment's menu is always a horizontal
/// collection view, so the menu stays a horizontal strip above (or below) the viewport
/// while its progress comes from the vertical offset.
final class VerticalMenuTests: XCTestCase {
    var server: ServerHarness!

    override func setUpWithError() throws { server = try ServerHarness() }
    override func tearDown() { server.stop() }

    func j(_ text: String) throws -> JSON { try JSON.parse(Array(text.utf8)) }

    /// Five 500-point pages stacked vertically in a 375×500 viewport, with a menu of fixed
    /// 100-point items (content 500 wide, offset 0…125, preferCentered).
    func create(_ position: String = "top") throws -> Reply {
        let rows = (0..<5).map { #"{"id": "p\#($0)", "view": {"type": "Page"}, "size": {"fixed": 500}, "title": "T\#($0)"}"# }.joined(separator: ", ")
        return try server.request("POST", "/v1/stacks", json: try j("""
            {"id": "v", "axis": "vertical", "viewport": {"width": 375, "height": 500},
             "rowInsets": {"top": 0, "left": 0, "bottom": 0, "right": 0}, "paging": true,
             "menu": {"itemSize": {"fixed": {"width": 100, "height": 40}}, "position": "\(position)"}, "rows": [\(rows)]}
            """))
    }

    /// At y 625 the progress is 1.25: the menu's offset is a quarter of the way from item 1's
    /// (150 − 187.5, clamped to 0) to item 2's (250 − 187.5 = 62.5), and the indicator a
    /// quarter of the way from x 100 to x 200, on the menu's bottom edge (40 − 4).
    func testProgressComesFromTheVerticalOffset() throws {
        let created = try create()
        XCTAssertEqual(created.status, 201, created.text)
        let layout = try server.request("GET", "/v1/stacks/v/layout?offset=0,625")
        XCTAssertEqual(layout.status, 200, layout.text)
        XCTAssertEqual(layout["paging.progress"]?.doubleValue, 1.25)
        XCTAssertEqual(layout["menu.progress"]?.doubleValue, 1.25)
        XCTAssertEqual(layout["menu.frame"], try j(#"{"x": 0, "y": -40, "width": 375, "height": 40}"#))
        XCTAssertEqual(layout["menu.contentSize"], try j(#"{"width": 500, "height": 40}"#))
        XCTAssertEqual(layout["menu.contentOffset"], try j(#"{"x": 15.625, "y": 0}"#))
        XCTAssertEqual(layout["menu.indicator"], try j(#"{"x": 125, "y": 36, "width": 100, "height": 4}"#))
        XCTAssertEqual(layout["menu.items[2].frame"], try j(#"{"x": 200, "y": 0, "width": 100, "height": 40}"#), "items stay in a row")
        XCTAssertEqual(layout["menu.selected.index"], 1)
    }

    func testBottomMenuSelectAndPicture() throws {
        XCTAssertEqual(try create("bottom").status, 201)
        let layout = try server.request("GET", "/v1/stacks/v/layout")
        XCTAssertEqual(layout["menu.frame"], try j(#"{"x": 0, "y": 500, "width": 375, "height": 40}"#))
        // A bottom menu's indicator is on its top edge (Parchment: insets.bottom, 0).
        XCTAssertEqual(layout["menu.indicator.y"]?.doubleValue, 0)
        // Selecting item 3 scrolls the stack down to page 3 (y 1500).
        let selected = try server.request("POST", "/v1/stacks/v/menu/select", json: try j(#"{"index": 3}"#))
        XCTAssertEqual(selected.status, 200, selected.text)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/v")["offset"], try j(#"{"x": 0, "y": 1500}"#))
        XCTAssertEqual(selected["menu.selected.index"], 3)
        let svg = try server.request("GET", "/v1/stacks/v/layout.svg")
        XCTAssertTrue(svg.text.contains(##"<g class="menu""##), svg.text)
        XCTAssertTrue(svg.text.contains(##"<g class="menu-item" data-id="p3">"##), svg.text)
    }

    func testAxisChangesKeepTheMenu() throws {
        XCTAssertEqual(try create().status, 201)
        let patched = try server.request("PATCH", "/v1/stacks/v", json: try j(#"{"axis": "horizontal"}"#))
        XCTAssertEqual(patched.status, 200, patched.text)
        XCTAssertEqual(try server.request("PATCH", "/v1/stacks/v", json: try j(#"{"axis": "vertical"}"#)).status, 200)
        XCTAssertNotNil(try server.request("GET", "/v1/stacks/v")["menu"]?.objectValue)
    }
}
