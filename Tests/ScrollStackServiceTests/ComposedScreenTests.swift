import Foundation
import JSONCodec
@testable import ScrollStackCore
@testable import ScrollStackService
import ScrollStackStore
import TestHTTPClient
import TestSeeds
import XCTest

/// Composed screens over HTTP: a row that embeds a stack (`"stack": id`), the layout answers
/// that follow the tree, and the checks that keep the graph of embeddings sound.
final class ComposedScreenTests: XCTestCase {
    var server: ServerHarness!

    override func setUpWithError() throws { server = try ServerHarness() }
    override func tearDown() { server.stop() }

    func j(_ text: String) throws -> JSON { try JSON.parse(Array(text.utf8)) }

    @discardableResult
    func create(_ body: String, file: StaticString = #filePath, line: UInt = #line) throws -> Reply {
        let reply = try server.request("POST", "/v1/stacks", json: try j(body))
        XCTAssertEqual(reply.status, 201, reply.text, file: file, line: line)
        return reply
    }

    /// cards: a horizontal carousel of three 240-pt cards, 12 apart, in a 300 × 200 viewport.
    /// feed: a 100-pt header, then a row embedding `cards`, then a 500-pt row.
    func makeNewsScreen() throws {
        try create("""
            {"id": "cards", "axis": "horizontal", "viewport": {"width": 300, "height": 200}, "spacing": 12,
             "rowInsets": {"top": 0, "left": 0, "bottom": 0, "right": 0},
             "rows": [{"id": "c1", "view": {"type": "Card"}, "size": {"fixed": 240}},
                      {"id": "c2", "view": {"type": "Card"}, "size": {"fixed": 240}},
                      {"id": "c3", "view": {"type": "Card"}, "size": {"fixed": 240}}]}
            """)
        try create("""
            {"id": "feed", "viewport": {"width": 375, "height": 600},
             "rows": [{"id": "header", "view": {"type": "Header"}, "size": {"fixed": 100}},
                      {"id": "carousel", "stack": "cards", "size": {"fixed": 224}},
                      {"id": "story", "view": {"type": "Story"}, "size": {"fixed": 500}}]}
            """)
    }

    func rect(_ json: JSON?) -> Rect? {
        guard let x = json?["x"]?.doubleValue, let y = json?["y"]?.doubleValue, let w = json?["width"]?.doubleValue,
              let h = json?["height"]?.doubleValue else { return nil }
        return Rect(x: x, y: y, width: w, height: h)
    }

