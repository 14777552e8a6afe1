import Foundation
import JSONCodec
import ScrollStackService
import XCTest

/// `GET /v1/stacks/{stack}/diff`, `diff.svg` and `diff.png` over HTTP: a stack changed by an
/// insert, a remove, a move and a resize between two revisions; the JSON lists exactly those
/// rows, and both pictures mark the same rows.
final class LayoutDiffTests: XCTestCase {
    /// Revision 1: a b c d e (44 pt each, 200 pt wide). Then: remove b (2), insert x at
    /// index 1 (3), move e to index 3 (4), c to 80 pt (5). From 1 to 5: x inserted, b
    /// removed, e (4 → 3) and d (3 → 4) moved, c resized; a, and x against b's index, keep theirs.
    func changedStack(_ server: ServerHarness) throws {
        let create = object(("id", .string("d")), ("viewport", object(("width", .number(200)), ("height", .number(400)))),
                            ("rows", .array(["a", "b", "c", "d", "e"].map { row($0) })))
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: create).status, 201)
        XCTAssertEqual(try server.request("DELETE", "/v1/stacks/d/rows/b").status, 200)
        let insert = object(("rows", .array([row("x")])), ("at", object(("index", .integer(1)))))
        XCTAssertEqual(try server.request("POST", "/v1/stacks/d/rows", json: insert).status, 200)
        XCTAssertEqual(try server.request("POST", "/v1/stacks/d/rows/e/move", json: object(("to", .integer(3)))).status, 200)
        let resize = try server.request("PATCH", "/v1/stacks/d/rows/c", json: object(("size", object(("fixed", .number(80))))))
        XCTAssertEqual(resize.status, 200, resize.text)
    }

    func testJSONListsExactlyTheChangedRows() throws {
        let server = try ServerHarness()
        defer { server.stop() }
        try changedStack(server)
        let diff = try server.request("GET", "/v1/stacks/d/diff?from=1")
        XCTAssertEqual(diff.status, 200, diff.text)
        XCTAssertEqual(diff["from"]?.int64Value, 1)
        XCTAssertEqual(diff["to"]?.int64Value, 5, "to defaults to the current revision")
        XCTAssertEqual(diff["inserted"]?.arrayValue?.compactMap(\.stringValue), ["x"])
        XCTAssertEqual(diff["removed"]?.arrayValue?.compactMap(\.stringValue), ["b"])
        let moved = try XCTUnwrap(diff["moved"]?.arrayValue).map { "\($0["id"]?.stringValue ?? "?") \($0["from"]?.int64Value ?? -1)→\($0["to"]?.int64Value ?? -1)" }
        XCTAssertEqual(moved, ["e 4→3", "d 3→4"])
        XCTAssertEqual(diff["resized"]?.arrayValue?.count, 1)
        XCTAssertEqual(diff["resized[0].id"]?.stringValue, "c")
        for (side, revision) in [("before", 1), ("after", 5)] {
            let layout = try server.request("GET", "/v1/stacks/d/layout?revision=\(revision)")
            let index = 2
            XCTAssertEqual(layout["rows[\(index)].id"]?.stringValue, "c")
            for member in ["x", "y", "width", "height"] {
                XCTAssertEqual(diff["resized[0].\(side).\(member)"]?.doubleValue, layout["rows[\(index)].frame.\(member)"]?.doubleValue, "\(side).\(member)")
            }
        }
        XCTAssertGreaterThan(try XCTUnwrap(diff["resized[0].after.height"]?.doubleValue), try XCTUnwrap(diff["resized[0].before.height"]?.doubleValue))
        // Backwards, the same changes the other way round; a revision against itself, none.
        let back = try server.request("GET", "/v1/stacks/d/diff?from=5&to=1")
        XCTAssertEqual(back["inserted"]?.arrayValue?.compactMap(\.stringValue), ["b"])
        XCTAssertEqual(back["removed"]?.arrayValue?.compactMap(\.stringValue), ["x"])
        let same = try server.request("GET", "/v1/stacks/d/diff?from=3&to=3")
        XCTAssertEqual(same.status, 200, same.text)
        for key in ["inserted", "removed", "moved", "resized"] { XCTAssertEqual(same[key]?.arrayValue?.count, 0, key) }
    }

    func testBadRevisionsAreNamed() throws {
        let server = try ServerHarness()
        defer { server.stop() }
        try changedStack(server)
        for (path, status, field) in [("diff?from=9", 404, "from"), ("diff?from=1&to=0", 404, "to"), ("diff.svg?from=0", 404, "from"),
                                      ("diff.png?from=1&to=6", 404, "to"), ("diff?from=x", 400, "from"), ("diff", 400, "from"),
                                      ("diff?from=1&to=1.5", 400, "to"), ("diff.svg?from=1&scale=2", 400, "scale"),
                                      ("diff.png?from=1&scale=4", 400, "scale")] {
            let refused = try server.request("GET", "/v1/stacks/d/\(path)")
            XCTAssertEqual(refused.status, status, "\(path): \(refused.text)")
            XCTAssertEqual(refused.errorField, field, path)
            XCTAssertNotNil(refused.errorCode, path)
        }
        XCTAssertEqual(try server.request("GET", "/v1/stacks/nope/diff?from=1").errorCode, "stack_not_found")
    }

    /// The `<g …>` start tag of the row `id` in panel `panel` (0 before, 1 after).
    func rowTag(_ svg: String, panel: Int, id: String) throws -> String {
        let panels = svg.components(separatedBy: "data-panel=\"")
        XCTAssertEqual(panels.count, 3, "two panels")
        let part = panels[panel + 1]
        let start = try XCTUnwrap(part.range(of: "data-id=\"\(id)\""), "row \(id) in panel \(panel)")
        let open = try XCTUnwrap(part[..<start.lowerBound].range(of: "<g", options: .backwards))
        let close = try XCTUnwrap(part[start.upperBound...].firstIndex(of: ">"))
        return String(part[open.lowerBound..<close])
    }

    func testSVGMarksTheRowsTheJSONLists() throws {
        let server = try ServerHarness()
        defer { server.stop() }
        try changedStack(server)
        let reply = try server.request("GET", "/v1/stacks/d/diff.svg?from=1&to=5")
        XCTAssertEqual(reply.status, 200, reply.text)
        XCTAssertEqual(reply.header("Content-Type"), "image/svg+xml; charset=utf-8")
        let svg = reply.text
        XCTAssertTrue(try rowTag(svg, panel: 1, id: "x").contains("data-change=\"inserted\""))
        XCTAssertTrue(try rowTag(svg, panel: 0, id: "b").contains("data-change=\"removed\""))
        for panel in [0, 1] {
            XCTAssertTrue(try rowTag(svg, panel: panel, id: "c").contains("data-change=\"resized\""), "c in \(panel)")
            XCTAssertTrue(try rowTag(svg, panel: panel, id: "d").contains("data-change=\"moved\""), "d in \(panel)")
            XCTAssertTrue(try rowTag(svg, panel: panel, id: "e").contains("data-change=\"moved\""), "e in \(panel)")
            XCTAssertFalse(try rowTag(svg, panel: panel, id: "a").contains("data-change"), "a is unchanged")
        }
        for change in ["inserted", "removed", "moved", "resized"] {
            XCTAssertTrue(svg.contains("class=\"legend-swatch\" data-change=\"\(change)\""), "the legend names \(change)")
        }
        // As many outlines as the JSON lists changes (moved and resized rows in both panels).
        let outlines = svg.components(separatedBy: "class=\"change\"").count - 1
        XCTAssertEqual(outlines, 1 + 1 + 2 * 2 + 1 * 2)
    }

    func testPNGOutlinesTheInsertedRowInGreen() throws {
        let server = try ServerHarness()
        defer { server.stop() }
        try changedStack(server)
        let reply = try server.request("GET", "/v1/stacks/d/diff.png?from=1")
        XCTAssertEqual(reply.status, 200, reply.text)
        XCTAssertEqual(reply.header("Content-Type"), "image/png")
        let png = try PNGImage(reply.body)
        // Panel 0 shows the 200 × 400 viewport (over the content): panel 1 starts 200 + 2 × 16 + 32 pt right.
        let panels = [16.0, 16.0 + 200 + 64]
        let top = 40.0
        let after = try server.request("GET", "/v1/stacks/d/layout")
        XCTAssertEqual(after["rows[1].id"]?.stringValue, "x")
        let x = (try XCTUnwrap(after["rows[1].frame.x"]?.doubleValue), try XCTUnwrap(after["rows[1].frame.y"]?.doubleValue),
                 try XCTUnwrap(after["rows[1].frame.width"]?.doubleValue))
        func pixel(_ panel: Int, _ px: Double, _ py: Double) -> (Int, Int, Int) { png.rgb(Int(panels[panel] + px), Int(top + py)) }
        // The middle of the top edge, inside the 3 pt outline.
        XCTAssertTrue(pixel(1, x.0 + x.2 / 2, x.1 + 1.5) == (0, 200, 0), "x is outlined in green: \(pixel(1, x.0 + x.2 / 2, x.1 + 1.5))")
        XCTAssertTrue(pixel(0, x.0 + x.2 / 2, x.1 + 1.5) == (224, 0, 0), "b, there before, in red: \(pixel(0, x.0 + x.2 / 2, x.1 + 1.5))")
        XCTAssertFalse(pixel(1, x.0 + x.2 / 2, 1.5) == (0, 200, 0), "a, unchanged, is not outlined")
        let doubled = try PNGImage(try server.request("GET", "/v1/stacks/d/diff.png?from=1&scale=2").body)
        XCTAssertEqual(doubled.width, 2 * png.width)
    }
}
