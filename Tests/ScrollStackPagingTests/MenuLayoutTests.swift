import ScrollStackCore
@testable import ScrollStackPaging
import XCTest

/// The paging menu's geometry (Parchment's layout), worked out by hand in the comments.
final class MenuLayoutTests: XCTestCase {
    /// Measures 10 points per character, 12 in a bold (≥ 600) font.
    struct TenPerCharacter: TitleMeasuring {
        func width(of text: String, font: FontRequest) -> Double { Double(text.count) * (font.weight >= 600 ? 12 : 10) }
        func unavailable(_ font: FontRequest) -> String? { nil }
    }

    func entries(_ n: Int, titles: [RowTitle?] = []) -> [MenuLayout.Entry] {
        (0..<n).map { MenuLayout.Entry(id: "r\($0)", title: $0 < titles.count ? titles[$0] : nil) }
    }

    func layout(_ menu: MenuSettings, _ n: Int = 5, titles: [RowTitle?] = [], width: Double = 375, progress: Double = 0,
                measurer: (any TitleMeasuring)? = nil) -> MenuLayout {
        MenuLayout(menu, entries: entries(n, titles: titles), width: width, progress: progress,
                   selected: Int(max(0, progress).rounded()), measurer: measurer)
    }

    let fixed = MenuSettings(itemSize: .fixed(width: 100, height: 40))

    func xs(_ m: MenuLayout) -> [Double] { m.items.map(\.frame.minX) }
    func widths(_ m: MenuLayout) -> [Double] { m.items.map(\.frame.size.width) }

    func testFixedItems() {
        let m = layout(fixed)
        XCTAssertEqual(xs(m), [0, 100, 200, 300, 400])
        XCTAssertEqual(m.items[0].frame, Rect(x: 0, y: 0, width: 100, height: 40))
        XCTAssertEqual(m.contentSize, Size(width: 500, height: 40))
        // Border: along the bottom (menu on top), insets 8: 8…(500 − 8).
        XCTAssertEqual(m.border, Rect(x: 8, y: 39, width: 484, height: 1))
        XCTAssertEqual(m.selected, 0)
        var spaced = fixed
        spaced.itemSpacing = 10
        spaced.insets = EdgeInsets(top: 5, left: 20, bottom: 5, right: 30)
        let s = layout(spaced)
        XCTAssertEqual(xs(s), [20, 130, 240, 350, 460])
        XCTAssertEqual(s.items[0].frame.minY, 5)
        XCTAssertEqual(s.contentSize, Size(width: 590, height: 50))
    }

    func testHorizontalAlignmentWhenItemsFit() {
        var menu = fixed
        XCTAssertEqual(xs(layout(menu, 3)), [0, 100, 200])
        menu.horizontalAlignment = .center  // 300 in 375: 37.5 each side
        XCTAssertEqual(xs(layout(menu, 3)), [37.5, 137.5, 237.5])
        menu.horizontalAlignment = .right
        XCTAssertEqual(xs(layout(menu, 3)), [75, 175, 275])
        XCTAssertEqual(layout(menu, 3).contentSize.width, 375)
        XCTAssertEqual(xs(layout(menu, 5)), [0, 100, 200, 300, 400], "too wide: nothing to align")
    }

    func testSizeToFitFillsTheMenuWhenItemsFit() {
        var menu = MenuSettings(itemSize: .sizeToFit(minWidth: 60, height: 40))
        XCTAssertEqual(widths(layout(menu, 3)), [125, 125, 125])  // 180 natural + 195 / 3 each
        menu.insets = EdgeInsets(left: 10, right: 10)
        XCTAssertEqual(widths(layout(menu, 3))[0], 60 + 175.0 / 3, accuracy: 1e-9)
        XCTAssertEqual(widths(layout(MenuSettings(itemSize: .sizeToFit(minWidth: 60, height: 40)), 10)), Array(repeating: 60, count: 10))
        // Explicit widths are Parchment's size delegate: used as they are, never stretched.
        let titled = layout(MenuSettings(itemSize: .sizeToFit(minWidth: 60, height: 40)), 3,
                            titles: [RowTitle(text: "A", width: 80), RowTitle(text: "B", width: 120), RowTitle(text: "C", width: 50)])
        XCTAssertEqual(widths(titled), [80, 120, 50])
    }