    func testAnEmbeddedStackIsLaidOutInItsRowsContentFrameInTheRootsCoordinates() throws {
        try makeNewsScreen()
        let row = try server.request("GET", "/v1/stacks/feed/rows/carousel")
        XCTAssertEqual(row["stack"], "cards", row.text)
        XCTAssertEqual(row["view.type"], "ScrollStack", "a row that embeds a stack and names no descriptor is a ScrollStack view")
        // The carousel scrolled by 100: its cards move left by 100 on the screen.
        XCTAssertEqual(try server.request("POST", "/v1/stacks/cards/scroll", json: try j(#"{"offset": {"x": 100, "y": 0}}"#)).status, 200)
        let layout = try server.request("GET", "/v1/stacks/feed/layout")
        XCTAssertEqual(layout.status, 200, layout.text)
        // The embedding row: y 124 (header 100 + insets 24), content frame inset 16/12.
        XCTAssertEqual(rect(layout["rows[1].contentFrame"]), Rect(x: 16, y: 136, width: 343, height: 224))
        let nested = try XCTUnwrap(layout["rows[1].stack"])
        XCTAssertEqual(nested["id"], "cards")
        XCTAssertEqual(nested["revision"], 2)
        XCTAssertEqual(nested["viewport"], object(("width", 343), ("height", 224)), "the embedded viewport is the row's content frame")
        XCTAssertEqual(nested["offset"], object(("x", 100), ("y", 0)), "the embedded stack keeps its own offset")
        XCTAssertEqual(rect(nested["frame"]), Rect(x: 16, y: 136, width: 343, height: 224))
        let cards = try XCTUnwrap(nested["rows"]?.arrayValue)
        // c1 at 0…240 in its content: 16 − 100 + 0 = −84 on the root's coordinates.
        XCTAssertEqual(cards.map { rect($0["frame"]) }, [Rect(x: -84, y: 136, width: 240, height: 224),
                                                          Rect(x: 168, y: 136, width: 240, height: 224),
                                                          Rect(x: 420, y: 136, width: 240, height: 224)])
        // Visible through the carousel's viewport (16…359): c1 140 of 240 pt, c2 191 of 240, c3 none.
        XCTAssertEqual(cards.map { $0["visibility"]?.stringValue }, ["partial", "partial", "offscreen"])
        XCTAssertEqual(cards[0]["visibleFraction"]?.doubleValue ?? 0, 140.0 / 240.0, accuracy: 1e-6)
        XCTAssertEqual(cards[1]["visibleFraction"]?.doubleValue ?? 0, 191.0 / 240.0, accuracy: 1e-6)
        XCTAssertEqual(nested["visibleRows"], ["c1", "c2"])
        XCTAssertEqual(nested["entirelyVisibleRows"], [])
    }

    func testVisibilityComposesThroughEveryEnclosingViewport() throws {
        try makeNewsScreen()
        // c1 is entirely inside the carousel's viewport (0…240 of 343) …
        let alone = try server.request("GET", "/v1/stacks/cards/layout?width=343&height=224")
        XCTAssertEqual(alone["rows[0].visibility"], "entire")
        // … but with the feed scrolled so that only the carousel's lower 24 pt show, c1 is
        // partial on the screen: 24 of 224 pt tall.
        XCTAssertEqual(try server.request("POST", "/v1/stacks/feed/scroll", json: try j(#"{"offset": {"x": 0, "y": 336}}"#)).status, 200)
        let layout = try server.request("GET", "/v1/stacks/feed/layout")
        XCTAssertEqual(layout["rows[1].visibility"], "partial")
        XCTAssertEqual(layout["rows[1].stack.rows[0].visibility"], "partial", layout.text)
        XCTAssertEqual(layout["rows[1].stack.rows[0].visibleFraction"]?.doubleValue ?? 0, 24.0 / 224.0, accuracy: 1e-6)
        // Scrolled past the carousel: every card is offscreen, and a window of visible rows has none.
        XCTAssertEqual(try server.request("POST", "/v1/stacks/feed/scroll", json: try j(#"{"offset": {"x": 0, "y": 400}}"#)).status, 200)
        let past = try server.request("GET", "/v1/stacks/feed/layout")
        XCTAssertEqual(past["rows[1].stack.rows"]?.arrayValue?.compactMap { $0["visibility"]?.stringValue }, ["offscreen", "offscreen", "offscreen"])
        XCTAssertEqual(past["rows[1].stack.visibleRows"], [])
        XCTAssertEqual(try server.request("POST", "/v1/stacks/feed/scroll", json: try j(#"{"offset": {"x": 0, "y": 0}}"#)).status, 200)
        let window = try server.request("GET", "/v1/stacks/feed/layout?window=visible")
        XCTAssertEqual(window["rows[1].stack.rows"]?.arrayValue?.compactMap { $0["id"]?.stringValue }, ["c1", "c2"],
                       "window=visible keeps the nested rows that show on the screen")
    }

    func testAHitTestFollowsThePointDownTheTree() throws {
        try makeNewsScreen()
        XCTAssertEqual(try server.request("PATCH", "/v1/stacks/cards/rows/c2", json: try j(#"{"tappable": true}"#)).status, 200)
        // (300, 200) on the screen: in the carousel's row (content frame at 16, 136), 284 into
        // its viewport, which is c2 (252…492 of the cards' content).
        let hit = try server.request("GET", "/v1/stacks/feed/hit?x=300&y=200")
        XCTAssertEqual(hit.status, 200, hit.text)
        XCTAssertEqual(hit["row.id"], "carousel")
        XCTAssertEqual(hit["path"], [object(("stack", "feed"), ("row", "carousel"), ("index", 1), ("tappable", false), ("highlightable", false)),
                                     object(("stack", "cards"), ("row", "c2"), ("index", 1), ("tappable", true), ("highlightable", false))])
        XCTAssertTrue(hit.header("ETag")?.hasPrefix("\"1.") == true, "an answer that read other stacks is tagged by their revisions too")
        // Scrolled by 100, the same point is on c2 still (284 + 100 = 384 of the content); at
        // x = 150 it is on c1 (134 + 100 = 234 < 240).
        XCTAssertEqual(try server.request("POST", "/v1/stacks/cards/scroll", json: try j(#"{"offset": {"x": 100, "y": 0}}"#)).status, 200)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/feed/hit?x=300&y=200")["path[1].row"], "c2")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/feed/hit?x=150&y=200")["path[1].row"], "c1")
        // Over the carousel's insets (x = 5): the row, but no card.
        let margin = try server.request("GET", "/v1/stacks/feed/hit?x=5&y=200")
        XCTAssertEqual(margin["path"]?.arrayValue?.count, 1)
        // A row without a stack: no path, and the feed's ETag.
        let header = try server.request("GET", "/v1/stacks/feed/hit?x=5&y=50")
        XCTAssertNil(header["path"])
        XCTAssertEqual(header.header("ETag"), "\"1\"")
    }

    /// A full layout of many rows finds the embedding rows in one pass; a window or a page
    /// looks each row up: both put each embedded layout in its own row only.
    func testEveryWayOfAnsweringPutsEachEmbeddedLayoutInItsRow() throws {
        try create(#"{"id": "inner", "rows": [{"id": "i", "view": {"type": "V"}, "size": {"fixed": 5}}]}"#)
        let embedding: Set<Int> = [0, 10, 57, 99]
        let rows = (0..<100).map { i in
            embedding.contains(i) ? #"{"id": "r\#(i)", "stack": "inner", "size": {"fixed": 20}}"# : #"{"id": "r\#(i)", "view": {"type": "V"}, "size": {"fixed": 20}}"#
        }
        try create(#"{"id": "outer", "viewport": {"width": 375, "height": 2000}, "rows": [\#(rows.joined(separator: ", "))]}"#)
        for query in ["", "?window=visible", "?from=5&limit=90", "?offset=500&window=visible"] {
            let reply = try server.request("GET", "/v1/stacks/outer/layout" + query)
            XCTAssertEqual(reply.status, 200, reply.text)
            for row in reply.json?["rows"]?.arrayValue ?? [] {
                let index = Int(row["index"]?.doubleValue ?? -1)
                XCTAssertEqual(row["stack"]?["id"]?.stringValue, embedding.contains(index) ? "inner" : nil, "\(query) row \(index)")
            }
        }
    }

    func testAScrollsWindowIsTheVisibleLayoutOfTheWholeTree() throws {
        try makeNewsScreen()
        let scrolled = try server.request("POST", "/v1/stacks/feed/scroll", json: try j(#"{"offset": {"x": 0, "y": 100}}"#))
        XCTAssertEqual(scrolled.status, 200, scrolled.text)
        let layout = try server.request("GET", "/v1/stacks/feed/layout?window=visible")
        XCTAssertEqual(scrolled.json?["window"], layout.json.map { value -> JSON in
            guard case .object(var members) = value else { return value }
            members["revision"] = nil
            return .object(members)
        })
        XCTAssertEqual(scrolled["window.rows[1].stack.id"], "cards")
        let dry = try server.request("POST", "/v1/stacks/feed/scroll", json: try j(#"{"offset": {"x": 0, "y": 0}, "dryRun": true}"#))
        XCTAssertEqual(dry["window.rows[1].stack.rows[0].id"], "c1", dry.text)
    }

    func testAWholeScreenIsCreatedInOneRequestAllOrNothing() throws {
        try create(#"{"id": "shared", "rows": [{"id": "x", "view": {"type": "V"}, "size": {"fixed": 10}}]}"#)
        let reply = try create("""
            {"id": "home", "rows": [
              {"id": "top", "size": {"fixed": 200}, "stack": {"id": "home-cards", "axis": "horizontal",
                "rows": [{"id": "k1", "view": {"type": "Card"}, "size": {"fixed": 100}},
                         {"id": "k2", "size": {"fixed": 100}, "stack": {"id": "home-badges", "rows": [{"id": "b", "view": {"type": "B"}, "size": {"fixed": 5}}]}}]}},
              {"id": "more", "size": {"fixed": 50}, "stack": "shared"}]}
            """)
        XCTAssertEqual(reply["rows[0].stack"], "home-cards", "an inline stack is answered by its id")
        XCTAssertEqual(reply.header("Location"), "/v1/stacks/home")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/home-cards/rows/k2")["stack"], "home-badges")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/home-badges")["revision"], 1)
        let layout = try server.request("GET", "/v1/stacks/home/layout")
        XCTAssertEqual(layout["rows[0].stack.rows[1].stack.rows[0].id"], "b", layout.text)
        XCTAssertEqual(try server.request("DELETE", "/v1/stacks/home-badges").errorCode, "stack_embedded")
        // Refused, nothing stored: a taken id, an id given twice, an inline body without id,
        // a bad inline row, an inline stack embedding the host.
        let refusals: [(String, Int, String)] = [
            (#"{"id": "a1", "rows": [{"id": "r", "size": {"fixed": 1}, "stack": {"id": "shared"}}]}"#, 409, "rows[0].stack.id"),
            (#"{"id": "a2", "rows": [{"id": "r", "size": {"fixed": 1}, "stack": {"id": "n1"}}, {"id": "s", "size": {"fixed": 1}, "stack": {"id": "n1"}}]}"#,
             409, "rows[1].stack.id"),
            (#"{"id": "a3", "rows": [{"id": "r", "size": {"fixed": 1}, "stack": {"rows": []}}]}"#, 422, "rows[0].stack.id"),
            (#"{"id": "a4", "rows": [{"id": "r", "size": {"fixed": 1}, "stack": {"id": "n2", "rows": [{"id": "q", "view": {"type": "V"}, "size": {"fixed": -1}}]}}]}"#,
             422, "rows[0].stack.rows[0].size.fixed"),
            (#"{"id": "a5", "rows": [{"id": "r", "size": {"fixed": 1}, "stack": {"id": "n3", "rows": [{"id": "q", "size": {"fixed": 1}, "stack": "a5"}]}}]}"#,
             422, "rows[0].stack"),
        ]
        for (body, status, field) in refusals {
            let refused = try server.request("POST", "/v1/stacks", json: try j(body))
            XCTAssertEqual(refused.status, status, refused.text)
            XCTAssertEqual(refused.errorField, field, refused.text)
        }
        for id in ["a1", "a2", "a3", "a4", "a5", "n1", "n2", "n3"] {
            XCTAssertEqual(try server.request("GET", "/v1/stacks/\(id)").status, 404, "\(id) was not stored")
        }
        XCTAssertEqual(try server.request("DELETE", "/v1/stacks/shared").errorCode, "stack_embedded", "only home embeds shared")
        XCTAssertEqual(try server.request("PATCH", "/v1/stacks/home/rows/more", json: try j(#"{"stack": null}"#)).status, 200)
        XCTAssertEqual(try server.request("DELETE", "/v1/stacks/shared").status, 204, "a refused body left no edge behind")
    }

    func testDepthCutsTheTreeAndPagesOnlyTheRoot() throws {
        try create(#"{"id": "leaf", "axis": "horizontal", "rows": [{"id": "l1", "view": {"type": "V"}, "size": {"fixed": 50}}]}"#)
        try create(#"{"id": "section", "rows": [{"id": "s1", "stack": "leaf", "size": {"fixed": 80}}]}"#)
        try create(#"{"id": "screen", "rows": [{"id": "r1", "stack": "section", "size": {"fixed": 200}}, {"id": "r2", "view": {"type": "V"}, "size": {"fixed": 10}}]}"#)
        let whole = try server.request("GET", "/v1/stacks/screen/layout")
        XCTAssertEqual(whole["rows[0].stack.rows[0].stack.rows[0].id"], "l1", whole.text)
        let one = try server.request("GET", "/v1/stacks/screen/layout?depth=1")
        XCTAssertEqual(one["rows[0].stack.rows[0].id"], "s1")
        XCTAssertEqual(one["rows[0].stack.rows[0].stack"], object(("id", "leaf")), "past the depth, a row names its stack only")
        let none = try server.request("GET", "/v1/stacks/screen/layout?depth=0")
        XCTAssertEqual(none["rows[0].stack"], object(("id", "section")))
        XCTAssertEqual(none.header("ETag"), "\"1\"", "an answer of the stack alone is tagged by its revision")
        for bad in ["-1", "17", "x"] {
            let reply = try server.request("GET", "/v1/stacks/screen/layout?depth=\(bad)")
            XCTAssertEqual(reply.status, 400, bad)
            XCTAssertEqual(reply.errorField, "depth")
        }
        let paged = try server.request("GET", "/v1/stacks/screen/layout?from=1&limit=1")
        XCTAssertEqual(paged["rows"]?.arrayValue?.count, 1)
        XCTAssertEqual(paged["rows[0].id"], "r2")
    }

    /// feed › section › carousel under two devices: every level's viewport follows the device.
    func testDevicesRelayOutTheWholeThreeLevelTree() throws {
        try create("""
            {"id": "carousel", "axis": "horizontal", "rowInsets": {"top": 0, "left": 0, "bottom": 0, "right": 0},
             "rows": [{"id": "k1", "view": {"type": "Card"}, "size": {"fixed": 200}}, {"id": "k2", "view": {"type": "Card"}, "size": {"fixed": 200}}]}
            """)
        try create(#"{"id": "section", "rows": [{"id": "title", "view": {"type": "T"}, "size": {"fixed": 30}}, {"id": "strip", "stack": "carousel", "size": {"fixed": 150}}]}"#)
        try create(#"{"id": "feed", "rows": [{"id": "top", "view": {"type": "T"}, "size": {"fixed": 60}}, {"id": "sec", "stack": "section", "size": {"fixed": 400}}]}"#)
        let reply = try server.request("GET", "/v1/stacks/feed/layout?devices=iphone-se,ipad")
        XCTAssertEqual(reply.status, 200, reply.text)
        let layouts = try XCTUnwrap(reply["layouts"]?.arrayValue)
        XCTAssertEqual(layouts.count, 2)
        for (layout, width) in zip(layouts, [375.0, 820.0]) {
            let section = try XCTUnwrap(layout["rows"]?.arrayValue?[1]["stack"])
            // Each level is inset 16 on both sides (rows' default insets), the carousel's rows not.
            XCTAssertEqual(section["viewport"]?["width"]?.doubleValue, width - 32)
            let carousel = try XCTUnwrap(section["rows"]?.arrayValue?[1]["stack"])
            XCTAssertEqual(carousel["viewport"]?["width"]?.doubleValue, width - 64)
            let k2 = try XCTUnwrap(carousel["rows"]?.arrayValue?[1])
            XCTAssertEqual(k2["frame"]?["x"]?.doubleValue, 32 + 200, "k2 at the carousel's origin (16 + 16) + 200")
            XCTAssertEqual(k2["frame"]?["y"]?.doubleValue, 60 + 24 + 12 + 54 + 12,
                           "top 60 + 24, section's content at 12, strip row after the title's 54, its content 12 lower")
        }
    }

    func testEmbeddingsThatMakeACycleOrNameNoStackAreRefusedNamingTheField() throws {
        try create(#"{"id": "a", "rows": [{"id": "x", "view": {"type": "V"}, "size": {"fixed": 10}}]}"#)
        try create(#"{"id": "b", "rows": [{"id": "to-a", "stack": "a", "size": {"fixed": 10}}]}"#)
        try create(#"{"id": "c", "rows": [{"id": "to-b", "stack": "b", "size": {"fixed": 10}}]}"#)
        let cases: [(String, String, String, String, String)] = [
            ("POST", "/v1/stacks/a/rows", #"{"rows": [{"id": "y", "view": {"type": "V"}, "size": {"fixed": 1}}, {"id": "to-c", "stack": "c", "size": {"fixed": 1}}]}"#,
             "rows[1].stack", "a › c › b › a"),
            ("POST", "/v1/stacks/a/rows", #"{"rows": [{"id": "me", "stack": "a", "size": {"fixed": 1}}]}"#, "rows[0].stack", "a › a"),
            ("PATCH", "/v1/stacks/a/rows/x", #"{"stack": "b"}"#, "stack", "a › b › a"),
            ("PUT", "/v1/stacks/a/rows/x", #"{"id": "x", "stack": "c", "size": {"fixed": 1}}"#, "stack", "a › c › b › a"),
            ("PUT", "/v1/stacks/a", #"{"rows": [{"id": "x", "stack": "b", "size": {"fixed": 1}}]}"#, "rows[0].stack", "a › b › a"),
        ]
        for (method, path, body, field, cycle) in cases {
            let reply = try server.request(method, path, json: try j(body))
            XCTAssertEqual(reply.status, 422, "\(method) \(path): \(reply.text)")
            XCTAssertEqual(reply.errorCode, "embedding_cycle", reply.text)
            XCTAssertEqual(reply.errorField, field, reply.text)
            XCTAssertTrue(reply["error.message"]?.stringValue?.contains(cycle) == true, "\(reply.text) names \(cycle)")
        }
        XCTAssertEqual(try server.request("GET", "/v1/stacks/a")["revision"], 1, "nothing was applied")
        let missing = try server.request("POST", "/v1/stacks", json: try j(#"{"id": "d", "rows": [{"id": "r", "stack": "nowhere", "size": {"fixed": 1}}]}"#))
        XCTAssertEqual(missing.status, 422, missing.text)
        XCTAssertEqual(missing.errorField, "rows[0].stack")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/d").status, 404, "a refused create stores nothing")
        let badID = try server.request("PATCH", "/v1/stacks/a/rows/x", json: try j(#"{"stack": "no/slash"}"#))
        XCTAssertEqual(badID.status, 422)
        XCTAssertEqual(badID.errorField, "stack")
        // The same graph, a legal change: c may embed a again (a DAG, not a cycle).
        let diamond = try server.request("POST", "/v1/stacks/c/rows", json: try j(#"{"rows": [{"id": "to-a", "stack": "a", "size": {"fixed": 1}}]}"#))
        XCTAssertEqual(diamond.status, 200, diamond.text)
    }

    func testAStackAnotherEmbedsIsNotDeletedUntilNoRowEmbedsIt() throws {
        try makeNewsScreen()
        try create(#"{"id": "more", "rows": [{"id": "m", "stack": "cards", "size": {"fixed": 10}}]}"#)
        let refused = try server.request("DELETE", "/v1/stacks/cards")
        XCTAssertEqual(refused.status, 409, refused.text)
        XCTAssertEqual(refused.errorCode, "stack_embedded")
        XCTAssertTrue(refused["error.message"]?.stringValue?.contains(#""feed", "more""#) == true, refused.text)
        XCTAssertEqual(try server.request("PATCH", "/v1/stacks/feed/rows/carousel", json: try j(#"{"stack": null}"#)).status, 200)
        XCTAssertEqual(try server.request("DELETE", "/v1/stacks/cards").status, 409, "more still embeds it")
        XCTAssertEqual(try server.request("DELETE", "/v1/stacks/more").status, 204)
        XCTAssertEqual(try server.request("DELETE", "/v1/stacks/cards").status, 204)
        // Gone: embedding it again is refused.
        let again = try server.request("PATCH", "/v1/stacks/feed/rows/carousel", json: try j(#"{"stack": "cards"}"#))
        XCTAssertEqual(again.status, 422)
        XCTAssertEqual(again.errorField, "stack")
    }

    func testTheEntityTagFollowsEveryStackOfTheTree() throws {
        try makeNewsScreen()
        let first = try server.request("GET", "/v1/stacks/feed/layout")
        let tag = try XCTUnwrap(first.header("ETag"))
        XCTAssertTrue(tag.hasPrefix("\"1."), tag)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/feed/layout", headers: [("If-None-Match", tag)]).status, 304)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/feed/layout", headers: [("If-None-Match", "\"1\"")]).status, 200)
        // A change of the embedded stack alone: the host's answer and its tag change with it.
        XCTAssertEqual(try server.request("PATCH", "/v1/stacks/cards/rows/c1", json: try j(#"{"size": {"fixed": 100}}"#)).status, 200)
        let second = try server.request("GET", "/v1/stacks/feed/layout")
        XCTAssertNotEqual(second.header("ETag"), tag)
        XCTAssertEqual(second["revision"], 1)
        XCTAssertEqual(second["rows[1].stack.rows[0].frame.width"], 100, second.text)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/feed/layout", headers: [("If-None-Match", tag)]).status, 200)
    }

    /// Seeded random trees: each nested layout equals its stack laid out alone in the frame its
    /// host gives it (`?width=&height=`), moved to the root's coordinates, and each nested row's
    /// visibility is its frame judged against the intersection of the enclosing viewports.
    func testATreesLayoutEqualsEachStackLaidOutAloneInItsHostsFrame() throws {
        var random = SplitMix64(seed: TestSeed.seed("ComposedScreenTests.tree"))
        for round in 0..<6 {
            // Level 3 first, so that every stack a row names exists.
            var names: [[String]] = [[], [], []]
            for level in (0..<3).reversed() {
                for s in 0..<(level == 0 ? 1 : 2) {
                    let id = "t\(round)-\(level)-\(s)"
                    names[level].append(id)
                    let axis = Bool.random(using: &random) ? "vertical" : "horizontal"
                    var rows: [String] = []
                    for r in 0..<Int.random(in: 2...6, using: &random) {
                        let length = Int.random(in: 20...260, using: &random)
                        if level < 2, Bool.random(using: &random) {
                            let child = names[level + 1].randomElement(using: &random)!
                            rows.append(#"{"id": "r\#(r)", "stack": "\#(child)", "size": {"fixed": \#(length)}}"#)
                        } else {
                            rows.append(#"{"id": "r\#(r)", "view": {"type": "V"}, "size": {"fixed": \#(length)}}"#)
                        }
                    }
                    let offset = Int.random(in: 0...120, using: &random)
                    try create("""
                        {"id": "\(id)", "axis": "\(axis)", "spacing": \(Int.random(in: 0...8, using: &random)),
                         "viewport": {"width": \(Int.random(in: 200...400, using: &random)), "height": \(Int.random(in: 200...700, using: &random))},
                         "offset": {"x": \(axis == "horizontal" ? offset : 0), "y": \(axis == "vertical" ? offset : 0)}, "rows": [\(rows.joined(separator: ", "))]}
                        """)
                }
            }
            let root = try server.request("GET", "/v1/stacks/\(names[0][0])/layout")
            XCTAssertEqual(root.status, 200, root.text)
            let viewport = Rect(origin: Point(x: root["offset.x"]?.doubleValue ?? 0, y: root["offset.y"]?.doubleValue ?? 0),
                                size: Size(width: root["viewport.width"]?.doubleValue ?? 0, height: root["viewport.height"]?.doubleValue ?? 0))
            try check(root.json?["rows"]?.arrayValue ?? [], clip: viewport, round: round)
        }
    }

    /// Checks every embedding row of `rows` (and below) against its stack's own layout.
    func check(_ rows: [JSON], clip: Rect?, round: Int) throws {
        for row in rows {
            guard let nested = row["stack"], let id = nested["id"]?.stringValue else { continue }
            let frame = try XCTUnwrap(rect(nested["frame"]))
            XCTAssertEqual(frame, rect(row["contentFrame"]), "round \(round): \(id)'s viewport is its row's content frame")
            let alone = try server.request("GET", "/v1/stacks/\(id)/layout?width=\(frame.size.width)&height=\(frame.size.height)")
            XCTAssertEqual(alone.status, 200, alone.text)
            XCTAssertEqual(nested["offset"], alone["offset"])
            XCTAssertEqual(nested["contentSize"], alone["contentSize"])
            let dx = frame.minX - (alone["offset.x"]?.doubleValue ?? 0), dy = frame.minY - (alone["offset.y"]?.doubleValue ?? 0)
            let inner = clip.flatMap { EmbeddedLayouts.intersection($0, frame) }
            let nestedRows = nested["rows"]?.arrayValue ?? []
            let aloneRows = alone["rows"]?.arrayValue ?? []
            XCTAssertEqual(nestedRows.count, aloneRows.count)
            for (n, a) in zip(nestedRows, aloneRows) {
                let own = try XCTUnwrap(rect(a["frame"]))
                let moved = try XCTUnwrap(rect(n["frame"]))
                XCTAssertEqual(moved.minX, own.minX + dx, accuracy: 1e-6, "round \(round): \(id) row \(a["id"]?.stringValue ?? "")")
                XCTAssertEqual(moved.minY, own.minY + dy, accuracy: 1e-6)
                XCTAssertEqual(moved.size, own.size)
                let expected = EmbeddedLayouts.visibility(of: moved, hidden: false, in: inner)
                XCTAssertEqual(n["visibility"]?.stringValue, expected.name, "round \(round): \(id) row \(a["id"]?.stringValue ?? "")")
                XCTAssertEqual(n["visibleFraction"]?.doubleValue ?? -1, expected.fraction, accuracy: 2e-6)
            }
            try check(nestedRows, clip: inner, round: round)
        }
    }

    func testEmbeddingsSurviveARestartAndTheGraphIsRebuilt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sscomposed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("db.sqlite").path
        server.stop()
        server = try ServerHarness(service: StackService(journal: try StackJournal(path: path, snapshotInterval: 2)))
        try makeNewsScreen()
        try create(#"{"id": "inline-host", "rows": [{"id": "r", "size": {"fixed": 10}, "stack": {"id": "inline-child", "rows": []}}]}"#)
        for i in 0..<4 {
            XCTAssertEqual(try server.request("POST", "/v1/stacks/feed/rows", json: try j(#"{"rows": [{"id": "more\#(i)", "stack": "cards", "size": {"fixed": 40}}]}"#)).status, 200)
        }
        let before = try server.request("GET", "/v1/stacks/feed/layout")
        server.stop()
        let restarted = StackService(journal: try StackJournal(path: path, snapshotInterval: 2))
        XCTAssertEqual(try restarted.restore(), 4, "the screen and both stacks created in one request")
        server = try ServerHarness(service: restarted)
        let after = try server.request("GET", "/v1/stacks/feed/layout")
        XCTAssertEqual(after.text, before.text)
        XCTAssertEqual(after.header("ETag"), before.header("ETag"))
        XCTAssertEqual(try server.request("DELETE", "/v1/stacks/cards").status, 409, "the graph is rebuilt at the start")
        XCTAssertEqual(try server.request("POST", "/v1/stacks/cards/rows", json: try j(#"{"rows": [{"id": "up", "stack": "feed", "size": {"fixed": 1}}]}"#)).errorCode,
                       "embedding_cycle")
    }

    /// The `<g …>` opening tags of an SVG, in document order, as (tag text, nesting depth).
    func groups(_ svg: String) -> [(tag: String, depth: Int)] {
        var out: [(String, Int)] = []
        var depth = 0
        var rest = svg[...]
        while let open = rest.firstIndex(of: "<") {
            let tail = rest[open...]
            guard let close = tail.firstIndex(of: ">") else { break }
            let tag = String(tail[..<tail.index(after: close)])
            if tag.hasPrefix("<g ") || tag == "<g>" {
                out.append((tag, depth))
                if !tag.hasSuffix("/>") { depth += 1 }
            } else if tag == "</g>" {
                depth -= 1
            }
            rest = tail[tail.index(after: close)...]
        }
        return out
    }

    func testPicturesDrawEachEmbeddedStackInsideItsRowClippedToItsViewport() throws {
        try makeNewsScreen()
        XCTAssertEqual(try server.request("POST", "/v1/stacks/cards/scroll", json: try j(#"{"offset": {"x": 100, "y": 0}}"#)).status, 200)
        let picture = try server.request("GET", "/v1/stacks/feed/layout.svg")
        XCTAssertEqual(picture.status, 200, picture.text)
        let svg = picture.text
        let tags = groups(svg)
        func index(_ fragment: String) throws -> Int { try XCTUnwrap(tags.firstIndex { $0.tag.contains(fragment) }, fragment) }
        // The carousel's group sits inside the embedding row's, moved to the row's content frame
        // less the carousel's offset (16 − 100, 136), and holds a clipped viewport group.
        let host = try index(#"data-id="carousel""#)
        let embedded = try index(#"class="embedded" data-stack="cards""#)
        XCTAssertTrue(tags[embedded].tag.contains(#"transform="translate(-84,136)""#), tags[embedded].tag)
        XCTAssertGreaterThan(tags[embedded].depth, tags[host].depth)
        XCTAssertGreaterThan(embedded, host)
        let clip = try index(#"class="viewport""#)
        XCTAssertEqual(tags[clip].depth, tags[embedded].depth + 1)
        XCTAssertTrue(svg.contains(#"<rect x="100" y="0" width="343" height="224"/>"#), "the clip is the carousel's viewport at its offset")
        // Its rows, with the visibility the composed layout gives them: c3 is not drawn (a
        // picture draws an embedded stack's visible rows), nor is the host row's label.
        XCTAssertTrue(tags.contains { $0.tag.contains(#"data-id="c1""#) && $0.tag.contains(#"data-visibility="partial""#) && $0.depth > tags[clip].depth })
        XCTAssertTrue(tags.contains { $0.tag.contains(#"data-id="c2""#) && $0.tag.contains(#"data-visibility="partial""#) })
        XCTAssertFalse(svg.contains(#"data-id="c3""#))
        // The tag names the tree: a change of the carousel alone changes the picture and its tag.
        let tag = try XCTUnwrap(picture.header("ETag"))
        XCTAssertTrue(tag.hasPrefix("\"1.") && tag.hasSuffix(".svg\""), tag)
        let png = try server.request("GET", "/v1/stacks/feed/layout.png")
        XCTAssertTrue(try XCTUnwrap(png.header("ETag")).hasSuffix(".png@1\""))
        XCTAssertEqual(try server.request("POST", "/v1/stacks/cards/scroll", json: try j(#"{"offset": {"x": 0, "y": 0}}"#)).status, 200)
        let moved = try server.request("GET", "/v1/stacks/feed/layout.svg")
        XCTAssertNotEqual(moved.header("ETag"), tag)
        XCTAssertTrue(moved.text.contains(#"transform="translate(16,136)""#))
        XCTAssertNotEqual(try server.request("GET", "/v1/stacks/feed/layout.png").body, png.body, "the PNG draws the tree too")
        // Depth 0 draws the row as any other row, with the plain revision tag.
        let flat = try server.request("GET", "/v1/stacks/feed/layout.svg?depth=0")
        XCTAssertFalse(flat.text.contains(#"class="embedded""#))
        XCTAssertEqual(flat.header("ETag"), "\"1.svg\"")
        // Devices draw each device's tree, every embedded stack in the row its device gives it.
        let sheet = try server.request("GET", "/v1/stacks/feed/layout.svg?devices=iphone-se,ipad&window=visible")
        XCTAssertEqual(sheet.status, 200, sheet.text)
        XCTAssertEqual(sheet.text.components(separatedBy: #"data-stack="cards""#).count - 1, 2)
    }

    /// The frame lengths along y of a stack's rows, by id (its own layout, depth 0).
    func heights(_ stack: String) throws -> [String: Double] {
        let layout = try server.request("GET", "/v1/stacks/\(stack)/layout?depth=0")
        var out: [String: Double] = [:]
        for row in layout["rows"]?.arrayValue ?? [] { out[row["id"]?.stringValue ?? ""] = row["frame"]?["height"]?.doubleValue }
        return out
    }

    func testAFitRowIsAsLongAsItsEmbeddedStacksContentLaidOutInTheRow() throws {
        // A section whose text wraps: 600 wide on its own, 343 in the feed's row.
        try create("""
            {"id": "section", "viewport": {"width": 600, "height": 400},
             "rows": [{"id": "title", "view": {"type": "Title"}, "size": {"fixed": 40}},
                      {"id": "body", "view": {"type": "Text"}, "size": "fit",
                       "content": {"text": "A section that lays itself out in the width its row gives it, so that its text wraps there and the row is as long as all of it.", "font": {"family": "Inter", "size": 17}}}]}
            """)
        try create(#"{"id": "cards", "axis": "horizontal", "viewport": {"width": 300, "height": 180}, "rows": [{"id": "c1", "view": {"type": "Card"}, "size": {"fixed": 200}}]}"#)
        try create("""
            {"id": "feed", "rows": [{"id": "head", "view": {"type": "Header"}, "size": {"fixed": 60}},
                                    {"id": "sec", "stack": "section", "size": "fit"},
                                    {"id": "carousel", "stack": "cards", "size": "fit"}]}
            """)
        let alone = try server.request("GET", "/v1/stacks/section/layout?width=343")
        let expected = try XCTUnwrap(alone["contentSize.height"]?.doubleValue)
        XCTAssertGreaterThan(expected, try XCTUnwrap(try server.request("GET", "/v1/stacks/section/layout")["contentSize.height"]?.doubleValue),
                             "the text wraps more in the row than on its own")
        var feed = try heights("feed")
        XCTAssertEqual(feed["sec"], expected + 24, "the section's content at the row's width, plus the row's insets")
        XCTAssertEqual(feed["carousel"], 180 + 24, "a carousel across the feed: its own height")
        // The section grows: the feed's row follows in a revision of its own, with rowResized.
        XCTAssertEqual(try server.request("POST", "/v1/stacks/section/rows", json: try j(#"{"rows": [{"id": "more", "view": {"type": "V"}, "size": {"fixed": 76}}]}"#)).status, 200)
        feed = try heights("feed")
        XCTAssertEqual(feed["sec"], expected + 100 + 24)
        let history = try server.request("GET", "/v1/stacks/feed/events?after=1")
        XCTAssertEqual(history["events[0].type"], "rowResized", history.text)
        XCTAssertEqual(history["events[0].id"], "sec")
        XCTAssertEqual(history["events[0].to"]?.doubleValue, expected + 124)
        // A change that leaves its length alone makes no revision of the feed.
        let revision = try server.request("GET", "/v1/stacks/feed")["revision"]
        XCTAssertEqual(try server.request("POST", "/v1/stacks/section/scroll", json: try j(#"{"offset": {"x": 0, "y": 10}}"#)).status, 200)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/feed")["revision"], revision)
        // A fit row with neither content nor a stack has nothing to measure.
        let bare = try server.request("PATCH", "/v1/stacks/feed/rows/sec", json: try j(#"{"stack": null}"#))
        XCTAssertEqual(bare.status, 422, bare.text)
        XCTAssertEqual(bare.errorField, "content")
    }

    func testFitLengthsFollowTheTreeUpInlineAndAcrossARestart() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ssfit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("db.sqlite").path
        server.stop()
        server = try ServerHarness(service: StackService(journal: try StackJournal(path: path, snapshotInterval: 2)))
        // Three levels created in one request: feed › block (fit) › list (fit).
        try create("""
            {"id": "feed", "rows": [{"id": "block", "size": "fit", "stack": {
               "id": "block", "rowInsets": {"top": 0, "left": 0, "bottom": 0, "right": 0},
               "rows": [{"id": "caption", "view": {"type": "V"}, "size": {"fixed": 30}},
                        {"id": "list", "size": "fit", "stack": {
                          "id": "list", "rowInsets": {"top": 0, "left": 0, "bottom": 0, "right": 0},
                          "rows": [{"id": "i1", "view": {"type": "V"}, "size": {"fixed": 50}}]}}]}}]}
            """)
        XCTAssertEqual(try heights("block")["list"], 50)
        XCTAssertEqual(try heights("feed")["block"], 30 + 50 + 24, "measured at creation, the inline stacks included")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/feed")["revision"], 1)
        // Two levels up: the list grows, the block's row and then the feed's follow.
        XCTAssertEqual(try server.request("POST", "/v1/stacks/list/rows", json: try j(#"{"rows": [{"id": "i2", "view": {"type": "V"}, "size": {"fixed": 50}}]}"#)).status, 200)
        XCTAssertEqual(try heights("block")["list"], 100)
        XCTAssertEqual(try heights("feed")["block"], 30 + 100 + 24)
        let before = try server.request("GET", "/v1/stacks/feed/layout")
        server.stop()
        let restarted = StackService(journal: try StackJournal(path: path, snapshotInterval: 2))
        XCTAssertEqual(try restarted.restore(), 3)
        server = try ServerHarness(service: restarted)
        let after = try server.request("GET", "/v1/stacks/feed/layout")
        XCTAssertEqual(after.text, before.text, "restored stacks measure their fit rows against the stacks they embed")
    }

    func testAHostsPlanMovesTheNestedRowsWithTheirRow() throws {
        try makeNewsScreen()
        // A 50-pt row inserted on top, animated: the carousel's row slides down by 74.
        let inserted = try server.request("POST", "/v1/stacks/feed/rows", json: try j("""
            {"at": "top", "rows": [{"id": "banner", "view": {"type": "Banner"}, "size": {"fixed": 50}}], "animation": true}
            """))
        XCTAssertEqual(inserted.status, 200, inserted.text)
        let planned = try XCTUnwrap(inserted["transition.rows"]?.arrayValue?.first { $0["id"] == "carousel" })
        XCTAssertEqual(planned["change"], "slide")
        XCTAssertEqual(planned["to"]?["contentFrame"]?["y"]?.doubleValue, (planned["from"]?["contentFrame"]?["y"]?.doubleValue ?? 0) + 74)
        let nested = try XCTUnwrap(planned["stack"])
        XCTAssertEqual(nested["id"], "cards")
        // The cards in the row's content coordinates: the same at both ends (the row only moves).
        let cards: JSON = .array([object(("id", "c1"), ("frame", object(("x", 0), ("y", 0), ("width", 240), ("height", 224)))),
                                  object(("id", "c2"), ("frame", object(("x", 252), ("y", 0), ("width", 240), ("height", 224))))])
        XCTAssertEqual(nested["from"], cards)
        XCTAssertEqual(nested["to"], cards)
        // With fps, the keyframes are the host's; the nested rows ride on their row.
        let sampled = try server.request("DELETE", "/v1/stacks/feed/rows/banner?fps=10")
        XCTAssertEqual(sampled.status, 200, sampled.text)
        XCTAssertNotNil(sampled["transition.keyframes"])
        XCTAssertEqual(sampled["transition.rows"]?.arrayValue?.first { $0["id"] == "carousel" }?["stack"]?["id"], "cards")
    }

    func testAPlannedChangeOfAFitSectionAnswersItsHostsPlansToo() throws {
        try create("""
            {"id": "section", "rowInsets": {"top": 0, "left": 0, "bottom": 0, "right": 0},
             "rows": [{"id": "a", "view": {"type": "V"}, "size": {"fixed": 100}}, {"id": "b", "view": {"type": "V"}, "size": {"fixed": 50}}]}
            """)
        try create("""
            {"id": "feed", "rowInsets": {"top": 0, "left": 0, "bottom": 0, "right": 0},
             "rows": [{"id": "head", "view": {"type": "V"}, "size": {"fixed": 60}}, {"id": "sec", "stack": "section", "size": "fit"},
                      {"id": "tail", "view": {"type": "V"}, "size": {"fixed": 60}}]}
            """)
        let grown = try server.request("POST", "/v1/stacks/section/rows", json: try j("""
            {"at": "top", "rows": [{"id": "c", "view": {"type": "V"}, "size": {"fixed": 70}}], "animation": {"duration": 0.4}}
            """))
        XCTAssertEqual(grown.status, 200, grown.text)
        XCTAssertEqual(grown["transition.rows[0].id"], "c")
        let hosts = try XCTUnwrap(grown["hostTransitions"]?.arrayValue)
        XCTAssertEqual(hosts.count, 1)
        XCTAssertEqual(hosts[0]["stack"], "feed")
        XCTAssertEqual(hosts[0]["revision"], 2)
        XCTAssertEqual(hosts[0]["transition"]?["timing"], grown["transition.timing"], "the two plans play together")
        let rows = try XCTUnwrap(hosts[0]["transition"]?["rows"]?.arrayValue)
        let sec = try XCTUnwrap(rows.first { $0["id"] == "sec" })
        XCTAssertEqual(sec["from"]?["frame"]?["height"], 150)
        XCTAssertEqual(sec["to"]?["frame"]?["height"], 220)
        let tail = try XCTUnwrap(rows.first { $0["id"] == "tail" })
        XCTAssertEqual(tail["from"]?["frame"]?["y"], 210)
        XCTAssertEqual(tail["to"]?["frame"]?["y"], 280)
        // Unplanned, the host still follows, and the answer names no host plan.
        let plain = try server.request("POST", "/v1/stacks/section/rows", json: try j(#"{"rows": [{"id": "d", "view": {"type": "V"}, "size": {"fixed": 10}}]}"#))
        XCTAssertNil(plain["hostTransitions"])
        XCTAssertEqual(try server.request("GET", "/v1/stacks/feed")["revision"], 3)
    }

    func testAPlannedChangeAnswersTheHostsOfItsHostsInOrder() throws {
        let insets = #""rowInsets": {"top": 0, "left": 0, "bottom": 0, "right": 0}"#
        try create(#"{"id": "inner", \#(insets), "rows": [{"id": "a", "view": {"type": "V"}, "size": {"fixed": 40}}]}"#)
        try create(#"{"id": "middle", \#(insets), "rows": [{"id": "top", "view": {"type": "V"}, "size": {"fixed": 10}}, {"id": "in", "stack": "inner", "size": "fit"}]}"#)
        try create(#"{"id": "outer", \#(insets), "rows": [{"id": "mid", "stack": "middle", "size": "fit"}, {"id": "end", "view": {"type": "V"}, "size": {"fixed": 20}}]}"#)
        let grown = try server.request("POST", "/v1/stacks/inner/rows", json: try j("""
            {"rows": [{"id": "b", "view": {"type": "V"}, "size": {"fixed": 25}}], "animation": {"duration": 0.3}}
            """))
        XCTAssertEqual(grown.status, 200, grown.text)
        let hosts = try XCTUnwrap(grown["hostTransitions"]?.arrayValue)
        // The host first, then its own host, each at the revision its refresh made.
        XCTAssertEqual(hosts.map { $0["stack"] }, ["middle", "outer"])
        XCTAssertEqual(hosts.map { $0["revision"] }, [2, 2])
        for host in hosts {
            XCTAssertEqual(host["transition"]?["revision"], host["revision"])
            XCTAssertEqual(host["transition"]?["timing"], grown["transition.timing"], "every plan plays together")
        }
        let middleRow = try XCTUnwrap(hosts[0]["transition"]?["rows"]?.arrayValue?.first { $0["id"] == "in" })
        XCTAssertEqual(middleRow["from"]?["frame"]?["height"], 40)
        XCTAssertEqual(middleRow["to"]?["frame"]?["height"], 65)
        let end = try XCTUnwrap(hosts[1]["transition"]?["rows"]?.arrayValue?.first { $0["id"] == "end" })
        XCTAssertEqual(end["from"]?["frame"]?["y"], 50)
        XCTAssertEqual(end["to"]?["frame"]?["y"], 75)
        // The plan kept with the outer host's revision is the one answered (less the nested
        // rows, which only a write's answer carries).
        let kept = try server.request("GET", "/v1/stacks/outer/transitions/2")
        XCTAssertEqual(kept.status, 200, kept.text)
        let answered = try XCTUnwrap(hosts[1]["transition"]?["rows"]?.arrayValue)
        XCTAssertEqual(kept["rows"]?.arrayValue?.map { [$0["id"], $0["from"], $0["to"]] }, answered.map { [$0["id"], $0["from"], $0["to"]] })
        XCTAssertEqual(answered.first { $0["id"] == "mid" }?["stack"]?["id"], "middle")
    }

    func testAPutCarriesItsEmbeddedStacksInlineCreatingOrReplacing() throws {
        let shelf = #"{"id": "shelf", "axis": "horizontal", "rows": [{"id": "k1", "view": {"type": "Card"}, "size": {"fixed": 100}}]}"#
        // Creating: every stack of the body at once.
        let made = try server.request("PUT", "/v1/stacks/screen", json: try j(#"{"rows": [{"id": "row", "size": {"fixed": 120}, "stack": \#(shelf)}]}"#))
        XCTAssertEqual(made.status, 201, made.text)
        XCTAssertEqual(made["rows[0].stack"], "shelf")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/shelf/rows/k1").status, 200)
        // Replacing: a new inline stack is created and embedded; a fit row measures it.
        let list = #"{"id": "list", "rowInsets": {"top": 0, "left": 0, "bottom": 0, "right": 0}, "rows": [{"id": "i1", "view": {"type": "V"}, "size": {"fixed": 30}}]}"#
        let replaced = try server.request("PUT", "/v1/stacks/screen", json: try j("""
            {"rows": [{"id": "row", "size": {"fixed": 120}, "stack": "shelf"}, {"id": "more", "size": "fit", "stack": \(list)}]}
            """))
        XCTAssertEqual(replaced.status, 200, replaced.text)
        XCTAssertEqual(replaced["revision"], 2)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/list")["revision"], 1)
        XCTAssertEqual(try heights("screen")["more"], 30 + 24)
        // An inline id that is taken (and embedded) is 409 naming it; nothing changes.
        let taken = try server.request("PUT", "/v1/stacks/screen", json: try j(#"{"rows": [{"id": "row", "size": {"fixed": 120}, "stack": \#(shelf)}]}"#))
        XCTAssertEqual(taken.status, 409, taken.text)
        XCTAssertEqual(taken.errorField, "rows[0].stack.id")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/screen")["revision"], 2)
        // A replacement that fails deletes the stacks it created.
        let stale = try server.request("PUT", "/v1/stacks/screen", json: try j(#"{"rows": [{"id": "x", "size": {"fixed": 1}, "stack": {"id": "orphan"}}]}"#),
                                       headers: [("If-Match", "\"1\"")])
        XCTAssertEqual(stale.status, 412, stale.text)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/orphan").status, 404, "created for the replacement, deleted with its failure")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/screen")["revision"], 2)
        // Tried again after a first try created an inline stack and stopped: the stack, as the
        // body gives it and embedded by nothing, is taken as it is.
        try create(#"{"id": "leftover", "rows": [{"id": "l1", "view": {"type": "V"}, "size": {"fixed": 10}}]}"#)
        let again = try server.request("PUT", "/v1/stacks/screen", json: try j("""
            {"rows": [{"id": "row", "size": {"fixed": 120}, "stack": {"id": "leftover", "rows": [{"id": "l1", "view": {"type": "V"}, "size": {"fixed": 10}}]}}]}
            """))
        XCTAssertEqual(again.status, 200, again.text)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/leftover")["revision"], 1)
        XCTAssertEqual(try server.request("DELETE", "/v1/stacks/leftover").status, 409, "embedded now")
    }

    /// Reads Server-Sent Events: (event name, id, data) of each message.
    final class NamedEventReader {
        let connection: TestHTTPConnection
        private var buffer = ""

        init(port: Int, stack: String, lastEventID: Int? = nil) throws {
            connection = try TestHTTPConnection(port: port, timeout: 10)
            var request = "GET /v1/stacks/\(stack)/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n"
            if let lastEventID { request += "Last-Event-ID: \(lastEventID)\r\n" }
            try connection.sendRaw(Array((request + "\r\n").utf8))
            let (status, _) = try connection.readHead()
            guard status == 200 else { throw TestHTTPError(description: "not an event stream: \(status)") }
        }

        /// The next message (heartbeats skipped), or nil when the server ends the stream.
        func next() throws -> (event: String?, id: Int?, data: JSON)? {
            while true {
                if let end = buffer.range(of: "\n\n") {
                    let message = String(buffer[..<end.lowerBound])
                    buffer.removeSubrange(..<end.upperBound)
                    var event: String?, id: Int?, data = ""
                    for line in message.split(separator: "\n") {
                        if line.hasPrefix("event: ") { event = String(line.dropFirst(7)) }
                        if line.hasPrefix("id: ") { id = Int(line.dropFirst(4)) }
                        if line.hasPrefix("data: ") { data += line.dropFirst(6) }
                    }
                    if data.isEmpty { continue }
                    return (event, id, try JSON.parse(data))
                }
                guard let chunk = try connection.readChunk() else { return nil }
                buffer += String(decoding: chunk, as: UTF8.self)
            }
        }
    }

    func testAHostsLiveEventsRelayTheRevisionsOfEveryStackOfItsTreeWithTheirPath() throws {
        try makeNewsScreen()
        try create(#"{"id": "badge", "rows": [{"id": "dot", "view": {"type": "Dot"}, "size": {"fixed": 8}}]}"#)
        XCTAssertEqual(try server.request("POST", "/v1/stacks/cards/rows", json: try j(#"{"rows": [{"id": "c4", "stack": "badge", "size": {"fixed": 40}}]}"#)).status, 200)
        let reader = try NamedEventReader(port: server.port, stack: "feed")
        // A change of the carousel: relayed, named `embedded`, without an id, with its path.
        XCTAssertEqual(try server.request("PATCH", "/v1/stacks/cards/rows/c1", json: try j(#"{"size": {"fixed": 100}}"#)).status, 200)
        let relayed = try XCTUnwrap(try reader.next())
        XCTAssertEqual(relayed.event, "embedded")
        XCTAssertNil(relayed.id, "the client's Last-Event-ID stays the host's revision")
        XCTAssertEqual(relayed.data["path"], .array([object(("stack", "feed"), ("row", "carousel"))]))
        XCTAssertEqual(relayed.data["stack"], "cards")
        XCTAssertEqual(relayed.data["revision"], 3)
        XCTAssertEqual(relayed.data["events"]?.arrayValue?.contains { $0["type"] == "rowResized" && $0["id"] == "c1" }, true, String(decoding: relayed.data.serialized(), as: UTF8.self))
        // Two levels down: the badge the carousel's row embeds.
        XCTAssertEqual(try server.request("POST", "/v1/stacks/badge/scroll", json: try j(#"{"offset": {"x": 0, "y": 2}}"#)).status, 200)
        let deeper = try XCTUnwrap(try reader.next())
        XCTAssertEqual(deeper.data["path"], .array([object(("stack", "feed"), ("row", "carousel")), object(("stack", "cards"), ("row", "c4"))]))
        XCTAssertEqual(deeper.data["stack"], "badge")
        // The host's own revisions keep their id and no name.
        XCTAssertEqual(try server.request("POST", "/v1/stacks/feed/rows", json: try j(#"{"rows": [{"id": "more", "view": {"type": "V"}, "size": {"fixed": 10}}]}"#)).status, 200)
        let own = try XCTUnwrap(try reader.next())
        XCTAssertNil(own.event)
        XCTAssertEqual(own.id, 2)
        // A write that changes what the tree embeds ends the stream; reconnecting from the
        // last id follows the new tree.
        XCTAssertEqual(try server.request("DELETE", "/v1/stacks/cards/rows/c4").status, 200)
        XCTAssertNil(try reader.next(), "the stream ended")
        let again = try NamedEventReader(port: server.port, stack: "feed", lastEventID: 2)
        XCTAssertEqual(try server.request("POST", "/v1/stacks/badge/scroll", json: try j(#"{"offset": {"x": 0, "y": 4}}"#)).status, 200)
        XCTAssertEqual(try server.request("POST", "/v1/stacks/cards/scroll", json: try j(#"{"offset": {"x": 10, "y": 0}}"#)).status, 200)
        let next = try XCTUnwrap(try again.next())
        XCTAssertEqual(next.data["stack"], "cards", "the badge is no longer in the tree: its change is not relayed")
        XCTAssertEqual(next.data["revision"], 5)
    }

    /// A chain of 17 stacks, each embedding the next in 16 rows, holds about 16¹⁶ rows: a
    /// count that a product wrapping past 2⁶⁴ would take for 16 (the extra plain rows make the
    /// wrapped sum exactly that). The count saturates instead, and the layout is refused.
    func testACountPastSixtyFourBitsSaturatesAndIsRefused() throws {
        let plain = #"{"view": {"type": "A"}, "size": {"fixed": 1}}"#
        for level in stride(from: 17, through: 1, by: -1) {
            let extra = level == 17 ? 16 : level <= 2 ? 0 : level == 3 ? 15 : 14
            var rows = Array(repeating: plain, count: extra)
            if level < 17 { rows += Array(repeating: #"{"stack": "s\#(level + 1)", "size": {"fixed": 1}}"#, count: 16) }
            try create(#"{"id": "s\#(level)", "viewport": {"width": 100, "height": 100}, "rowInsets": {"top": 0, "left": 0, "bottom": 0, "right": 0}, "rows": [\#(rows.joined(separator: ", "))]}"#)
        }
        for path in ["/v1/stacks/s1/layout", "/v1/stacks/s1/layout.svg", "/v1/stacks/s2/layout"] {
            let refused = try server.request("GET", path)
            XCTAssertEqual(refused.status, 422, "\(path): \(refused.text.prefix(300))")
            XCTAssertEqual(refused.errorCode, "work_budget_exceeded", path)
            XCTAssertEqual(refused.errorField, "depth", path)
        }
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s1/layout?depth=2").status, 200, "two levels, 8,208 rows, are within the budget")
    }

    func testATreeTooBigForOneRequestIsRefusedNamingDepth() throws {
        server.stop()
        var limits = ServiceLimits()
        limits.composedLayoutRows = 100
        server = try ServerHarness(service: StackService(limits: limits))
        let cards = (0..<30).map { #"{"id": "c\#($0)", "view": {"type": "V"}, "size": {"fixed": 10}}"# }.joined(separator: ", ")
        try create(#"{"id": "cards", "rows": [\#(cards)]}"#)
        let rows = (0..<4).map { #"{"id": "e\#($0)", "stack": "cards", "size": {"fixed": 10}}"# }.joined(separator: ", ")
        try create(#"{"id": "feed", "rows": [\#(rows)]}"#)
        let refused = try server.request("GET", "/v1/stacks/feed/layout")
        XCTAssertEqual(refused.status, 422, refused.text)
        XCTAssertEqual(refused.errorCode, "work_budget_exceeded")
        XCTAssertEqual(refused.errorField, "depth")
        let drawing = try server.request("GET", "/v1/stacks/feed/layout.svg")
        XCTAssertEqual(drawing.status, 422, drawing.text)
        XCTAssertEqual(drawing.errorField, "depth", "a picture follows the tree within the same budget")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/feed/layout?depth=0").status, 200, "the stack alone is within the budget")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/cards/layout").status, 200)
    }
}
