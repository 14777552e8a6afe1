import Foundation
import JSONCodec
import ScrollStackService
import ScrollStackStore
import XCTest

/// Parchment's `PagingOptions.menuTransition` over HTTP: `scrollAlongside` (the default) lays
/// the menu out at the content's progress, `animateAfter` keeps it on the current item while
/// the content is part-way and so answers the current page's at-rest menu; echoed, strictly
/// checked and kept across a restart like the other menu settings.
///
/// Five full-width pages of 375 (page k rests at 375·k) under a 375-wide menu of fixed items
/// 100 wide: the content is 500 wide, so the menu scrolls (`preferCentered`: item k centred,
/// clamped to 0…125, gives the offsets 0, 0, 62.5, 125, 125) and item k's indicator is at
/// x = 100·k (the end items less the 8-point insets).
final class MenuTransitionTests: XCTestCase {
    var server: ServerHarness!

    override func setUpWithError() throws { server = try ServerHarness() }
    override func tearDown() { server.stop() }

    func j(_ text: String) throws -> JSON { try JSON.parse(Array(text.utf8)) }

    /// The carousel's create body with `members` (JSON members, without braces) in its menu.
    static func body(_ members: String) -> String {
        MenuCarousel.body(pages: 5, menu: members)
    }

    func create(_ members: String = "", on server: ServerHarness? = nil) throws -> Reply {
        try (server ?? self.server).request("POST", "/v1/stacks", json: try j(Self.body(members)))
    }

