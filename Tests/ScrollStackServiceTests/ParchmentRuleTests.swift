import Foundation
import JSONCodec
import XCTest

/// Rules of Parchment's menu (and ScrollStackController's row animator) over HTTP, each test
/// named after the upstream type and rule it checks. Every expected value is worked out from
/// the upstream rule in the comment above it, on a viewport 375 wide (so the menu is 375
/// wide) with full-width pages of 375: page k rests at offset 375·k, and an offset between two
/// stops is that fraction of the way from item k to item k+1.
final class ParchmentRuleTests: XCTestCase {
    var server: ServerHarness!

    override func setUpWithError() throws { server = try ServerHarness() }
    override func tearDown() { server.stop() }

    func j(_ text: String) throws -> JSON { try JSON.parse(Array(text.utf8)) }

    /// A carousel of `pages` pages 375 wide with `menu` (JSON text) and optional titles.
    func carousel(_ menu: String, pages: Int = 5, titles: [String?] = [], file: StaticString = #filePath, line: UInt = #line) throws {
        let rows = (0..<pages).map { i -> String in
            let title = i < titles.count ? titles[i].map { #", "title": \#($0)"# } ?? "" : ""
            return #"{"id": "p\#(i)", "view": {"type": "Page"}, "size": {"fixed": 375}\#(title)}"#
        }.joined(separator: ", ")
        let body = """
            {"id": "c", "axis": "horizontal", "viewport": {"width": 375, "height": 500},
             "rowInsets": {"top": 0, "left": 0, "bottom": 0, "right": 0},
             "paging": {"size": {"fraction": 1}}, "menu": \(menu), "rows": [\(rows)]}
            """
        let reply = try server.request("POST", "/v1/stacks", json: try j(body))
        XCTAssertEqual(reply.status, 201, reply.text, file: file, line: line)
    }

    /// The menu of the layout at `offset` along x: `menu(at: x)["indicator.y"]`.
    func menu(at offset: Double, file: StaticString = #filePath, line: UInt = #line) throws -> Menu {
        let reply = try server.request("GET", "/v1/stacks/c/layout?offset=\(offset)")
        XCTAssertEqual(reply.status, 200, reply.text, file: file, line: line)
        XCTAssertNotNil(reply["menu"], reply.text, file: file, line: line)
        return Menu(reply: reply)
    }

    /// A layout answer read below its `menu` member.
    struct Menu {
        let reply: Reply
        subscript(path: String) -> JSON? { reply["menu." + path] }
    }

    func assertRect(_ value: JSON?, _ x: Double, _ y: Double, _ width: Double, _ height: Double,
                    file: StaticString = #filePath, line: UInt = #line) {
        guard let value else { return XCTFail("no rect", file: file, line: line) }
        for (key, expected) in [("x", x), ("y", y), ("width", width), ("height", height)] {
            XCTAssertEqual(value[key]?.doubleValue ?? .nan, expected, accuracy: 1e-9, "\(key) of \(value)", file: file, line: line)
        }
    }

    // MARK: PagingIndicatorMetric

    /// PagingIndicatorMetric: the first item's x is frame.x + max(insets.left, spacing.left)
    /// and its width less that and spacing.right; the last item's width is less
    /// max(insets.right, spacing.right) and spacing.left. The larger of the two, not their sum.
    func testPagingIndicatorMetric_takesTheLargerOfInsetAndSpacing() throws {
        try carousel(#"{"itemSize": {"fixed": {"width": 100, "height": 40}}, "border": "hidden", "indicator": {"spacing": {"left": 10, "right": 10}, "insets": {"left": 30, "right": 5}}}"#)
        // Item 0 (.left(30)): x = 0 + max(30, 10) = 30; width = 100 − 30 − 10 = 60.
        assertRect(try menu(at: 0)["indicator"], 30, 36, 60, 4)
        // Item 2 (.none): x = 200 + 10; width = 100 − 10 − 10.
        assertRect(try menu(at: 750)["indicator"], 210, 36, 80, 4)
        // Item 4, the last (.right(5)): x = 400 + 10; width = 100 − max(5, 10) − 10 = 80.
        assertRect(try menu(at: 1500)["indicator"], 410, 36, 80, 4)
    }

    /// An item narrower than the indicator's insets and spacing gives an empty indicator at the
    /// metric's x, never a negative width (which the answer's rectangles may not have); part
    /// way to a wider item the width is tweened from 0.
    func testPagingIndicatorMetric_aNarrowItemGivesAnEmptyIndicator() throws {
        let menu = #"{"itemSize": {"fixed": {"width": 0, "height": 40}}, "border": "hidden", "indicator": {"spacing": {"left": 0, "right": 0}, "insets": {"left": 8, "right": 8}}}"#
        try carousel(menu, pages: 2, titles: [#"{"width": 4}"#, #"{"width": 100}"#])
        // Item 0 (.left(8)), 4 wide: x = 0 + 8; width = max(0, 4 − 8 − 0) = 0.
        assertRect(try self.menu(at: 0)["indicator"], 8, 36, 0, 4)
        // Item 1, the last (.right(8)), at x 4: x = 4 + 0; width = 100 − 8 − 0 = 92. Half way:
        // x = 8 + (4 − 8) / 2 = 6, width = 92 / 2 = 46.
        assertRect(try self.menu(at: 187.5)["indicator"], 6, 36, 46, 4)
        assertRect(try self.menu(at: 375)["indicator"], 4, 36, 92, 4)

        // A single item 0 wide under the default menu (insets 8 and 8): x = 8 and
        // width = max(0, 0 − 8 − 8) = 0.
        XCTAssertEqual(try server.request("DELETE", "/v1/stacks/c").status, 204)
        try carousel("{}", pages: 1, titles: [#"{"width": 0}"#])
        let single = try self.menu(at: 0)
        XCTAssertEqual(single["items[0].frame.width"]?.doubleValue, 0, single.reply.text)
        assertRect(single["indicator"], 8, 36, 0, 4)
    }

    // MARK: PagingIndicatorLayoutAttributes

    /// PagingIndicatorLayoutAttributes.configure: for a menu at the top,
    /// y = menuHeight − height − insets.bottom + insets.top; for a menu at the bottom,
    /// y = insets.bottom.
    func testPagingIndicatorLayoutAttributes_configureY() throws {
        try carousel(#"{"itemSize": {"fixed": {"width": 100, "height": 40}}, "indicator": {"height": 4, "insets": {"top": 3, "bottom": 6}}}"#)
        // 40 − 4 − 6 + 3 = 33.
        XCTAssertEqual(try menu(at: 0)["indicator.y"]?.doubleValue, 33)
        XCTAssertEqual(try server.request("PATCH", "/v1/stacks/c", json: try j(#"{"menu": {"position": "bottom"}}"#)).status, 200)
        // A bottom menu: y = insets.bottom = 6.
        XCTAssertEqual(try menu(at: 0)["indicator.y"]?.doubleValue, 6)
    }

    // MARK: PagingCollectionViewLayout.indicatorInsetsForIndex

    /// PagingCollectionViewLayout.indicatorInsetsForIndex: every index ≥ the last, the virtual
    /// item after it included, gets `.right(insets.right)`; so overscrolled past the last item
    /// the indicator heads for the virtual item less its right inset.
    func testIndicatorInsetsForIndex_virtualItemAfterTheLastKeepsTheRightInset() throws {
        try carousel(#"{"itemSize": {"fixed": {"width": 100, "height": 40}}}"#)
        // From item 4 (x 400, width 100 − 8) to the virtual item 5 (x 500, width 100 − 8),
        // half way: x 450, width 92.
        assertRect(try menu(at: 1687.5)["indicator"], 450, 36, 92, 4)
    }

    // MARK: PagingCollectionViewLayout.frameForIndex

    /// PagingCollectionViewLayout.frameForIndex: while scrolling from a current to an upcoming
    /// item, both are measured for the indicator at their selected widths.
    func testFrameForIndex_currentAndUpcomingAtTheirSelectedWidths() throws {
        try carousel(#"{"itemSize": {"fixed": {"width": 100, "height": 40}}}"#, titles: [nil, #"{"text": "B", "selectedWidth": 160}"#])
        let half = try menu(at: 187.5)
        // The cells: item 1 is tween(100, 160, 0.5) = 130 wide at x 100.
        assertRect(half["items[1].frame"], 100, 0, 130, 40)
        // The indicator: from item 0 (x 0 + 8, width 100 − 8) to item 1 at x 100 and its
        // selected width 160: half way, x 54 and width 126.
        assertRect(half["indicator"], 54, 36, 126, 4)
    }

    // MARK: PagingDistance (scroll positions)

    /// PagingDistance.distanceLeft / distanceRight and UICollectionView's selectItem: with the
    /// `.left` position the selected item's left edge goes to the bounds' left edge, with
    /// `.right` its right edge to the bounds' right edge; the menu's insets only pad the content.
    func testPagingDistance_leftAndRightPutTheItemEdgeAtTheBoundsEdge() throws {
        try carousel(#"{"itemSize": {"fixed": {"width": 100, "height": 40}}, "insets": {"left": 20, "right": 30}, "selectedScrollPosition": "left"}"#)
        // Items at 20, 120, …; content 20 + 500 + 30 = 550, offsets 0…175.
        XCTAssertEqual(try menu(at: 375)["contentOffset.x"]?.doubleValue, 120)
        XCTAssertEqual(try menu(at: 0)["contentOffset.x"]?.doubleValue, 20)
        XCTAssertEqual(try server.request("PATCH", "/v1/stacks/c", json: try j(#"{"menu": {"selectedScrollPosition": "right"}}"#)).status, 200)
        // Item 3 ends at 420: 420 − 375 = 45.
        XCTAssertEqual(try menu(at: 1125)["contentOffset.x"]?.doubleValue, 45)
    }

    // MARK: PagingController.updateScrollingState

    /// PagingController.updateScrollingState: part-way, the offset is
    /// initialContentOffset + distance · |progress|, linear in the progress, where the distance
    /// (PagingDistance.distanceCentered with a size delegate) ends where selecting the upcoming
    /// item at its selected width puts the menu.
    func testUpdateScrollingState_offsetIsLinearInProgress() throws {
        try carousel(#"{"itemSize": {"fixed": {"width": 100, "height": 40}}}"#, titles: [nil, nil, #"{"text": "C", "selectedWidth": 200}"#])
        // Item 1 selected: content 500, item 1's centre 150 − 187.5 < 0: offset 0.
        // Item 2 selected (200 wide at x 200): centre 300 − 187.5 = 112.5 (content 600).
        // distanceCentered from 1 to 2: 100 + (250 − 200) + (200 − 100)/2 − 50 − 37.5 = 112.5.
        for (fraction, expected) in [(0.0, 0.0), (0.25, 28.125), (0.5, 56.25), (0.75, 84.375), (1.0, 112.5)] {
            XCTAssertEqual(try menu(at: 375 * (1 + fraction))["contentOffset.x"]?.doubleValue ?? .nan, expected, accuracy: 1e-9, "progress \(1 + fraction)")
        }
    }

    /// PagingController.updateScrollingState: "We don't want to update the content offset if
    /// there is no upcoming item to scroll to", so overscrolled before the first item a
    /// `.center` menu stays where selecting the first item put it.
    func testUpdateScrollingState_noUpcomingItemKeepsTheOffset() throws {
        try carousel(#"{"itemSize": {"fixed": {"width": 100, "height": 40}}, "selectedScrollPosition": "center"}"#)
        // Items start at 187.5 − 50 = 137.5; item 0's centre 187.5 is at the bounds' centre at 0.
        let rest = try menu(at: 0)
        XCTAssertEqual(rest["contentOffset.x"]?.doubleValue, 0)
        XCTAssertEqual(rest["items[0].frame.x"]?.doubleValue, 137.5)
        XCTAssertEqual(try menu(at: -187.5)["contentOffset.x"]?.doubleValue, 0)
    }

    // MARK: PagingCollectionViewLayout.createLayoutAttributes

    /// PagingCollectionViewLayoutTests.cellFramesForItemSizeToFitWhenUsingSizeDelegate: with
    /// `.sizeToFit` and widths from the size delegate (titles' explicit widths) the items keep
    /// those widths and are not stretched to fill the menu.
    func testCellFramesForItemSizeToFitWhenUsingSizeDelegate() throws {
        let title = #"{"text": "T", "width": 50}"#
        try carousel(#"{"itemSize": {"sizeToFit": {"minWidth": 10, "height": 50}}}"#, pages: 3, titles: [title, title, title])
        let m = try menu(at: 0)
        assertRect(m["items[0].frame"], 0, 0, 50, 50)
        assertRect(m["items[1].frame"], 50, 0, 50, 50)
        assertRect(m["items[2].frame"], 100, 0, 50, 50)
    }

    /// PagingCollectionViewLayout.createLayoutAttributes with `.center` and
    /// PagingBorderLayoutAttributes.update: the content gains half the bounds less half the
    /// first item before the items and half the bounds less half the last item after them,
    /// and the border spans max(bounds, content) less its insets from x = insets.left.
    func testCenterScrollPosition_borderSpansThePaddedContent() throws {
        try carousel(#"{"itemSize": {"fixed": {"width": 100, "height": 40}}, "selectedScrollPosition": "center"}"#)
        let m = try menu(at: 0)
        // 137.5 + 500 + 137.5 = 775; border 8 … 775 − 8.
        XCTAssertEqual(m["contentSize.width"]?.doubleValue, 775)
        assertRect(m["border"], 8, 39, 759, 1)
    }

    // MARK: PagingTitleCell

    /// PagingCollectionViewLayout.progressForItem gives the current item 1 − |progress|, the
    /// upcoming one |progress| and every other item 0; PagingTitleCell.apply(_:) sets the
    /// title's colour to UIColor.interpolate(textColor, selectedTextColor, progress) and the
    /// background likewise, which clamps the fraction to 0…1 and moves red, green, blue and
    /// alpha linearly. Channels here are answered to the nearest of 0…255.
    func testPagingTitleCell_interpolatesColoursByItemProgress() throws {
        try carousel(##"{"itemSize": {"fixed": {"width": 100, "height": 40}}, "textColor": "#000000", "selectedTextColor": "#FFFFFF", "backgroundColor": "#FF000000", "selectedBackgroundColor": "#FF0000"}"##)
        // Progress 2.8 (offset 1050): item 2 current at 0.2 (255 · 0.2 = 51, 0x33), item 3
        // upcoming at 0.8 (204, 0xCC), though item 3 is the selected (nearest) one.
        let between = try menu(at: 1050)
        XCTAssertEqual(between["items[2].progress"]?.doubleValue ?? .nan, 0.2, accuracy: 1e-9)
        XCTAssertEqual(between["items[2].textColor"]?.stringValue, "#333333FF", between.reply.text)
        XCTAssertEqual(between["items[2].backgroundColor"]?.stringValue, "#FF000033")
        XCTAssertEqual(between["items[3].progress"]?.doubleValue ?? .nan, 0.8, accuracy: 1e-9)
        XCTAssertEqual(between["items[3].textColor"]?.stringValue, "#CCCCCCFF")
        XCTAssertEqual(between["items[3].backgroundColor"]?.stringValue, "#FF0000CC")
        XCTAssertEqual(between["selected.index"], 3)
        for k in [0, 1, 4] {
            XCTAssertEqual(between["items[\(k)].progress"], 0)
            XCTAssertEqual(between["items[\(k)].textColor"]?.stringValue, "#000000FF")
            XCTAssertEqual(between["items[\(k)].backgroundColor"]?.stringValue, "#FF000000")
        }
        // Overscrolled a quarter page before the first item: item 0 is current at 1 − 0.25
        // (191.25 → 191, 0xBF) and there is no upcoming item.
        let before = try menu(at: -93.75)
        XCTAssertEqual(before["items[0].textColor"]?.stringValue, "#BFBFBFFF", before.reply.text)
        XCTAssertEqual(before["items[1].textColor"]?.stringValue, "#000000FF")
        // Two pages before it, 1 − 2 is clamped to 0: the normal colours.
        let far = try menu(at: -750)
        XCTAssertEqual(far["items[0].progress"], 0)
        XCTAssertEqual(far["items[0].textColor"]?.stringValue, "#000000FF")
    }

    // MARK: ScrollStackRowAnimator

    /// ScrollStackRowAnimator.execute: `usingSpringWithDamping: animatableRow?.animationInfo
    /// .springDamping ?? 1`: a row that brings no animation of its own hides with damping 1
    /// (0.25 s); one that does (here a row `transition`) with its 0.8.
    func testScrollStackRowAnimator_plainRowsHideWithDampingOne() throws {
        let body = #"{"id": "s", "rows": [{"id": "a", "view": {"type": "V"}, "size": {"fixed": 40}}, {"id": "b", "view": {"type": "V"}, "size": {"fixed": 40}, "transition": {"hide": {"alpha": 0}}}, {"id": "c", "view": {"type": "V"}, "size": {"fixed": 40}}]}"#
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: try j(body)).status, 201)
        let plain = try server.request("PATCH", "/v1/stacks/s/rows/a", json: try j(#"{"hidden": true, "animation": true}"#))
        XCTAssertEqual(plain["transition.timing.damping"]?.doubleValue, 1, plain.text)
        XCTAssertEqual(plain["transition.timing.duration"]?.doubleValue, 0.25)
        let shown = try server.request("POST", "/v1/stacks/s/rows/batch", json: try j(#"{"op": "show", "rows": ["a"], "animation": true}"#))
        XCTAssertEqual(shown["transition.timing.damping"]?.doubleValue, 1, shown.text)
        let own = try server.request("PATCH", "/v1/stacks/s/rows/b", json: try j(#"{"hidden": true, "animation": true}"#))
        XCTAssertEqual(own["transition.timing.damping"]?.doubleValue, 0.8, own.text)
        // A damping asked for wins.
        let asked = try server.request("PATCH", "/v1/stacks/s/rows/c", json: try j(#"{"hidden": true, "animation": {"damping": 0.5}}"#))
        XCTAssertEqual(asked["transition.timing.damping"]?.doubleValue, 0.5, asked.text)
        // Other changes keep the rows' 0.8.
        let moved = try server.request("POST", "/v1/stacks/s/rows/c/move", json: try j(#"{"to": 0, "animation": true}"#))
        XCTAssertEqual(moved["transition.timing.damping"]?.doubleValue, 0.8, moved.text)
    }
}