    func testMeasuredTitlesThroughTheSeam() {
        let titles = [RowTitle(text: "Home"), RowTitle(text: "Sports and more"), nil]
        // selfSizing: title + 2·20 label spacing (40 + 40, 150 + 40); no title: the estimate.
        let selfSizing = layout(MenuSettings(itemSize: .selfSizing(estimatedWidth: 90, height: 40)), 3, titles: titles, width: 100, measurer: TenPerCharacter())
        XCTAssertEqual(widths(selfSizing), [80, 190, 90])
        // sizeToFit: at least 100.
        let sizeToFit = layout(MenuSettings(itemSize: .sizeToFit(minWidth: 100, height: 40)), 3, titles: titles, width: 100, measurer: TenPerCharacter())
        XCTAssertEqual(widths(sizeToFit), [100, 190, 100])
        // fixed ignores titles.
        XCTAssertEqual(widths(layout(fixed, 3, titles: titles, measurer: TenPerCharacter())), [100, 100, 100])
        // Without a measurer the explicit width counts, else the estimate.
        XCTAssertEqual(widths(layout(MenuSettings(itemSize: .selfSizing(estimatedWidth: 90, height: 40)), 2,
                                     titles: [RowTitle(text: "Home", width: 70), nil], width: 100)), [70, 90])
    }

    func testSelectedFontGivesTheSelectedWidth() {
        var menu = MenuSettings(itemSize: .selfSizing(estimatedWidth: 90, height: 40))
        menu.selectedFont.weight = 700
        let titles = [RowTitle(text: "Home"), RowTitle(text: "Sports and more"), RowTitle(text: "Kept", width: 70)]
        // Normal: 4·10 + 40, 15·10 + 40; selected (bold, 12 per character): 4·12 + 40, 15·12 + 40.
        let natural = MenuLayout.naturalWidths(entries(3, titles: titles), menu, measurer: TenPerCharacter())
        XCTAssertEqual(natural.map(\.normal), [80, 190, 70])
        XCTAssertEqual(natural.map(\.selected), [88, 220, 70], "an explicit width is kept when selected too")
        // Item 0 selected at progress 0; halfway, item 0 shrinks and item 1 grows half-way.
        XCTAssertEqual(widths(layout(menu, 3, titles: titles, progress: 0, measurer: TenPerCharacter())), [88, 190, 70])
        XCTAssertEqual(widths(layout(menu, 3, titles: titles, progress: 0.5, measurer: TenPerCharacter())), [84, 205, 70])
        XCTAssertEqual(widths(layout(menu, 3, titles: titles, progress: 1, measurer: TenPerCharacter())), [80, 220, 70])
        // A title's selectedWidth wins over the measured one.
        let given = MenuLayout.naturalWidths(entries(1, titles: [RowTitle(text: "Home", selectedWidth: 99)]), menu, measurer: TenPerCharacter())
        XCTAssertEqual(given.map(\.selected), [99])
    }

    func testIndicatorInterpolation() {
        // Metrics: item 0 → x 0 + 8, width 100 − 8; item 1 → 100, 100; item 4 → 400, 100 − 8.
        XCTAssertEqual(layout(fixed, progress: 0).indicator, Rect(x: 8, y: 36, width: 92, height: 4))
        XCTAssertEqual(layout(fixed, progress: 0.5).indicator, Rect(x: 54, y: 36, width: 96, height: 4))
        XCTAssertEqual(layout(fixed, progress: 1).indicator, Rect(x: 100, y: 36, width: 100, height: 4))
        XCTAssertEqual(layout(fixed, progress: 4).indicator, Rect(x: 400, y: 36, width: 92, height: 4))
        // Before the first item: towards a virtual item at −100 (width 100).
        XCTAssertEqual(layout(fixed, progress: -0.5).indicator, Rect(x: -46, y: 36, width: 96, height: 4))
        // After the last: towards a virtual item at 500, which keeps the right inset
        // (Parchment's indicatorInsetsForIndex gives every index ≥ the last `.right`).
        XCTAssertEqual(layout(fixed, progress: 4.5).indicator, Rect(x: 450, y: 36, width: 92, height: 4))
        // Spacing comes off both sides of every item.
        var spaced = fixed
        spaced.indicator = MenuSettings.Indicator(spacing: EdgeInsets(left: 4, right: 4))
        XCTAssertEqual(layout(spaced, progress: 1).indicator, Rect(x: 104, y: 36, width: 92, height: 4))
    }

