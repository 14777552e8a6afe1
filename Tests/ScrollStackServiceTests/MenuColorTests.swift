import Jansson
import XCTest

/// The paging menu's colours (Parchment's `PagingOptions`: `textColor`, `selectedTextColor`,
/// `backgroundColor`, `selectedBackgroundColor`, `menuBackgroundColor`, `indicatorColor`,
/// `borderColor`): stored with the settings, answered per item in layouts with the title and
/// background colours interpolated component-wise (RGBA) by each item's progress, as
/// Parchment's `PagingTitleCell` does with `UIColor.interpolate`, drawn in pictures, and
/// refused precisely.
final class MenuColorTests: XCTestCase {
    var server: ServerHarness!

    override func setUpWithError() throws { server = try ServerHarness() }
    override func tearDown() { server.stop() }

    func j(_ text: String) throws -> JSON { try JSON.parse(Array(text.utf8)) }

    /// Five 375-point pages under a menu of fixed 100-point items.
    func create(_ menu: String) throws -> Reply {
        let rows = ["One", "Two", "Three", "Four", "Five"].enumerated().map { k, title in
            #"{"id": "p\#(k)", "view": {"type": "Page"}, "size": {"fixed": 375}, "title": "\#(title)"}"#
        }.joined(separator: ", ")
        return try server.request("POST", "/v1/stacks", json: try j("""
            {"id": "c", "axis": "horizontal", "viewport": {"width": 375, "height": 500},
             "rowInsets": {"top": 0, "left": 0, "bottom": 0, "right": 0}, "paging": true,
             "menu": \(menu), "rows": [\(rows)]}
            """))
    }

