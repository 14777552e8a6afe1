import Foundation
import JSONCodec
import XCTest

// Audit against upstream (rechsteiner/Parchment, ParchmentTests/): every test of
// PagingCollectionViewLayoutTests (17), PagingIndicatorLayoutAttributesTests (2),
// PagingStateTests (8) and PagingControllerTests (28) is translated below, except these,
// which check no frame, offset, size, progress or selection of their own:
// - PagingControllerTests.contentScrolledSizeDelegate: only that the collection view layout
//   is invalidated with `invalidateSizes: true` (a UIKit invalidation call); a layout answer
//   is computed whole at every offset, and the widths re-measured while scrolling are
//   checked by PagingCollectionViewLayoutTests.cellFramesForSizeDelegateWhenScrollingToItem.
// - PagingControllerTests.selectWhileEmptyAndNoSuperview, selectWhileEmptyAndNoWindow: a
//   collection view outside a view hierarchy defers its reload and layout calls (UIKit
//   plumbing); the selection they check is selectWhileEmpty's.
// - PagingControllerTests.contentFinishedScrollingCollectionViewBeingDragged: no call is made
//   while the user drags the menu's own collection view; a menu here is never dragged on its
//   own (it follows the stack's offset), so there is no such state to hold calls back in.
// Parts left out of translated tests: PagingIndicatorLayoutAttributesTests.configure's colour
// and z-index; PagingControllerTests' delegate and mock-call bookkeeping (reloadData,
// removeContent, invalidateLayout), whose geometric effect is what the translations check.
// Where the service deliberately differs from upstream, the test asserts the service's value
// and names the row of Docs/Semantics.md's table "Upstream rules: followed, changed, not
// reproduced" that says why.

/// Parchment's own geometry tests, translated to HTTP: each test is named
/// `test<UpstreamSuite>_<upstreamTest>` and asserts the values the upstream test asserts.
///
/// The translation: the upstream menu is as wide as the screen (375 here: the viewport's
/// width), its collection view lays out `Item(index: 0…2)` (three pages of 375 here), and a
/// layout `state` becomes an offset: `.selected(Item(index: k))` is page k's stop (375·k) and
/// `.scrolling(k → k+1, progress p)` is 375·(k + p). Upstream's self-sizing cells and size
/// delegate give widths a menu here takes from titles' `width` and `selectedWidth`.
/// Colours (`backgroundColor == .green`) and z-indexes are not part of a layout answer and
/// are not translated.
final class UpstreamParchmentTests: XCTestCase {
    var server: ServerHarness!

    override func setUpWithError() throws { server = try ServerHarness() }
    override func tearDown() { server.stop() }

    func j(_ text: String) throws -> JSON { try JSON.parse(Array(text.utf8)) }