    func testIndicatorBorderAndMenuPosition() {
        var bottom = fixed
        bottom.position = .bottom
        XCTAssertEqual(layout(bottom).indicator?.minY, 0, "next to the pages: the top edge")
        XCTAssertEqual(layout(bottom).border?.minY, 0)
        bottom.indicator = MenuSettings.Indicator(height: 3, insets: EdgeInsets(top: 2, bottom: 6), position: .bottom)
        // PagingIndicatorLayoutAttributes: on the bottom edge, 40 − 3 − 6 + 2.
        XCTAssertEqual(layout(bottom).indicator, Rect(x: 0, y: 33, width: 100, height: 3))
        var hidden = fixed
        hidden.indicator = nil
        hidden.border = nil
        XCTAssertNil(layout(hidden).indicator)
        XCTAssertNil(layout(hidden).border)
        let empty = layout(fixed, 0)
        XCTAssertTrue(empty.items.isEmpty)
        XCTAssertNil(empty.selected)
        XCTAssertNil(empty.indicator)
        XCTAssertEqual(empty.border?.size.width, 359)
    }

    func testSelectedScrollPositions() {
        // Content 500 in 375: offsets clamp to 0…125.
        var menu = fixed
        XCTAssertEqual(layout(menu, progress: 0).contentOffset, 0)     // centre 50 − 187.5 → 0
        XCTAssertEqual(layout(menu, progress: 2).contentOffset, 62.5)  // 250 − 187.5
        XCTAssertEqual(layout(menu, progress: 4).contentOffset, 125)   // 450 − 187.5 → 125
        XCTAssertEqual(layout(menu, progress: 1.5).contentOffset, 31.25, "between 0 and 62.5")
        menu.selectedScrollPosition = .center
        // Parchment pads the content by 187.5 − 50 on each side: items from 137.5, content 775.
        XCTAssertEqual(layout(menu, progress: 4).contentOffset, 400)
        XCTAssertEqual(layout(menu, progress: 0).contentOffset, 0)
        XCTAssertEqual(layout(menu, progress: 0).contentSize.width, 775)
        menu.selectedScrollPosition = .left
        XCTAssertEqual(layout(menu, progress: 1).contentOffset, 100)
        XCTAssertEqual(layout(menu, progress: 2).contentOffset, 125)
        menu.selectedScrollPosition = .right
        XCTAssertEqual(layout(menu, progress: 2).contentOffset, 0)     // 300 − 375 → 0
        XCTAssertEqual(layout(menu, progress: 4).contentOffset, 125)   // 500 − 375
    }

    func testSelectedWidthsInterpolate() {
        let titles = [nil, RowTitle(text: "B", selectedWidth: 160), nil]
        XCTAssertEqual(widths(layout(fixed, 3, titles: titles, progress: 1)), [100, 160, 100])
        XCTAssertEqual(xs(layout(fixed, 3, titles: titles, progress: 1)), [0, 100, 260])
        XCTAssertEqual(widths(layout(fixed, 3, titles: titles, progress: 0.5)), [100, 130, 100])
        XCTAssertEqual(widths(layout(fixed, 3, titles: titles, progress: 1.25)), [100, 145, 100])
        XCTAssertEqual(widths(layout(fixed, 3, titles: titles, progress: 0)), [100, 100, 100])
    }

    /// On a stack: one item per shown row, laid out at the paging progress.
    func testFollowsTheStack() throws {
        var stack = try Carousel.stack([375, 375, 375, 375], width: 375, paging: PagingSettings(), offset: 562.5, hidden: [1])
        var change = SettingsChange()
        change.menu = .some(fixed)
        try stack.update(change)
        let menu = try XCTUnwrap(stack.menuLayout())
        XCTAssertEqual(menu.items.map(\.id), ["r0", "r2", "r3"])
        XCTAssertEqual(menu.selected, 1, "562.5 is half way: the earlier stop")
        XCTAssertEqual(menu.indicator?.minX ?? 0, 150, accuracy: 1e-9)  // half way from 100 to 200
        XCTAssertEqual(stack.menuFrame(fixed), Rect(x: 0, y: -40, width: 375, height: 40))
    }
}
