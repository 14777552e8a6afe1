import Foundation
import JSONCodec
import XCTest

/// The page control's dot tints (UIPageControl's `pageIndicatorTintColor` and
/// `currentPageIndicatorTintColor`, as the page-indicator article's demo sets them): stored
/// with the settings, answered per dot in layouts, drawn in pictures, refused precisely.
final class PageIndicatorTintTests: XCTestCase {
    var server: ServerHarness!

    override func setUpWithError() throws { server = try ServerHarness() }
    override func tearDown() { server.stop() }

    func j(_ text: String) throws -> JSON { try JSON.parse(Array(text.utf8)) }

    func create(_ indicator: String) throws -> Reply {
        let rows = (0..<4).map { #"{"id": "p\#($0)", "view": {"type": "Page"}, "size": {"fixed": 375}}"# }.joined(separator: ", ")
        return try server.request("POST", "/v1/stacks", json: try j("""
            {"id": "c", "axis": "horizontal", "viewport": {"width": 375, "height": 500},
             "rowInsets": {"top": 0, "left": 0, "bottom": 0, "right": 0}, "paging": true,
             "pageIndicator": \(indicator), "rows": [\(rows)]}
            """))
    }

    func testDefaultsAreUIKitsWhites() throws {
        let created = try create("true")
        XCTAssertEqual(created.status, 201, created.text)
        XCTAssertEqual(created["pageIndicator.pageIndicatorTintColor"]?.stringValue, "#FFFFFF4D")
        XCTAssertEqual(created["pageIndicator.currentPageIndicatorTintColor"]?.stringValue, "#FFFFFFFF")
    }

    /// Four 7-point dots 9 apart: 4·7 + 3·9 = 55 wide, centred in 375 (x 160), in a 37-point
    /// control at the bottom (y 463); each dot centred in the control's height (y 463 + 15).
    func testLayoutAnswersEachDotWithItsTint() throws {
        XCTAssertEqual(try create(##"{"pageIndicatorTintColor": "#c7c7cc", "currentPageIndicatorTintColor": "#FF3B30"}"##).status, 201)
        let stack = try server.request("GET", "/v1/stacks/c")
        XCTAssertEqual(stack["pageIndicator.pageIndicatorTintColor"]?.stringValue, "#C7C7CCFF", "written #RRGGBBAA in capitals")
        let layout = try server.request("GET", "/v1/stacks/c/layout?offset=750")
        let dots = try XCTUnwrap(layout["pageIndicator.dots"]?.arrayValue, layout.text)
        XCTAssertEqual(dots.count, 4)
        for (k, dot) in dots.enumerated() {
            XCTAssertEqual(dot["frame"]?["x"]?.doubleValue, 160 + Double(k) * 16)
            XCTAssertEqual(dot["frame"]?["y"]?.doubleValue, 478)
            XCTAssertEqual(dot["frame"]?["width"]?.doubleValue, 7)
            XCTAssertEqual(dot["color"]?.stringValue, k == 2 ? "#FF3B30FF" : "#C7C7CCFF", "page 2 is current")
        }
        // A PATCH merges one tint.
        XCTAssertEqual(try server.request("PATCH", "/v1/stacks/c", json: try j(##"{"pageIndicator": {"currentPageIndicatorTintColor": "#00000080"}}"##)).status, 200)
        let patched = try server.request("GET", "/v1/stacks/c/layout?offset=0")
        XCTAssertEqual(patched["pageIndicator.dots[0].color"]?.stringValue, "#00000080")
        XCTAssertEqual(patched["pageIndicator.dots[1].color"]?.stringValue, "#C7C7CCFF")
    }

    func testPictureDrawsTheDotsInTheirTints() throws {
        XCTAssertEqual(try create(##"{"pageIndicatorTintColor": "#C7C7CC", "currentPageIndicatorTintColor": "#FF3B3080"}"##).status, 201)
        let svg = try server.request("GET", "/v1/stacks/c/layout.svg?offset=375")
        XCTAssertEqual(svg.status, 200)
        let text = svg.text
        XCTAssertTrue(text.contains(##"<g class="page-indicator" data-current-page="1">"##), text)
        // Page 1's dot: centre (375 + 176 + 3.5, 463 + 18.5), in the current tint at alpha 0x80/255 (to 3 decimals).
        XCTAssertTrue(text.contains(##"<circle class="dot current" cx="554.5" cy="481.5" r="3.5" fill="#FF3B30" fill-opacity="0.502"##), text)
        XCTAssertEqual(text.components(separatedBy: ##"<circle class="dot" "##).count - 1, 3)
        XCTAssertTrue(text.contains(##"fill="#C7C7CC" fill-opacity="1""##), text)
    }

    func testBadTintsNameTheField() throws {
        let bad = try create(##"{"pageIndicatorTintColor": "red"}"##)
        XCTAssertEqual(bad.status, 422, bad.text)
        XCTAssertEqual(bad.errorField, "pageIndicator.pageIndicatorTintColor")
        let wrong = try create(##"{"currentPageIndicatorTintColor": 3}"##)
        XCTAssertEqual(wrong.status, 422, wrong.text)
        XCTAssertEqual(wrong.errorField, "pageIndicator.currentPageIndicatorTintColor")
    }
}