    func testDefaultsAreParchments() throws {
        let created = try create(#"{"itemSize": {"fixed": {"width": 100, "height": 40}}}"#)
        XCTAssertEqual(created.status, 201, created.text)
        // Parchment: black text; selected text and indicator red 3, green 125, blue 233 (#037DE9);
        // clear item backgrounds; a white menu; a border of white 0.9 (229.5 of 255, rounded to E6).
        let expected: [(String, String)] = [
            ("textColor", "#000000FF"), ("selectedTextColor", "#037DE9FF"), ("backgroundColor", "#00000000"),
            ("selectedBackgroundColor", "#00000000"), ("menuBackgroundColor", "#FFFFFFFF"),
            ("indicatorColor", "#037DE9FF"), ("borderColor", "#E6E6E6FF"),
        ]
        for (name, color) in expected { XCTAssertEqual(created["menu.\(name)"]?.stringValue, color, name) }
        let layout = try server.request("GET", "/v1/stacks/c/layout")
        XCTAssertEqual(layout["menu.items[0].textColor"]?.stringValue, "#037DE9FF", "page 0's item is selected")
        XCTAssertEqual(layout["menu.items[1].textColor"]?.stringValue, "#000000FF")
        XCTAssertEqual(layout["menu.indicatorColor"]?.stringValue, "#037DE9FF")
        XCTAssertEqual(layout["menu.borderColor"]?.stringValue, "#E6E6E6FF")
        XCTAssertEqual(layout["menu.menuBackgroundColor"]?.stringValue, "#FFFFFFFF")
    }

    /// At offset 468.75 the progress is 1.25: item 1 is current (progress 1 − 0.25 = 0.75)
    /// and item 2 upcoming (0.25). Each component moves linearly by the progress and is
    /// rounded to the nearest 255th: from #000000 to #FF8040, 0.75 gives (191.25, 96, 48) =
    /// #BF6030 and 0.25 gives (63.75, 32, 16) = #402010; an alpha from 00 to FF gives BF and 40.
    func testTitleAndBackgroundColoursFollowTheProgress() throws {
        let created = try create(##"""
            {"itemSize": {"fixed": {"width": 100, "height": 40}}, "textColor": "#000000", "selectedTextColor": "#ff8040",
             "backgroundColor": "#FFFFFF00", "selectedBackgroundColor": "#FFFFFFFF",
             "menuBackgroundColor": "#F2F2F7", "indicatorColor": "#FF0000", "borderColor": "#00000033"}
            """##)
        XCTAssertEqual(created.status, 201, created.text)
        XCTAssertEqual(created["menu.selectedTextColor"]?.stringValue, "#FF8040FF", "written #RRGGBBAA in capitals")
        let layout = try server.request("GET", "/v1/stacks/c/layout?offset=468.75")
        XCTAssertEqual(layout.status, 200, layout.text)
        XCTAssertEqual(layout["menu.progress"]?.doubleValue, 1.25)
        let text = (0..<5).map { layout["menu.items[\($0)].textColor"]?.stringValue }
        XCTAssertEqual(text, ["#000000FF", "#BF6030FF", "#402010FF", "#000000FF", "#000000FF"])
        let background = (0..<5).map { layout["menu.items[\($0)].backgroundColor"]?.stringValue }
        XCTAssertEqual(background, ["#FFFFFF00", "#FFFFFFBF", "#FFFFFF40", "#FFFFFF00", "#FFFFFF00"])
        XCTAssertEqual((0..<5).map { layout["menu.items[\($0)].progress"]?.doubleValue }, [0, 0.75, 0.25, 0, 0])
        XCTAssertEqual(layout["menu.menuBackgroundColor"]?.stringValue, "#F2F2F7FF")
        XCTAssertEqual(layout["menu.indicatorColor"]?.stringValue, "#FF0000FF")
        XCTAssertEqual(layout["menu.borderColor"]?.stringValue, "#00000033")

        // Scrolling back past the first page: item 0 is current at 1 − 0.5 and fades.
        let before = try server.request("GET", "/v1/stacks/c/layout?offset=-187.5")
        XCTAssertEqual(before["menu.items[0].textColor"]?.stringValue, "#804020FF", "(127.5, 64, 32) rounded half up")

        // A PATCH merges one colour; a hidden indicator has no colour.
        XCTAssertEqual(try server.request("PATCH", "/v1/stacks/c", json: try j(##"{"menu": {"textColor": "#0000FF", "indicator": "hidden"}}"##)).status, 200)
        let patched = try server.request("GET", "/v1/stacks/c/layout?offset=375")
        XCTAssertEqual(patched["menu.items[0].textColor"]?.stringValue, "#0000FFFF")
        XCTAssertEqual(patched["menu.items[1].textColor"]?.stringValue, "#FF8040FF")
        XCTAssertEqual(patched["menu.indicatorColor"], .null)
    }

    func testPictureDrawsTheMenuInItsColours() throws {
        XCTAssertEqual(try create(##"""
            {"itemSize": {"fixed": {"width": 100, "height": 40}}, "textColor": "#000000", "selectedTextColor": "#FF8040",
             "menuBackgroundColor": "#F2F2F7", "indicatorColor": "#FF000080"}
            """##).status, 201)
        let svg = try server.request("GET", "/v1/stacks/c/layout.svg?offset=468.75")
        XCTAssertEqual(svg.status, 200)
        let text = svg.text
        XCTAssertTrue(text.contains(##"<g class="menu""##), text)
        XCTAssertTrue(text.contains(##"class="menu-background""##) && text.contains(##"fill="#F2F2F7" fill-opacity="1""##), text)
        XCTAssertTrue(text.contains(##"fill="#BF6030" fill-opacity="1">Two</text>"##), text)
        XCTAssertTrue(text.contains(##"fill="#402010" fill-opacity="1">Three</text>"##), text)
        XCTAssertTrue(text.contains(##"class="menu-indicator""##) && text.contains(##"fill="#FF0000" fill-opacity="0.502""##), text)
    }

    func testBadColoursNameTheField() throws {
        for name in ["textColor", "selectedTextColor", "backgroundColor", "selectedBackgroundColor", "menuBackgroundColor", "indicatorColor", "borderColor"] {
            let bad = try create(#"{"\#(name)": "blue"}"#)
            XCTAssertEqual(bad.status, 422, bad.text)
            XCTAssertEqual(bad.errorField, "menu.\(name)")
            let wrong = try create(#"{"\#(name)": 3}"#)
            XCTAssertEqual(wrong.status, 422, wrong.text)
            XCTAssertEqual(wrong.errorField, "menu.\(name)")
        }
    }
}
