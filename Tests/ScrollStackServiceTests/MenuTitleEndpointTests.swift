import JSONCodec
@testable import ScrollStackService
import XCTest

/// Menu titles measured by the text engine over HTTP: `sizeToFit` and `selfSizing` items as
/// wide as their titles in the menu's `font` (selected: `selectedFont`) plus the label
/// spacing, the font options and their errors.
final class MenuTitleEndpointTests: XCTestCase {
    var server: ServerHarness!

    override func setUpWithError() throws {
        server = try ServerHarness()
        let reply = try server.request("POST", "/v1/stacks", json: try j(CarouselEndpointTests.carousel))
        XCTAssertEqual(reply.status, 201, reply.text)
    }

    override func tearDown() {
        server.stop()
    }

    func j(_ text: String) throws -> JSON { try JSON.parse(Array(text.utf8)) }

    func patch(_ body: String) throws -> Reply {
        try server.request("PATCH", "/v1/stacks/c", json: try j(body))
    }

    let titles = ["One", "Two", "Three", "Four", "Five"]
    let medium = #"{"family": "Inter", "size": 15, "weight": 500}"#
    let bold = #"{"family": "Inter", "size": 15, "weight": "bold"}"#

    /// The widths of `texts` as one-line text rows in `font`, asked of the stateless layout: a
    /// horizontal fit row without insets is as wide as its text.
    func textWidths(_ texts: [String], font: String) throws -> [Double] {
        let rows = texts.enumerated().map { i, text in
            #"{"id": "t\#(i)", "view": {"type": "L"}, "size": "fit", "content": {"text": "\#(text)", "font": \#(font)}}"#
        }
        let reply = try server.request("POST", "/v1/layout", json: try j(
            #"{"axis": "horizontal", "rowInsets": {"top": 0, "left": 0, "bottom": 0, "right": 0}, "rows": [\#(rows.joined(separator: ", "))]}"#))
        XCTAssertEqual(reply.status, 200, reply.text)
        return texts.indices.map { reply["rows[\($0)].frame.width"]?.doubleValue ?? -1 }
    }

    func itemWidths() throws -> [Double] {
        let layout = try server.request("GET", "/v1/stacks/c/layout")
        XCTAssertEqual(layout.status, 200, layout.text)
        return titles.indices.map { layout["menu.items[\($0)].frame.width"]?.doubleValue ?? -1 }
    }

    func testItemsAreAsWideAsTheirMeasuredTitles() throws {
        let normal = try textWidths(titles, font: medium)
        let selected = try textWidths(titles, font: bold)
        XCTAssertTrue(zip(normal, selected).allSatisfy { 0 < $0 && $0 < $1 }, "bold is wider: \(normal) \(selected)")

        // The defaults: Inter 15 medium for both fonts.
        let stack = try server.request("GET", "/v1/stacks/c")
        XCTAssertEqual(stack["menu.font"], try j(#"{"family": "Inter", "size": 15, "weight": 500, "style": "normal"}"#))
        XCTAssertEqual(stack["menu.selectedFont"], stack["menu.font"])

        // selfSizing: title + 2·itemLabelSpacing (20); item 0 is selected, in the bold selectedFont.
        XCTAssertEqual(try patch(#"{"menu": {"itemSize": {"selfSizing": {"height": 40}}, "selectedFont": \#(bold)}}"#).status, 200)
        XCTAssertEqual(try itemWidths(), [selected[0] + 40] + normal[1...].map { $0 + 40 })

        // sizeToFit, items wider than the menu together (label spacing 30): no stretching.
        XCTAssertEqual(try patch(#"{"menu": {"itemSize": {"sizeToFit": {"minWidth": 0}}, "itemLabelSpacing": 30}}"#).status, 200)
        XCTAssertGreaterThan(normal.reduce(0) { $0 + $1 + 60 }, 375)
        XCTAssertEqual(try itemWidths(), [selected[0] + 60] + normal[1...].map { $0 + 60 })

        // sizeToFit, narrower together (no label spacing): each gains an equal share of the rest.
        XCTAssertEqual(try patch(#"{"menu": {"itemLabelSpacing": 0}}"#).status, 200)
        let share = (375 - normal.reduce(0, +)) / 5
        XCTAssertGreaterThan(share, 0)
        for (got, want) in zip(try itemWidths(), [selected[0] + share] + normal[1...].map { $0 + share }) {
            XCTAssertEqual(got, want, accuracy: 1e-9)
        }

        // minWidth still floors a measured title.
        XCTAssertEqual(try patch(#"{"menu": {"itemSize": {"sizeToFit": {"minWidth": 150}}}}"#).status, 200)
        XCTAssertEqual(try itemWidths(), [150, 150, 150, 150, 150])
    }

    func testExplicitWidthsWinAndSelectionMovesTheSelectedWidth() throws {
        let normal = try textWidths(titles, font: medium)
        let selected = try textWidths(titles, font: bold)
        XCTAssertEqual(try patch(#"{"menu": {"itemSize": {"selfSizing": {}}, "selectedFont": \#(bold)}}"#).status, 200)
        XCTAssertEqual(try server.request("PATCH", "/v1/stacks/c/rows/p1", json: try j(#"{"title": {"text": "Two", "width": 90}}"#)).status, 200)
        XCTAssertEqual(try server.request("POST", "/v1/stacks/c/menu/select", json: try j(#"{"row": "p3"}"#)).status, 200)
        // p1 keeps its width; p2's selectedWidth (140) only counts when selected; p3 is selected.
        XCTAssertEqual(try itemWidths(), [normal[0] + 40, 90, normal[2] + 40, selected[3] + 40, normal[4] + 40])
        XCTAssertEqual(try server.request("POST", "/v1/stacks/c/menu/select", json: try j(#"{"row": "p2"}"#)).status, 200)
        XCTAssertEqual(try itemWidths()[2], 140)
    }

    func testStatelessLayoutAndPastRevisionsMeasureTitlesToo() throws {
        XCTAssertEqual(try patch(#"{"menu": {"itemSize": {"selfSizing": {}}, "selectedFont": \#(bold)}}"#).status, 200)
        let measured = try server.request("GET", "/v1/stacks/c/layout")
        XCTAssertEqual(measured["menu.items[0].frame.width"]?.doubleValue, try textWidths(["One"], font: bold)[0] + 40)
        // The stateless layout of the same stack.
        let body = CarouselEndpointTests.carousel.replacingOccurrences(of: #""menu": {"itemSize": {"fixed": {"width": 100, "height": 40}}}"#,
                                                                          with: #""menu": {"itemSize": {"selfSizing": {}}, "selectedFont": \#(bold)}"#)
        XCTAssertNotEqual(body, CarouselEndpointTests.carousel)
        let stateless = try server.request("POST", "/v1/layout", json: try j(body))
        XCTAssertEqual(stateless.status, 200, stateless.text)
        XCTAssertEqual(stateless["menu"], measured["menu"])
        // Revision 2, rebuilt from the journal after a later change, is what it was.
        XCTAssertEqual(try patch(#"{"menu": {"itemLabelSpacing": 5}}"#).status, 200)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/c/layout?revision=2")["menu"], measured["menu"])
        XCTAssertNotEqual(try server.request("GET", "/v1/stacks/c/layout")["menu"], measured["menu"])
    }

    func testTitlesNeedNoWidthWhenCreated() throws {
        let create = try server.request("POST", "/v1/stacks", json: try j(
            #"{"id": "t", "axis": "horizontal", "paging": true, "menu": {"itemSize": {"selfSizing": {}}}, "rows": [{"view": {"type": "P"}, "size": {"fixed": 9}, "title": "Hi"}]}"#))
        XCTAssertEqual(create.status, 201, create.text)
        let layout = try server.request("GET", "/v1/stacks/t/layout")
        XCTAssertEqual(layout["menu.items[0].frame.width"]?.doubleValue, try textWidths(["Hi"], font: medium)[0] + 40)
    }

    /// A title holds at most 1,000 characters, counted as JSON Schema counts them (Unicode
    /// scalars, not bytes): 1,000 two-byte characters are taken, 1,001 are refused wherever a
    /// title is given, naming it, and nothing changes.
    func testTitleTextIsAtMostAThousandCharacters() throws {
        let most = String(repeating: "é", count: 1000), over = String(repeating: "a", count: 1001)
        let taken = try server.request("PATCH", "/v1/stacks/c/rows/p0", json: try j(#"{"title": "\#(most)"}"#))
        XCTAssertEqual(taken.status, 200, taken.text)
        func assertRefused(_ method: String, _ path: String, _ body: String, field: String, line: UInt = #line) throws {
            let reply = try server.request(method, path, json: try j(body))
            XCTAssertEqual(reply.status, 422, reply.text, line: line)
            XCTAssertEqual(reply.errorCode, "invalid_value", reply.text, line: line)
            XCTAssertEqual(reply.errorField, field, reply.text, line: line)
            XCTAssertEqual(reply["error.message"]?.stringValue, "must hold at most 1000 characters, got 1001", line: line)
        }
        try assertRefused("PATCH", "/v1/stacks/c/rows/p1", #"{"title": "\#(over)"}"#, field: "title")
        try assertRefused("PATCH", "/v1/stacks/c/rows/p1", #"{"title": {"text": "\#(over)", "width": 50}}"#, field: "title.text")
        try assertRefused("POST", "/v1/stacks/c/rows", #"{"rows": [{"id": "n", "view": {"type": "P"}, "size": {"fixed": 9}, "title": "\#(over)"}]}"#, field: "rows[0].title")
        try assertRefused("POST", "/v1/layout", #"{"axis": "horizontal", "paging": true, "menu": {}, "rows": [{"view": {"type": "P"}, "size": {"fixed": 9}, "title": "\#(over)"}]}"#, field: "rows[0].title")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/c")["revision"], 2, "no refused title changed anything")
    }

    /// Restores (stored JSON decoded by a scratch service with `ServiceLimits.replay`) take
    /// titles of any length: a title journaled before the limit still comes back.
    func testReplaysTakeTitlesOfAnyLength() throws {
        let replaying = try ServerHarness(service: StackService(limits: .replay))
        defer { replaying.stop() }
        let long = String(repeating: "a", count: 1001)
        let reply = try replaying.request("POST", "/v1/stacks", json: try j(
            #"{"id": "old", "axis": "horizontal", "paging": true, "menu": {}, "rows": [{"view": {"type": "P"}, "size": {"fixed": 9}, "title": "\#(long)"}]}"#))
        XCTAssertEqual(reply.status, 201, reply.text)
        XCTAssertEqual(reply["rows[0].title"]?.stringValue, long)
    }

    func testFontErrorsNameTheField() throws {
        func assertError(_ body: String, _ code: String, _ field: String, _ message: String? = nil, line: UInt = #line) throws {
            let reply = try patch(body)
            XCTAssertEqual(reply.status, 422, reply.text, line: line)
            XCTAssertEqual(reply.errorCode, code, reply.text, line: line)
            XCTAssertEqual(reply.errorField, field, reply.text, line: line)
            if let message { XCTAssertTrue(reply["error.message"]?.stringValue?.contains(message) == true, reply.text, line: line) }
        }
        try assertError(#"{"menu": {"font": {"family": "Nope", "size": 15}}}"#, "invalid_value", "menu.font.family", #"available: "#)
        try assertError(#"{"menu": {"selectedFont": {"family": "Nope", "size": 15}}}"#, "invalid_value", "menu.selectedFont.family", #""Inter""#)
        try assertError(#"{"menu": {"font": {"family": "Inter", "size": 0}}}"#, "invalid_value", "menu.font.size")
        try assertError(#"{"menu": {"selectedFont": {"family": "Inter", "size": 15, "weight": 1001}}}"#, "invalid_value", "menu.selectedFont.weight")
        try assertError(#"{"menu": {"font": {"family": "Inter", "size": 15, "style": "slanted"}}}"#, "invalid_value", "menu.font.style")
        try assertError(#"{"menu": {"font": {"family": "Inter", "size": 15, "colour": 1}}}"#, "unknown_field", "menu.font.colour")
        try assertError(#"{"menu": {"font": "Inter"}}"#, "wrong_type", "menu.font")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/c")["revision"], 1, "no error changed anything")
    }
}
