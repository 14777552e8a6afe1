import Jansson
import XCTest

/// The menu's transition (Parchment's `menuTransition`): `scrollAlongside` moves the menu's
/// offset, indicator and colours with the pages' progress; `animateAfter` leaves the menu
/// as it is for the page the stack stands at until the stack settles on another page.
final class MenuTransitionTests: XCTestCase {
    var server: ServerHarness!

    override func setUpWithError() throws { server = try ServerHarness() }
    override func tearDown() { server.stop() }

    func j(_ text: String) throws -> JSON { try JSON.parse(Array(text.utf8)) }

    /// Five 375-point pages under a menu of fixed 100-point items (content 500 wide, so the
    /// menu's offset runs 0…125), preferCentered, with the default indicator (insets 8).
    func create(_ transition: String) throws -> Reply {
        let rows = (0..<5).map { #"{"id": "p\#($0)", "view": {"type": "Page"}, "size": {"fixed": 375}, "title": "T\#($0)"}"# }.joined(separator: ", ")
        return try server.request("POST", "/v1/stacks", json: try j("""
            {"id": "c", "axis": "horizontal", "viewport": {"width": 375, "height": 500},
             "rowInsets": {"top": 0, "left": 0, "bottom": 0, "right": 0}, "paging": true, "offset": {"x": 750, "y": 0},
             "menu": {"itemSize": {"fixed": {"width": 100, "height": 40}}, "menuTransition": \(transition),
                      "textColor": "#000000", "selectedTextColor": "#FF8040"},
             "rows": [\(rows)]}
            """))
    }

    /// Selecting item k centres it: 100k + 50 − 187.5, clamped to 0…125. Item 2: 62.5;
    /// item 3: 162.5, clamped to 125.
    func testScrollAlongsideFollowsTheProgress() throws {
        let created = try create(#""scrollAlongside""#)
        XCTAssertEqual(created.status, 201, created.text)
        XCTAssertEqual(created["menu.menuTransition"]?.stringValue, "scrollAlongside")
        // Offset 843.75: progress 2.25, a quarter of the way from item 2 to item 3.
        let layout = try server.request("GET", "/v1/stacks/c/layout?offset=843.75")
        XCTAssertEqual(layout["menu.progress"]?.doubleValue, 2.25)
        XCTAssertEqual(layout["menu.contentOffset.x"]?.doubleValue, 62.5 + 0.25 * (125 - 62.5))
        XCTAssertEqual(layout["menu.indicator.x"]?.doubleValue, 225)
        XCTAssertEqual(layout["menu.items[3].textColor"]?.stringValue, "#402010FF")
    }

    func testAnimateAfterWaitsForTheStackToSettle() throws {
        let created = try create(#""animateAfter""#)
        XCTAssertEqual(created.status, 201, created.text)
        XCTAssertEqual(created["menu.menuTransition"]?.stringValue, "animateAfter")
        // The stack stands at page 2; laid out part-way to page 3, the pages move but the menu
        // stays as it is with item 2 selected: offset 62.5, indicator on item 2, no colour mix.
        let layout = try server.request("GET", "/v1/stacks/c/layout?offset=843.75")
        XCTAssertEqual(layout.status, 200, layout.text)
        XCTAssertEqual(layout["paging.progress"]?.doubleValue, 2.25)
        XCTAssertEqual(layout["menu.progress"]?.doubleValue, 2)
        XCTAssertEqual(layout["menu.contentOffset.x"]?.doubleValue, 62.5)
        XCTAssertEqual(layout["menu.indicator.x"]?.doubleValue, 200)
        XCTAssertEqual(layout["menu.indicator.width"]?.doubleValue, 100)
        XCTAssertEqual(layout["menu.selected.index"], 2)
        XCTAssertEqual(layout["menu.items[2].textColor"]?.stringValue, "#FF8040FF")
        XCTAssertEqual(layout["menu.items[3].textColor"]?.stringValue, "#000000FF")

        // Once the stack settles on page 3 the menu is at item 3: offset 125, indicator x 300.
        XCTAssertEqual(try server.request("PATCH", "/v1/stacks/c", json: try j(#"{"offset": {"x": 1125, "y": 0}}"#)).status, 200)
        let settled = try server.request("GET", "/v1/stacks/c/layout")
        XCTAssertEqual(settled["menu.progress"]?.doubleValue, 3)
        XCTAssertEqual(settled["menu.contentOffset.x"]?.doubleValue, 125)
        XCTAssertEqual(settled["menu.indicator.x"]?.doubleValue, 300)
        XCTAssertEqual(settled["menu.selected.index"], 3)

        // Selecting an item through the menu scrolls the stack there, and the menu with it.
        let selected = try server.request("POST", "/v1/stacks/c/menu/select", json: try j(#"{"index": 1}"#))
        XCTAssertEqual(selected.status, 200, selected.text)
        XCTAssertEqual(selected["menu.selected.index"], 1)
        XCTAssertEqual(selected["menu.contentOffset.x"]?.doubleValue, 0)
    }

    func testBadTransitionNamesTheField() throws {
        let bad = try create(#""fade""#)
        XCTAssertEqual(bad.status, 422, bad.text)
        XCTAssertEqual(bad.errorField, "menu.menuTransition")
        XCTAssertTrue(bad.text.contains("scrollAlongside"), bad.text)
        let wrong = try create("true")
        XCTAssertEqual(wrong.status, 422, wrong.text)
        XCTAssertEqual(wrong.errorField, "menu.menuTransition")
    }
}