    /// A carousel of `pages` pages `pageWidth` wide in a viewport as wide, with `menu`.
    func carousel(_ menu: String, pages: Int = 3, pageWidth: Double = 375, titles: [String?] = [],
                  file: StaticString = #filePath, line: UInt = #line) throws {
        let rows = (0..<pages).map { i -> String in
            let title = i < titles.count ? titles[i].map { #", "title": \#($0)"# } ?? "" : ""
            return #"{"id": "p\#(i)", "view": {"type": "Page"}, "size": {"fixed": \#(pageWidth)}\#(title)}"#
        }.joined(separator: ", ")
        let body = """
            {"id": "c", "axis": "horizontal", "viewport": {"width": \(pageWidth), "height": 500},
             "rowInsets": {"top": 0, "left": 0, "bottom": 0, "right": 0},
             "paging": {"size": {"fraction": 1}}, "menu": \(menu), "rows": [\(rows)]}
            """
        let reply = try server.request("POST", "/v1/stacks", json: try j(body))
        XCTAssertEqual(reply.status, 201, reply.text, file: file, line: line)
    }

    func layout(at offset: Double, file: StaticString = #filePath, line: UInt = #line) throws -> Reply {
        let reply = try server.request("GET", "/v1/stacks/c/layout?offset=\(offset)")
        XCTAssertEqual(reply.status, 200, reply.text, file: file, line: line)
        return reply
    }

    typealias R = (x: Double, y: Double, width: Double, height: Double)

    func rect(_ json: JSON?) -> R? {
        guard let json, let x = json["x"]?.doubleValue, let y = json["y"]?.doubleValue,
              let w = json["width"]?.doubleValue, let h = json["height"]?.doubleValue else { return nil }
        return (x, y, w, h)
    }

    func assertRects(_ actual: [R?], _ expected: [R], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(actual.count, expected.count, file: file, line: line)
        for (a, e) in zip(actual, expected) {
            guard let a else { XCTFail("missing rect", file: file, line: line); continue }
            XCTAssertTrue(abs(a.x - e.x) < 1e-9 && abs(a.y - e.y) < 1e-9 && abs(a.width - e.width) < 1e-9 && abs(a.height - e.height) < 1e-9,
                          "\(a) is not \(e)", file: file, line: line)
        }
    }

    func cellFrames(at offset: Double = 0, file: StaticString = #filePath, line: UInt = #line) throws -> [R?] {
        let reply = try layout(at: offset, file: file, line: line)
        return (reply["menu.items"]?.arrayValue ?? []).map { rect($0["frame"]) }
    }

    // MARK: PagingCollectionViewLayoutTests

    func testPagingCollectionViewLayoutTests_cellFramesForItemSizeFixed() throws {
        try carousel(#"{"itemSize": {"fixed": {"width": 100, "height": 50}}}"#)
        assertRects(try cellFrames(), [(0, 0, 100, 50), (100, 0, 100, 50), (200, 0, 100, 50)])
    }

    func testPagingCollectionViewLayoutTests_cellFramesForItemSizeToFit() throws {
        try carousel(#"{"itemSize": {"sizeToFit": {"minWidth": 10, "height": 50}}, "horizontalAlignment": "center"}"#)
        let w = 375.0 / 3
        assertRects(try cellFrames(), [(0, 0, w, 50), (w, 0, w, 50), (w * 2, 0, w, 50)])
    }

    func testPagingCollectionViewLayoutTests_cellFramesForItemSizeToFitWhenMinWidthExtendsOutside() throws {
        try carousel(#"{"itemSize": {"sizeToFit": {"minWidth": 375, "height": 50}}, "horizontalAlignment": "center"}"#)
        assertRects(try cellFrames(), [(0, 0, 375, 50), (375, 0, 375, 50), (750, 0, 375, 50)])
    }

    func testPagingCollectionViewLayoutTests_cellFramesForItemSizeToFitWhenUsingSizeDelegate() throws {
        let title = #"{"text": "T", "width": 50}"#
        try carousel(#"{"itemSize": {"sizeToFit": {"minWidth": 10, "height": 50}}}"#, titles: [title, title, title])
        assertRects(try cellFrames(), [(0, 0, 50, 50), (50, 0, 50, 50), (100, 0, 50, 50)])
    }

    /// Upstream's cells prefer (index + 1)·50 points; here the titles give those widths.
    func testPagingCollectionViewLayoutTests_cellFramesForItemSizeSelfSizing() throws {
        try carousel(#"{"itemSize": {"selfSizing": {"estimatedWidth": 0, "height": 50}}}"#,
                     titles: [#"{"width": 50}"#, #"{"width": 100}"#, #"{"width": 150}"#])
        assertRects(try cellFrames(), [(0, 0, 50, 50), (50, 0, 100, 50), (150, 0, 150, 50)])
    }

    /// The size delegate answers 100 when selected and 50 otherwise.
    func testPagingCollectionViewLayoutTests_cellFramesForSizeDelegate() throws {
        let title = #"{"width": 50, "selectedWidth": 100}"#
        try carousel(#"{"itemSize": {"fixed": {"width": 0, "height": 50}}}"#, titles: [title, title, title])
        assertRects(try cellFrames(), [(0, 0, 100, 50), (100, 0, 50, 50), (150, 0, 50, 50)])
    }

    /// `.scrolling(0 → 1, progress 0.5)`: half way from page 0 to page 1.
    func testPagingCollectionViewLayoutTests_cellFramesForSizeDelegateWhenScrollingToItem() throws {
        let title = #"{"width": 50, "selectedWidth": 100}"#
        try carousel(#"{"itemSize": {"fixed": {"width": 0, "height": 50}}}"#, titles: [title, title, title])
        assertRects(try cellFrames(at: 187.5), [(0, 0, 75, 50), (75, 0, 75, 50), (150, 0, 50, 50)])
    }

    func testPagingCollectionViewLayoutTests_cellFramesForHorizontalMenuAlignment() throws {
        try carousel(#"{"itemSize": {"fixed": {"width": 10, "height": 50}}, "horizontalAlignment": "center"}"#)
        let inset = (375.0 - 30) / 2
        assertRects(try cellFrames(), [(inset, 0, 10, 50), (10 + inset, 0, 10, 50), (20 + inset, 0, 10, 50)])
    }

    func testPagingCollectionViewLayoutTests_cellFramesForSelectedScrollPositionCentered() throws {
        let width = 375.0 / 2
        try carousel(#"{"itemSize": {"fixed": {"width": \#(width), "height": 50}}, "selectedScrollPosition": "center"}"#)
        let inset = 375.0 / 2 - width / 2
        assertRects(try cellFrames(), [(inset, 0, width, 50), (inset + width, 0, width, 50), (inset + width * 2, 0, width, 50)])
    }

    static let zeroIndicator = #""indicator": {"height": 10, "spacing": {"left": 0, "right": 0}, "insets": {"top": 0, "left": 0, "bottom": 0, "right": 0}}"#

    /// `.selected(Item(index: 1))`: page 1.
    func testPagingCollectionViewLayoutTests_indicatorFrame() throws {
        try carousel(#"{"itemSize": {"fixed": {"width": 100, "height": 50}}, \#(Self.zeroIndicator)}"#)
        assertRects([rect(try layout(at: 375)["menu.indicator"])], [(100, 40, 100, 10)])
    }

    func testPagingCollectionViewLayoutTests_indicatorFrameWithInsets() throws {
        try carousel(#"{"itemSize": {"fixed": {"width": 100, "height": 50}}, "indicator": {"height": 10, "spacing": {"left": 0, "right": 0}, "insets": {"top": 0, "left": 20, "bottom": 20, "right": 20}}}"#)
        assertRects([rect(try layout(at: 0)["menu.indicator"])], [(20, 20, 80, 10)])
    }

    func testPagingCollectionViewLayoutTests_indicatorFrameWithSpacing() throws {
        try carousel(#"{"itemSize": {"fixed": {"width": 100, "height": 50}}, "indicator": {"height": 10, "spacing": {"top": 0, "left": 20, "bottom": 20, "right": 20}, "insets": {"top": 0, "left": 0, "bottom": 0, "right": 0}}}"#)
        assertRects([rect(try layout(at: 0)["menu.indicator"])], [(20, 40, 60, 10)])
    }

    /// `.scrolling(Item 0, upcoming nil, progress −1)`: a full page before the first stop.
    func testPagingCollectionViewLayoutTests_indicatorFrameOutsideFirstItem() throws {
        try carousel(#"{"itemSize": {"fixed": {"width": 100, "height": 50}}, \#(Self.zeroIndicator)}"#)
        assertRects([rect(try layout(at: -375)["menu.indicator"])], [(-100, 40, 100, 10)])
    }

    /// `.scrolling(Item 3, upcoming nil, progress 1)` over the items 0…2: the current item is
    /// the one after the last, where a full page past the last stop takes the indicator.
    func testPagingCollectionViewLayoutTests_indicatorFrameOutsideLastItem() throws {
        try carousel(#"{"itemSize": {"fixed": {"width": 100, "height": 50}}, \#(Self.zeroIndicator)}"#)
        assertRects([rect(try layout(at: 750 + 375)["menu.indicator"])], [(300, 40, 100, 10)])
    }

    func testPagingCollectionViewLayoutTests_borderFrame() throws {
        try carousel(#"{"itemSize": {"fixed": {"width": 100, "height": 50}}, "border": {"height": 10, "insets": {"left": 0, "right": 0}}}"#)
        assertRects([rect(try layout(at: 0)["menu.border"])], [(0, 40, 375, 10)])
    }

    func testPagingCollectionViewLayoutTests_borderFrameWithInsets() throws {
        try carousel(#"{"itemSize": {"fixed": {"width": 100, "height": 50}}, "border": {"height": 10, "insets": {"top": 0, "left": 20, "bottom": 0, "right": 20}}}"#)
        assertRects([rect(try layout(at: 0)["menu.border"])], [(20, 40, 375 - 40, 10)])
    }

    // MARK: PagingIndicatorLayoutAttributesTests

    /// Indicator height 20, no spacing or insets, Parchment's default 40-point menu.
    func testPagingIndicatorLayoutAttributesTests_configure() throws {
        try carousel(#"{"indicator": {"height": 20, "spacing": {"left": 0, "right": 0}, "insets": {"top": 0, "left": 0, "bottom": 0, "right": 0}}}"#)
        let indicator = try layout(at: 0)
        XCTAssertEqual(indicator["menu.indicator.height"]?.doubleValue, 20)
        XCTAssertEqual(indicator["menu.indicator.y"]?.doubleValue, 20)
    }

    /// From a 200-wide first item at 0 (`.left(50)`) to a 100-wide last item at 200
    /// (`.right(50)`): two items whose titles give those widths, with insets 50.
    func testPagingIndicatorLayoutAttributesTests_tweening() throws {
        try carousel(#"{"itemSize": {"fixed": {"width": 0, "height": 40}}, "indicator": {"height": 20, "spacing": {"left": 0, "right": 0}, "insets": {"top": 0, "left": 50, "bottom": 0, "right": 50}}}"#,
                     pages: 2, titles: [#"{"width": 200}"#, #"{"width": 100}"#])
        assertRects([rect(try layout(at: 0)["menu.indicator"])], [(50, 20, 150, 20)])
        assertRects([rect(try layout(at: 375)["menu.indicator"])], [(200, 20, 50, 20)])
        assertRects([rect(try layout(at: 187.5)["menu.indicator"])], [(125, 20, 100, 20)])
    }

    // MARK: PagingControllerTests (offsets while scrolling)

    /// PagingControllerTests' menu: 50-point items, `.left`, bounds 100 wide; here pages of
    /// 100 (page k at offset 100·k). Upstream's infinite data source lays out a window of
    /// items around the selected one, in which selecting item k puts the menu at offset 100
    /// (its `initialContentOffset`); here the menu holds every item from 0. So the translation
    /// compares the movement: `moved(x, from: k)` is the menu's offset at the stack offset x
    /// less its offset at page k's stop, and upstream's is its offset less 100.
    func pagingController(pages: Int = 10) throws {
        try carousel(#"{"itemSize": {"fixed": {"width": 50, "height": 50}}, "selectedScrollPosition": "left"}"#, pages: pages, pageWidth: 100)
    }

    func menuOffset(_ offset: Double, file: StaticString = #filePath, line: UInt = #line) throws -> Double {
        try XCTUnwrap(try layout(at: offset, file: file, line: line)["menu.contentOffset.x"]?.doubleValue, file: file, line: line)
    }

    func moved(_ offset: Double, from page: Int, file: StaticString = #filePath, line: UInt = #line) throws -> Double {
        try menuOffset(offset, file: file, line: line) - menuOffset(Double(page) * 100, file: file, line: line)
    }

    /// Item 3 selected, progress 0.5: setContentOffset(125) = 100 + 50·0.5, distance 50.
    func testPagingControllerTests_contentScrolledFromSelectedProgressPositive() throws {
        try pagingController()
        XCTAssertEqual(try moved(350, from: 3), 125 - 100, accuracy: 1e-9)
        XCTAssertEqual(try moved(400, from: 3), 50, accuracy: 1e-9, "the whole distance")
    }

    /// Progress −0.1 towards item 2: setContentOffset(95) = 100 − 50·0.1.
    func testPagingControllerTests_contentScrolledFromSelectedProgressNegative() throws {
        try pagingController()
        XCTAssertEqual(try moved(290, from: 3), 95 - 100, accuracy: 1e-9)
    }

    /// Progress 0: the offset is not updated.
    func testPagingControllerTests_contentOffsetFromSelectedProgressZero() throws {
        try pagingController()
        XCTAssertEqual(try moved(300, from: 3), 0)
    }

    /// No item after item 3 (`maxIndexAfter = 3`): scrolling on does not move the menu.
    func testPagingControllerTests_contentScrolledNoUpcomingPagingItem() throws {
        try pagingController(pages: 4)
        XCTAssertEqual(try moved(310, from: 3), 0)
    }

    /// Item 1 selected, progress 0.1 then 0.2: setContentOffset(110) = 100 + 50·0.2.
    func testPagingControllerTests_contentScrolledProgressChangedSameSign() throws {
        try pagingController()
        XCTAssertEqual(try moved(110, from: 1), 105 - 100, accuracy: 1e-9)
        XCTAssertEqual(try moved(120, from: 1), 110 - 100, accuracy: 1e-9)
    }

    /// Item 1 selected, progress −0.1 then 0: back in the selected state (item 1, progress 0).
    /// Upstream makes no call on the collection view at that step, so its menu stays where
    /// progress −0.1 put it (95); a layout answer here has no memory of the step before and
    /// answers item 1's at-rest offset.
    func testPagingControllerTests_contentScrolledProgressChangedToZero() throws {
        try pagingController()
        XCTAssertEqual(try moved(90, from: 1), 95 - 100, accuracy: 1e-9)
        let s = try selected(100)
        XCTAssertEqual(s.item, "p1")
        XCTAssertEqual(s.progress, 1)
        // Changed (Semantics.md, "a menu's offset is a function of the content's offset"):
        // upstream's menu stays at 95; here it is item 1's at-rest offset.
        XCTAssertEqual(try moved(100, from: 1), 0, accuracy: 1e-9)
    }

    /// Item 1 selected, progress 0.1 then −0.1: upstream goes back to `.selected(Item 1)`
    /// without moving the menu, which stays where progress 0.1 put it (105).
    func testPagingControllerTests_contentScrolledProgressChangedFromPositiveToNegative() throws {
        try pagingController()
        XCTAssertEqual(try moved(110, from: 1), 105 - 100, accuracy: 1e-9)
        XCTAssertEqual(try selected(90).item, "p1")
        // Changed (Semantics.md, "a menu's offset is a function of the content's offset"):
        // upstream's menu stays at 105; here it is the tween towards item 0, as from rest.
        XCTAssertEqual(try moved(90, from: 1), 95 - 100, accuracy: 1e-9)
    }

    /// Item 1 selected, progress −0.1 then 0.1: upstream goes back to `.selected(Item 1)`
    /// without moving the menu, which stays where progress −0.1 put it (95).
    func testPagingControllerTests_contentScrolledProgressChangedFromNegativeToPositive() throws {
        try pagingController()
        XCTAssertEqual(try moved(90, from: 1), 95 - 100, accuracy: 1e-9)
        XCTAssertEqual(try selected(110).item, "p1")
        // Changed (Semantics.md, "a menu's offset is a function of the content's offset"):
        // upstream's menu stays at 95; here it is the tween towards item 2, as from rest.
        XCTAssertEqual(try moved(110, from: 1), 105 - 100, accuracy: 1e-9)
    }

    /// A size delegate answering 100 for every item, and no item after item 3: scrolling on
    /// from item 3 does not move the menu.
    func testPagingControllerTests_contentScrolledNoUpcomingPagingItemAndSizeDelegate() throws {
        let title = #"{"width": 100}"#
        try carousel(#"{"itemSize": {"fixed": {"width": 50, "height": 50}}, "selectedScrollPosition": "left"}"#,
                     pages: 4, pageWidth: 100, titles: [title, title, title, title])
        XCTAssertEqual(try moved(310, from: 3), 0)
    }

    /// The items of the window a menu 100 wide fills around `id`, in order.
    func windowIDs(around id: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let reply = try server.request("GET", "/v1/stacks/c/menu/window?around=\(id)&width=100")
        XCTAssertEqual(reply.status, 200, reply.text, file: file, line: line)
        let ids = { (key: String) in reply[key]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? [] }
        return ids("before") + [reply["around.id"]?.stringValue ?? "?"] + ids("after")
    }

    /// Upstream scrolls the menu on its own (to 250) so item 0 is out of its window, then the
    /// content scrolls half way to item 1: the window gains the items around item 0 (0…4) and
    /// the menu heads from where it was to item 1's `.left` offset (50 from the window's start):
    /// 225 = 400 + (50 − 400) · 0.5. A menu here has no offset of its own (it follows the
    /// stack), and every item is laid out (Docs/Semantics.md, upstream table: "the menu is a
    /// window of items around the selection", changed); so the menu heads from item 0's
    /// offset (0) to the same 50, and the window around item 0 is the same items 0…4.
    func testPagingControllerTests_contentScrolledUpcomingItemOutsideVisibleItems() throws {
        try pagingController()
        XCTAssertEqual(try moved(50, from: 0), 25, accuracy: 1e-9)
        XCTAssertEqual(try menuOffset(100), 50, accuracy: 1e-9)
        XCTAssertEqual(try windowIDs(around: "p0"), ["p0", "p1", "p2", "p3", "p4"])
    }

    // MARK: PagingControllerTests (selecting, finishing, size transitions, reloads)

    func post(_ path: String, _ body: String, file: StaticString = #filePath, line: UInt = #line) throws -> Reply {
        let reply = try server.request("POST", "/v1/stacks/c" + path, json: try j(body))
        XCTAssertEqual(reply.status, 200, reply.text, file: file, line: line)
        return reply
    }

    func select(_ index: Int, file: StaticString = #filePath, line: UInt = #line) throws -> Reply {
        try post("/menu/select", #"{"index": \#(index)}"#, file: file, line: line)
    }

    func scroll(to x: Double, file: StaticString = #filePath, line: UInt = #line) throws {
        _ = try post("/scroll", #"{"offset": {"x": \#(x)}}"#, file: file, line: line)
    }

    /// The layout at the stack's own offset.
    func current(file: StaticString = #filePath, line: UInt = #line) throws -> Reply {
        let reply = try server.request("GET", "/v1/stacks/c/layout")
        XCTAssertEqual(reply.status, 200, reply.text, file: file, line: line)
        return reply
    }

    /// The content's move a mutation answers (`didScroll`), along x.
    func didScroll(_ reply: Reply) -> (from: Double, to: Double)? {
        guard let event = reply["events"]?.arrayValue?.first(where: { $0["type"]?.stringValue == "didScroll" }),
              let from = event["from"]?["x"]?.doubleValue, let to = event["to"]?["x"]?.doubleValue else { return nil }
        return (from, to)
    }

    func assertSelected(_ reply: Reply, _ index: Int, menuOffset: Double, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(reply["menu.selected.index"]?.int64Value, Int64(index), reply.text, file: file, line: line)
        XCTAssertEqual(reply["paging.progress"]?.doubleValue, Double(index), "at rest on the item", file: file, line: line)
        XCTAssertEqual(reply["menu.contentOffset.x"]?.doubleValue, menuOffset, file: file, line: line)
    }

    /// Selecting item 0 first: the selected state, item 0 at the `.left` position (offset 0).
    func testPagingControllerTests_selectWhileEmpty() throws {
        try pagingController()
        assertSelected(try select(0), 0, menuOffset: 0)
        assertSelected(try current(), 0, menuOffset: 0)
    }

    /// Item 1 selected, the content scrolled to progress −0.1 (the stack at 90), then item 2
    /// selected: upstream ignores the selection and keeps the scrolling state. Changed
    /// (Semantics.md, "a selection is a request, taken whatever the offset"): the content
    /// scrolls from 90 to item 2's stop, and item 2 is selected as from rest.
    func testPagingControllerTests_selectItemWhileScrolling() throws {
        try pagingController()
        try scroll(to: 90)
        let selectedTwo = try server.request("POST", "/v1/stacks/c/menu/select", json: try j(#"{"index": 2}"#))
        XCTAssertEqual(selectedTwo.status, 200, selectedTwo.text)
        XCTAssertEqual(didScroll(selectedTwo)?.from, 90)
        XCTAssertEqual(didScroll(selectedTwo)?.to, 200)
        let after = try current()
        XCTAssertEqual(after["menu.selected.index"]?.int64Value, 2)
        XCTAssertEqual(after["paging.progress"]?.doubleValue, 2)
    }

    /// Selecting the selected item again changes nothing.
    func testPagingControllerTests_selectSameItem() throws {
        try pagingController()
        _ = try select(0)
        let again = try select(0)
        XCTAssertNil(didScroll(again), "the content does not move")
        assertSelected(again, 0, menuOffset: 0)
    }

    /// Item 1 selected (the menu at 50), then item 0: the transition from item 1 to item 0
    /// starts at 50 and covers −50.
    func testPagingControllerTests_selectDifferentItem() throws {
        try pagingController()
        assertSelected(try select(1), 1, menuOffset: 50)
        let selectedZero = try select(0)
        XCTAssertEqual(didScroll(selectedZero)?.from, 100)
        XCTAssertEqual(didScroll(selectedZero)?.to, 0)
        assertSelected(selectedZero, 0, menuOffset: 50 - 50)
    }

    /// Upstream asks for the content of item 0, `.reverse(sibling: true)`: here the content
    /// moves back one page, from item 1's stop to item 0's.
    func testPagingControllerTests_selectPreviousSibling() throws {
        try pagingController()
        _ = try select(1)
        let moved = didScroll(try select(0))
        XCTAssertEqual(moved?.from, 100)
        XCTAssertEqual(moved?.to, 0)
    }

    /// `.forward(sibling: true)`: one page on, from item 1's stop to item 2's.
    func testPagingControllerTests_selectNextSibling() throws {
        try pagingController()
        _ = try select(1)
        let moved = didScroll(try select(2))
        XCTAssertEqual(moved?.from, 100)
        XCTAssertEqual(moved?.to, 200)
    }

    /// `.forward(sibling: false)`: from item 1's stop to item 4's, three pages on.
    func testPagingControllerTests_selectNotSibling() throws {
        try pagingController()
        _ = try select(1)
        let moved = didScroll(try select(4))
        XCTAssertEqual(moved?.from, 100)
        XCTAssertEqual(moved?.to, 400)
    }

    /// Upstream scrolls its menu on its own until item 0 is out of its window, then selects
    /// item 1: the window gains the items around item 0 (0…4, the menu at 400 in it) and the
    /// content moves `.forward(sibling: true)` to item 1. Here the menu has no offset of its
    /// own and lays out every item (Docs/Semantics.md, upstream table: "the menu is a window of
    /// items around the selection", changed): the content moves one page on to item 1, and
    /// the window around item 0 is the same items 0…4.
    func testPagingControllerTests_selectItemOutsideVisibleItems() throws {
        try pagingController()
        _ = try select(0)
        let selectedOne = try select(1)
        XCTAssertEqual(didScroll(selectedOne)?.from, 0)
        XCTAssertEqual(didScroll(selectedOne)?.to, 100)
        XCTAssertEqual(selectedOne["menu.selected.index"]?.int64Value, 1)
        XCTAssertEqual(selectedOne["menu.items"]?.arrayValue?.count, 10)
        XCTAssertEqual(try windowIDs(around: "p0"), ["p0", "p1", "p2", "p3", "p4"])
    }

    /// Item 0 selected, the content half way to item 1 when it finishes scrolling there: item 1
    /// selected, the menu at its `.left` offset 50. The finish is a settle released at 50 with
    /// a flick towards item 1.
    func testPagingControllerTests_contentFinishedScrollingWithUpcomingItem() throws {
        try pagingController()
        let settled = try post("/scroll/settle", #"{"offset": 50, "velocity": 600}"#)
        XCTAssertEqual(settled["page"]?.int64Value, 1, settled.text)
        assertSelected(try current(), 1, menuOffset: 50)
    }

    /// Item 0 selected, the content half a page before it (no item there) when it finishes
    /// scrolling: item 0 stays selected. The finish is a settle released at −50 with a flick
    /// away from item 0.
    func testPagingControllerTests_contentFinishedScrollingWihtoutUpcomingItem() throws {
        try pagingController()
        let settled = try post("/scroll/settle", #"{"offset": -50, "velocity": -600}"#)
        XCTAssertEqual(settled["page"]?.int64Value, 0, settled.text)
        assertSelected(try current(), 0, menuOffset: 0)
    }

    /// A size transition (here the viewport's height changes) with item 0 selected: item 0 is
    /// selected again at the `.left` position, the menu at 0.
    func testPagingControllerTests_transitionSize() throws {
        try pagingController()
        _ = try select(0)
        let resized = try server.request("PATCH", "/v1/stacks/c", json: try j(#"{"viewport": {"width": 100, "height": 300}}"#))
        XCTAssertEqual(resized.status, 200, resized.text)
        XCTAssertEqual(try current()["menu.contentOffset.x"]?.doubleValue, 0)
    }

    /// The state stays `.selected(Item 0)`.
    func testPagingControllerTests_transitionSizeWhenSelected() throws {
        try pagingController()
        _ = try select(0)
        let resized = try server.request("PATCH", "/v1/stacks/c", json: try j(#"{"viewport": {"width": 100, "height": 300}}"#))
        XCTAssertEqual(resized.status, 200, resized.text)
        assertSelected(try current(), 0, menuOffset: 0)
    }

    /// Item 0 selected, the content half way to item 1 (the stack at 50), then a size
    /// transition: upstream ends the scroll in `.selected(Item 0)`; here the offset is kept.
    func testPagingControllerTests_transitionSizeWhenScrolling() throws {
        try pagingController()
        try scroll(to: 50)
        let resized = try server.request("PATCH", "/v1/stacks/c", json: try j(#"{"viewport": {"width": 100, "height": 300}}"#))
        XCTAssertEqual(resized.status, 200, resized.text)
        let after = try current()
        XCTAssertEqual(after["menu.selected.index"]?.int64Value, 0)
        // Changed (Semantics.md, "a viewport change keeps the offset"): upstream ends the scroll
        // on item 0; here the stack keeps its offset, half way (50 of 100-wide pages), and the
        // menu follows it half way.
        XCTAssertEqual(after["paging.progress"]?.doubleValue, 0.5)
    }

    /// Reloading around item 2: item 2 selected, the window around it items 0…4 (full on both
    /// sides: upstream's infinite data source has more items before and after it).
    func testPagingControllerTests_reloadData() throws {
        try pagingController()
        assertSelected(try select(2), 2, menuOffset: 100)
        XCTAssertEqual(try windowIDs(around: "p2"), ["p0", "p1", "p2", "p3", "p4"])
        let window = try server.request("GET", "/v1/stacks/c/menu/window?around=p2&width=100")
        XCTAssertEqual(window["missingBefore.width"]?.doubleValue, 0)
        XCTAssertEqual(window["missingAfter.width"]?.doubleValue, 0)
    }

    /// Reloading the menu alone around item 2 (here a change of its settings with the content
    /// on item 2): item 2 selected, the content not moved, the window items 0…4.
    func testPagingControllerTests_reloadMenu() throws {
        try pagingController()
        try scroll(to: 200)
        let reloaded = try server.request("PATCH", "/v1/stacks/c", json: try j(#"{"menu": {"itemSpacing": 0}}"#))
        XCTAssertEqual(reloaded.status, 200, reloaded.text)
        XCTAssertNil(didScroll(reloaded), "the content stays on item 2")
        assertSelected(try current(), 2, menuOffset: 100)
        XCTAssertEqual(try windowIDs(around: "p2"), ["p0", "p1", "p2", "p3", "p4"])
    }

    // MARK: PagingStateTests (the selected item an offset shows)

    func selected(_ offset: Double) throws -> (page: Int?, progress: Double?, item: String?) {
        let reply = try layout(at: offset)
        return (reply["paging.currentPage"]?.int64Value.map(Int.init), reply["paging.progress"]?.doubleValue, reply["menu.selected.id"]?.stringValue)
    }

    func testPagingStateTests_selected() throws {
        try carousel("true")
        let s = try selected(0)
        XCTAssertEqual(s.page, 0)
        XCTAssertEqual(s.progress, 0)
        XCTAssertEqual(s.item, "p0")
        XCTAssertEqual(try itemProgress(0), [1, 0, 0], "no upcoming item")
    }

    /// The items' progress (Parchment's `progressForItem`): 1 − |f| for the current item, |f|
    /// for the upcoming one, 0 for the others.
    func itemProgress(_ offset: Double) throws -> [Double] {
        try layout(at: offset)["menu.items"]?.arrayValue?.map { $0["progress"]?.doubleValue ?? .nan } ?? []
    }

    /// `.scrolling(0 → 1, progress 0)`: the current item is item 0. At progress 0 a layout
    /// answer is page 0's stop, where item 0 is the current item (its progress 1).
    func testPagingStateTests_scrollingCurrentPagingItem() throws {
        try carousel("true")
        XCTAssertEqual(try selected(0).page, 0)
        XCTAssertEqual(try itemProgress(0), [1, 0, 0])
    }

    /// `.scrolling(0 → 1, progress 0)`: the upcoming item is item 1. A layout answer has no
    /// direction at a stop, so the translation steps a hundredth of a page towards item 1,
    /// where item 1 is the upcoming item (its progress 0.01) and item 0 still the current one.
    func testPagingStateTests_upcomingPagingItem() throws {
        try carousel("true")
        let progress = try itemProgress(3.75)
        XCTAssertEqual(progress.count, 3)
        XCTAssertEqual(progress.first ?? .nan, 0.99, accuracy: 1e-9)
        XCTAssertEqual(progress.dropFirst().first ?? .nan, 0.01, accuracy: 1e-9)
        XCTAssertEqual(progress.last, 0)
    }

    /// `.scrolling(0, upcoming nil, progress 0)`: no upcoming item. A hundredth of a page
    /// before item 0 (no item there), item 0 is current and no other item is upcoming.
    func testPagingStateTests_upcomingPagingItemNil() throws {
        try carousel("true")
        let progress = try itemProgress(-3.75)
        XCTAssertEqual(progress.first ?? .nan, 0.99, accuracy: 1e-9)
        XCTAssertEqual(Array(progress.dropFirst()), [0, 0])
    }

    func testPagingStateTests_progress() throws {
        try carousel("true")
        XCTAssertEqual(try selected(187.5).progress, 0.5)
    }

    func testPagingStateTests_visuallySelectedPagingItemProgressLarge() throws {
        try carousel("true")
        XCTAssertEqual(try selected(375 * 0.6).item, "p1")
    }

    func testPagingStateTests_visuallySelectedPagingItemProgressSmall() throws {
        try carousel("true")
        XCTAssertEqual(try selected(375 * 0.3).item, "p0")
    }

    /// No upcoming item (0.6 of a page past the last): the current item stays selected.
    func testPagingStateTests_visuallySelectedPagingItemUpcomingPagingItemNil() throws {
        try carousel("true")
        XCTAssertEqual(try selected(750 + 375 * 0.6).item, "p2")
    }
}
