import Foundation
import JSONCodec
@testable import ScrollStackService
import ScrollStackStore
import XCTest

/// A stack whose content is longer across than its viewport (`crossLength`): it scrolls and
/// pages along both axes, as CustomPageableCollectionView pages both axes of a collection
/// view with one paging configuration.
final class CustomPageableBothAxesTests: XCTestCase {
    var server: ServerHarness!

    override func setUpWithError() throws { server = try ServerHarness() }
    override func tearDown() { server.stop() }

    func j(_ text: String) throws -> JSON { try JSON.parse(Array(text.utf8)) }

    /// grid: vertical, 375 × 600, rows 1125 wide (three pages across), three 600-pt rows
    /// (three pages along), full-page paging.
    func makeGrid(alignment: String = "leading", extra: String = "") throws {
        let rows = (1...3).map { #"{"id": "r\#($0)", "view": {"type": "PhotoRow"}, "size": {"fixed": 600}}"# }.joined(separator: ", ")
        let reply = try server.request("POST", "/v1/stacks", json: try j("""
            {"id": "grid", "viewport": {"width": 375, "height": 600}, "crossLength": 1125,
             "rowInsets": {"top": 0, "left": 0, "bottom": 0, "right": 0}\(extra),
             "paging": {"size": {"fraction": 1}, "alignment": "\(alignment)"}, "rows": [\(rows)]}
            """))
        XCTAssertEqual(reply.status, 201, reply.text)
    }

    func settle(_ body: String, stack: String = "grid") throws -> Reply {
        try server.request("POST", "/v1/stacks/\(stack)/scroll/settle", json: try j(body))
    }

    func testRowsSpanTheCrossLengthAndAreSeenThroughTheViewportAcross() throws {
        try makeGrid()
        let model = try server.request("GET", "/v1/stacks/grid")
        XCTAssertEqual(model["crossLength"], 1125)
        let layout = try server.request("GET", "/v1/stacks/grid/layout?offset=375,0")
        XCTAssertEqual(layout["contentSize"], object(("width", 1125), ("height", 1800)))
        XCTAssertEqual(layout["rows[0].frame"], object(("x", 0), ("y", 0), ("width", 1125), ("height", 600)))
        // A third of the row's width shows: never entire, however far it scrolls across.
        XCTAssertEqual(layout["rows[0].visibility"], "partial")
        XCTAssertEqual(layout["rows[0].visibleFraction"]?.doubleValue ?? 0, 1.0 / 3.0, accuracy: 1e-6)
        XCTAssertEqual(layout["entirelyVisibleRows"], [])
        XCTAssertEqual(layout["crossPaging"], object(("pageSize", 375), ("pageCount", 3), ("currentPage", 1), ("progress", 1)))
        XCTAssertEqual(layout["paging"], object(("pageSize", 600), ("pageCount", 3), ("currentPage", 0), ("progress", 0)))
        // Half way between the second and the third page across.
        let between = try server.request("GET", "/v1/stacks/grid/layout?offset=562.5,0&window=visible")
        XCTAssertEqual(between["crossPaging.progress"]?.doubleValue ?? 0, 1.5, accuracy: 1e-9)
        // A hit test finds the row wherever across the point falls in the content.
        XCTAssertEqual(try server.request("POST", "/v1/stacks/grid/scroll", json: try j(#"{"offset": {"x": 750, "y": 0}}"#)).status, 200)
        let hit = try server.request("GET", "/v1/stacks/grid/hit?x=300&y=10")
        XCTAssertEqual(hit["row.id"], "r1", hit.text)
        // A stack without crossLength answers no crossPaging, and its rows span the viewport.
        let plain = try server.request("POST", "/v1/stacks", json: try j(#"{"id": "plain", "paging": {"size": {"fraction": 1}}, "rows": [{"id": "a", "view": {"type": "V"}, "size": {"fixed": 50}}]}"#))
        XCTAssertNil(plain["crossLength"])
        let plainLayout = try server.request("GET", "/v1/stacks/plain/layout")
        XCTAssertNil(plainLayout["crossPaging"])
        XCTAssertEqual(plainLayout["rows[0].frame.width"], 375)
    }

    func testADiagonalFlickSettlesEachAxisOnItsOwnStops() throws {
        try makeGrid()
        let flick = try settle(#"{"velocity": {"x": 800, "y": 700}, "fps": 10}"#)
        XCTAssertEqual(flick.status, 200, flick.text)
        XCTAssertEqual(flick["target"], object(("x", 375), ("y", 600)))
        XCTAssertEqual(flick["page"], 1)
        XCTAssertEqual(flick["cross.page"], 1)
        XCTAssertEqual(flick["cross.motion"], "spring")
        let curve = try XCTUnwrap(flick["cross.curve"]?.arrayValue)
        XCTAssertEqual(curve.first?["offset"], 0)
        XCTAssertEqual(curve.last?["offset"], 375)
        XCTAssertEqual(curve.last?["t"], flick["cross.duration"])
        XCTAssertEqual(try server.request("GET", "/v1/stacks/grid/layout")["offset"], object(("x", 375), ("y", 600)))
        // A slow release across snaps back to the nearest stop; a flick leftwards goes one page back.
        XCTAssertEqual(try settle(#"{"velocity": {"x": 100, "y": 0}, "offset": {"x": 500, "y": 600}, "dryRun": true}"#)["target.x"], 375)
        XCTAssertEqual(try settle(#"{"velocity": {"x": 100, "y": 0}, "offset": {"x": 600, "y": 600}, "dryRun": true}"#)["target.x"], 750)
        XCTAssertEqual(try settle(#"{"velocity": {"x": -900, "y": 0}, "offset": {"x": 370, "y": 600}, "dryRun": true}"#)["target.x"], 0)
        // At most one page from where the drag began, as along.
        XCTAssertEqual(try settle(#"{"velocity": {"x": 5000, "y": 0}, "offset": {"x": 740, "y": 600}, "dryRun": true}"#)["target.x"], 750)
        // A number is along the scroll axis; across, the release settles with no velocity.
        let along = try settle(#"{"velocity": 900, "offset": {"x": 400, "y": 600}, "dryRun": true}"#)
        XCTAssertEqual(along["target"], object(("x", 375), ("y", 1200)))
        XCTAssertEqual(along["cross.page"], 1)
    }

    func testWithoutPagingTheGridDeceleratesAcrossInItsRange() throws {
        let reply = try server.request("POST", "/v1/stacks", json: try j("""
            {"id": "free", "viewport": {"width": 375, "height": 600}, "crossLength": 1000,
             "rows": [{"id": "r", "view": {"type": "V"}, "size": {"fixed": 2000}}]}
            """))
        XCTAssertEqual(reply.status, 201, reply.text)
        let flick = try settle(#"{"velocity": {"x": 1000, "y": 0}, "dryRun": true}"#, stack: "free")
        XCTAssertEqual(flick["cross.motion"], "deceleration")
        XCTAssertEqual(flick["cross.page"], JSON.null)
        // 1000 pt/s at 0.998 per ms rests 1·0.998/0.002 = 499 pt across.
        XCTAssertEqual(flick["target.x"]?.doubleValue ?? 0, 499, accuracy: 1e-6)
        // A harder flick stops at the range's end: 1000 − 375.
        XCTAssertEqual(try settle(#"{"velocity": {"x": 5000, "y": 0}, "dryRun": true}"#, stack: "free")["target.x"], 625)
    }

    func testScrollingToARowKeepsTheOffsetAcrossClampedToItsRange() throws {
        try makeGrid()
        XCTAssertEqual(try server.request("POST", "/v1/stacks/grid/scroll", json: try j(#"{"offset": {"x": 2000, "y": 0}}"#)).status, 200)
        let scrolled = try server.request("POST", "/v1/stacks/grid/scroll", json: try j(#"{"row": "r3", "position": "initial"}"#))
        XCTAssertEqual(scrolled.status, 200, scrolled.text)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/grid/layout")["offset"], object(("x", 750), ("y", 1200)))
    }

    func testAScrollToAPageOfTheGridNamesItAlongAndAcross() throws {
        try makeGrid()
        func scroll(_ body: String) throws -> Reply { try server.request("POST", "/v1/stacks/grid/scroll", json: try j(body)) }
        func offset() throws -> JSON? { try server.request("GET", "/v1/stacks/grid/layout")["offset"] }
        XCTAssertEqual(try scroll(#"{"page": 2, "crossPage": 1}"#).status, 200)
        XCTAssertEqual(try offset(), object(("x", 375), ("y", 1200)))
        XCTAssertEqual(try scroll(#"{"crossPage": 2}"#).status, 200)
        XCTAssertEqual(try offset(), object(("x", 750), ("y", 1200)), "crossPage alone keeps the offset along")
        XCTAssertEqual(try scroll(#"{"page": 0}"#).status, 200)
        XCTAssertEqual(try offset(), object(("x", 750), ("y", 0)), "page alone keeps the offset across")
        let beyond = try scroll(#"{"crossPage": 3}"#)
        XCTAssertEqual(beyond.status, 422, beyond.text)
        XCTAssertEqual(beyond.errorField, "crossPage")
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: try j(#"{"id": "carousel", "paging": {"size": {"fraction": 1}}}"#)).status, 201)
        let flat = try server.request("POST", "/v1/stacks/carousel/scroll", json: try j(#"{"crossPage": 0}"#))
        XCTAssertEqual(flat.status, 422, flat.text)
        XCTAssertEqual(flat.errorField, "crossPage")
        XCTAssertEqual(try scroll(#"{"crossPage": 1, "to": "top"}"#).errorCode, "invalid_value", "two kinds of target")
    }

    func testCentredPagesAcrossGetTheirCentringRoom() throws {
        // Pages 300 wide across a 375 viewport, centred: page k at 300k + 150 − 187.5.
        let reply = try server.request("POST", "/v1/stacks", json: try j("""
            {"id": "cards", "viewport": {"width": 375, "height": 600}, "crossLength": 900,
             "paging": {"size": {"absolute": 300}, "alignment": "center"},
             "rows": [{"id": "r", "view": {"type": "V"}, "size": {"fixed": 300}}]}
            """))
        XCTAssertEqual(reply.status, 201, reply.text)
        let first = try settle(#"{"velocity": {"x": 0, "y": 0}, "offset": {"x": -30, "y": 0}, "dryRun": true}"#, stack: "cards")
        XCTAssertEqual(first["target.x"], -37.5, "the first page across is centred, before the content's start")
        let last = try settle(#"{"velocity": {"x": 0, "y": 0}, "offset": {"x": 560, "y": 0}, "dryRun": true}"#, stack: "cards")
        XCTAssertEqual(last["target.x"], 562.5, "and the last one, past its end")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/cards/layout?offset=562.5,0")["crossPaging.currentPage"], 2)
    }

    func testAVelocityAcrossIsRefusedByAStackThatDoesNotScrollAcross() throws {
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: try j(#"{"id": "v"}"#)).status, 201)
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: try j(#"{"id": "h", "axis": "horizontal"}"#)).status, 201)
        let vertical = try settle(#"{"velocity": {"x": 800, "y": 0}}"#, stack: "v")
        XCTAssertEqual(vertical.status, 422, vertical.text)
        XCTAssertEqual(vertical.errorField, "velocity.x")
        let horizontal = try settle(#"{"velocity": {"x": 0, "y": 800}}"#, stack: "h")
        XCTAssertEqual(horizontal.errorField, "velocity.y")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/h")["revision"], 1, "nothing was applied")
        // Along only is fine as a point; the offset across stays 0.
        let along = try settle(#"{"velocity": {"x": 0, "y": 300}, "dryRun": true}"#, stack: "v")
        XCTAssertEqual(along.status, 200, along.text)
        XCTAssertNil(along["cross"])
        XCTAssertEqual(try settle(#"{"velocity": {"x": 1e8, "y": 0}}"#).errorField, "velocity.x")
        let negative = try server.request("POST", "/v1/stacks", json: try j(#"{"crossLength": -1}"#))
        XCTAssertEqual(negative.status, 422, negative.text)
        XCTAssertEqual(negative.errorField, "crossLength")
    }

    func testAPatchChangesOrRemovesTheCrossLengthAndARestartKeepsIt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ssgrid-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("db.sqlite").path
        server.stop()
        server = try ServerHarness(service: StackService(journal: try StackJournal(path: path, snapshotInterval: 2)))
        try makeGrid()
        let widened = try server.request("PATCH", "/v1/stacks/grid", json: try j(#"{"crossLength": 1500}"#))
        XCTAssertEqual(widened.status, 200, widened.text)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/grid/layout")["crossPaging.pageCount"], 4)
        XCTAssertEqual(try server.request("POST", "/v1/stacks/grid/scroll", json: try j(#"{"offset": {"x": 1125, "y": 0}}"#)).status, 200)
        let before = try server.request("GET", "/v1/stacks/grid/layout")
        server.stop()
        let restarted = StackService(journal: try StackJournal(path: path, snapshotInterval: 2))
        XCTAssertEqual(try restarted.restore(), 1)
        server = try ServerHarness(service: restarted)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/grid/layout").text, before.text)
        let removed = try server.request("PATCH", "/v1/stacks/grid", json: try j(#"{"crossLength": null}"#))
        XCTAssertEqual(removed.status, 200, removed.text)
        let layout = try server.request("GET", "/v1/stacks/grid/layout")
        XCTAssertNil(layout["crossPaging"])
        XCTAssertEqual(layout["rows[0].frame.width"], 375)
        XCTAssertNil(try server.request("GET", "/v1/stacks/grid")["crossLength"])
    }
}