    func patch(_ menu: String) throws -> Reply {
        try server.request("PATCH", "/v1/stacks/c", json: try j(#"{"menu": {\#(menu)}}"#))
    }

    /// The layout answer at `offset` along x.
    func layout(at offset: Double, file: StaticString = #filePath, line: UInt = #line) throws -> Reply {
        let reply = try server.request("GET", "/v1/stacks/c/layout?offset=\(offset)")
        XCTAssertEqual(reply.status, 200, reply.text, file: file, line: line)
        XCTAssertNotNil(reply["menu"], reply.text, file: file, line: line)
        return reply
    }

    func assertX(_ value: JSON?, _ x: Double, _ width: Double, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(value?["x"]?.doubleValue ?? .nan, x, accuracy: 1e-9, "\(String(describing: value))", file: file, line: line)
        XCTAssertEqual(value?["width"]?.doubleValue ?? .nan, width, accuracy: 1e-9, "\(String(describing: value))", file: file, line: line)
    }

    /// PagingOptions.menuTransition defaults to `.scrollAlongside`; the setting is answered with
    /// the menu's other settings, set by a PATCH and kept when another menu member changes.
    func testMenuTransitionDefault_isScrollAlongsideAndEchoed() throws {
        let created = try create()
        XCTAssertEqual(created.status, 201, created.text)
        XCTAssertEqual(created["menu.menuTransition"]?.stringValue, "scrollAlongside", created.text)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/c")["menu.menuTransition"]?.stringValue, "scrollAlongside")
        let patched = try patch(#""menuTransition": "animateAfter""#)
        XCTAssertEqual(patched.status, 200, patched.text)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/c")["menu.menuTransition"]?.stringValue, "animateAfter")
        XCTAssertEqual(try patch(#""itemSpacing": 2"#).status, 200)
        let stack = try server.request("GET", "/v1/stacks/c")
        XCTAssertEqual(stack["menu.menuTransition"]?.stringValue, "animateAfter", "kept when another member changes")
        XCTAssertEqual(stack["menu.itemSpacing"], 2)
        let created2 = try server.request("POST", "/v1/stacks", json: try j(Self.body(#""menuTransition": "animateAfter""#).replacingOccurrences(of: #""id": "c""#, with: #""id": "d""#)))
        XCTAssertEqual(created2.status, 201, created2.text)
        XCTAssertEqual(created2["menu.menuTransition"]?.stringValue, "animateAfter")
    }

    /// PagingController.updateScrollingState with `.animateAfter`: the menu is neither scrolled
    /// nor re-laid out while the content scrolls, so part-way between pages the menu answer is
    /// the current page's at-rest one (its offset, indicator, items' progress and colours, as if
    /// the progress were the current page), while the paging member still reads the content's
    /// progress. The current page is the nearest one: at 1.3 it is page 1, at 1.7 page 2.
    func testMenuTransitionAnimateAfter_menuStaysWhileContentScrolls() throws {
        XCTAssertEqual(try create(#""menuTransition": "animateAfter""#).status, 201)
        let restOn1 = try layout(at: 375)
        let restOn2 = try layout(at: 750)
        let partWay = try layout(at: 487.5)
        XCTAssertEqual(partWay["paging.progress"]?.doubleValue ?? .nan, 1.3, accuracy: 1e-9, "the content's progress is unchanged")
        XCTAssertEqual(partWay["paging.currentPage"], 1)
        XCTAssertEqual(partWay["menu"], restOn1["menu"], partWay.text)
        assertX(partWay["menu.indicator"], 100, 100)
        XCTAssertEqual(partWay["menu.contentOffset.x"], 0)
        XCTAssertEqual(partWay["menu.items[1].progress"], 1)
        XCTAssertEqual(partWay["menu.items[1].textColor"]?.stringValue, "#037DE9FF")
        XCTAssertEqual(partWay["menu.items[2].progress"], 0)
        XCTAssertEqual(partWay["menu.items[2].textColor"]?.stringValue, "#000000FF")
        // Past half-way the nearest page is 2: the menu answers page 2 at rest.
        let pastHalf = try layout(at: 637.5)
        XCTAssertEqual(pastHalf["paging.currentPage"], 2)
        XCTAssertEqual(pastHalf["menu"], restOn2["menu"], pastHalf.text)
        assertX(pastHalf["menu.indicator"], 200, 100)
        XCTAssertEqual(pastHalf["menu.contentOffset.x"], 62.5)
        // Overscrolled before the first page: the first item stays wholly selected.
        XCTAssertEqual(try layout(at: -60)["menu"], try layout(at: 0)["menu"])
    }

    /// PagingOptions.menuTransition `.scrollAlongside` (the default): part-way the menu follows
    /// the content, 0.3 of the way from item 1 to item 2: the indicator at 100 + 0.3·100, the
    /// offset 0.3 of 0 → 62.5, item 1's progress 0.7 and item 2's 0.3; not the at-rest answer.
    func testMenuTransitionScrollAlongside_menuFollowsContentProgress() throws {
        XCTAssertEqual(try create().status, 201)
        let restOn1 = try layout(at: 375)
        let partWay = try layout(at: 487.5)
        XCTAssertNotEqual(partWay["menu"], restOn1["menu"])
        assertX(partWay["menu.indicator"], 130, 100)
        XCTAssertEqual(partWay["menu.contentOffset.x"]?.doubleValue ?? .nan, 18.75, accuracy: 1e-9)
        XCTAssertEqual(partWay["menu.items[1].progress"]?.doubleValue ?? .nan, 0.7, accuracy: 1e-9)
        XCTAssertEqual(partWay["menu.items[2].progress"]?.doubleValue ?? .nan, 0.3, accuracy: 1e-9)
        XCTAssertEqual(partWay["menu.progress"]?.doubleValue ?? .nan, 1.3, accuracy: 1e-9)
        // Naming the default explicitly answers the same.
        XCTAssertEqual(try patch(#""menuTransition": "scrollAlongside""#).status, 200)
        XCTAssertEqual(try layout(at: 487.5)["menu"], partWay["menu"])
    }

    /// PagingController.contentFinishedScrolling: once paging settles on a page the menu is
    /// where `.scrollAlongside` has it, so at rest both transitions answer the same menu.
    func testMenuTransitionAnimateAfter_atRestMatchesScrollAlongside() throws {
        XCTAssertEqual(try create().status, 201)
        let offsets: [Double] = [0, 375, 750, 1125, 1500]
        let along = try offsets.map { try layout(at: $0)["menu"] }
        XCTAssertEqual(try patch(#""menuTransition": "animateAfter""#).status, 200)
        for (offset, expected) in zip(offsets, along) {
            XCTAssertEqual(try layout(at: offset)["menu"], expected, "at \(offset)")
        }
    }

    /// The SVG draws the menu from the same layout: with `animateAfter`, part-way between pages 1
    /// and 2 only item 1's title is in the selected colour (the others black, none in between),
    /// and the indicator moves with the viewport alone (112.5, the content's scroll), not the
    /// 30 − 18.75 more it moves scrolling alongside.
    func testMenuTransitionAnimateAfter_pictureDrawsTheCurrentPagesMenu() throws {
        XCTAssertEqual(try create().status, 201)
        func svg(_ offset: Double) throws -> String {
            let reply = try server.request("GET", "/v1/stacks/c/layout.svg?offset=\(offset)")
            XCTAssertEqual(reply.status, 200, reply.text)
            return reply.text
        }
        func indicatorX(_ svg: String) throws -> Double {
            let start = try XCTUnwrap(svg.range(of: "<rect class=\"menu-indicator\""), svg)
            let x = try XCTUnwrap(svg[start.upperBound...].range(of: " x=\""))
            let rest = svg[x.upperBound...]
            return try XCTUnwrap(Double(rest[..<(try XCTUnwrap(rest.firstIndex(of: "\"")))]))
        }
        func titles(_ svg: String, _ fill: String) -> Int {
            svg.components(separatedBy: "<g class=\"text\" fill=\"\(fill)\" fill-opacity=\"1\">").count - 1
        }
        let along = try svg(487.5)
        XCTAssertEqual(try indicatorX(along) - indicatorX(try svg(375)), 123.75, accuracy: 1e-6)
        XCTAssertEqual(titles(along, "#037DE9"), 0, "scrolling alongside: item 1 and 2 are in between")
        XCTAssertEqual(try patch(#""menuTransition": "animateAfter""#).status, 200)
        let after = try svg(487.5)
        XCTAssertEqual(try indicatorX(after) - indicatorX(try svg(375)), 112.5, accuracy: 1e-6)
        XCTAssertEqual(titles(after, "#037DE9"), 1, after)
        // The others that show in the menu's frame (one is scrolled out of it, so not drawn).
        XCTAssertEqual(titles(after, "#000000"), 3, after)
    }

    /// Strict decoding: only the two transitions are accepted, named as the error's field; a
    /// refused PATCH changes nothing.
    func testMenuTransition_badValueNamesTheField() throws {
        let bad = try create(#""menuTransition": "animate""#)
        XCTAssertEqual(bad.status, 422, bad.text)
        XCTAssertEqual(bad.errorField, "menu.menuTransition")
        XCTAssertEqual(bad["error.code"]?.stringValue, "invalid_value")
        let wrong = try create(#""menuTransition": true"#)
        XCTAssertEqual(wrong.status, 422, wrong.text)
        XCTAssertEqual(wrong.errorField, "menu.menuTransition")
        XCTAssertEqual(wrong["error.code"]?.stringValue, "wrong_type")
        XCTAssertEqual(try create().status, 201)
        let refused = try patch(#""menuTransition": "ScrollAlongside""#)
        XCTAssertEqual(refused.status, 422, refused.text)
        XCTAssertEqual(refused.errorField, "menu.menuTransition")
        let stack = try server.request("GET", "/v1/stacks/c")
        XCTAssertEqual(stack["revision"], 1, "nothing changed")
        XCTAssertEqual(stack["menu.menuTransition"]?.stringValue, "scrollAlongside")
    }

    /// The transition is journaled with the settings and kept in snapshots: after a restart the
    /// stack and its part-way layouts (now and at an older revision) are the same, byte for byte.
    func testMenuTransition_survivesARestart() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ssmenutransition-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("journal.sqlite").path
        let targets = ["/v1/stacks/c", "/v1/stacks/c/layout?offset=487.5", "/v1/stacks/c/layout?revision=2&offset=487.5",
                       "/v1/stacks/c/layout?revision=3&offset=487.5"]
        var before: [Reply] = []
        do {
            // A snapshot every 2 revisions: the restart reads settings from a snapshot and replays the rest.
            let first = try ServerHarness(service: StackService(journal: try StackJournal(path: path, snapshotInterval: 2)))
            XCTAssertEqual(try create(on: first).status, 201)
            for body in [#"{"menu": {"menuTransition": "animateAfter"}}"#, #"{"menu": {"itemSpacing": 4}}"#,
                         ##"{"menu": {"indicatorColor": "#123456"}}"##] {
                let patched = try first.request("PATCH", "/v1/stacks/c", json: try j(body))
                XCTAssertEqual(patched.status, 200, patched.text)
            }
            before = try targets.map { try first.request("GET", $0) }
            first.stop()
        }
        let service = StackService(journal: try StackJournal(path: path, snapshotInterval: 2))
        XCTAssertEqual(try service.restore(), 1)
        let restarted = try ServerHarness(service: service)
        defer { restarted.stop() }
        for (target, old) in zip(targets, before) {
            let new = try restarted.request("GET", target)
            XCTAssertEqual(new.status, 200, target)
            XCTAssertTrue(new.body == old.body, target)
        }
        XCTAssertEqual(try restarted.request("GET", "/v1/stacks/c")["menu.menuTransition"]?.stringValue, "animateAfter")
        let current = try restarted.request("GET", "/v1/stacks/c/layout?offset=487.5")
        XCTAssertEqual(current["menu.items[1].progress"], 1, "animateAfter after the restart")
        let old = try restarted.request("GET", "/v1/stacks/c/layout?revision=1&offset=487.5")
        XCTAssertEqual(old["menu.items[1].progress"]?.doubleValue ?? .nan, 0.7, accuracy: 1e-9, "revision 1 scrolled alongside")
    }
}
