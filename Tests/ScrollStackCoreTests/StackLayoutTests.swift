import XCTest
import ScrollStackCore

/// Frames, content frames, separator frames, content size, hit tests and lookups
/// (Docs/Semantics.md, "Rows" and "Layout").
final class StackLayoutTests: XCTestCase {

    // MARK: Empty and one row

    func testEmptyStack() throws {
        let stack = try ScrollStack()
        stack.checkInvariants()
        let layout = stack.layout()
        XCTAssertEqual(layout.rows, [])
        XCTAssertEqual(layout.axis, .vertical)
        XCTAssertEqual(layout.viewport, Size(width: 375, height: 667))
        XCTAssertEqual(layout.offset, .zero)
        XCTAssertEqual(layout.contentSize, Size(width: 375, height: 0))
        XCTAssertEqual(stack.contentSize, Size(width: 375, height: 0))
        XCTAssertEqual(stack.visibleRows, [])
        XCTAssertEqual(stack.entirelyVisibleRows, [])
        XCTAssertEqual(stack.visibleLayout().rows, [])
        XCTAssertEqual(stack.count, 0)
        XCTAssertTrue(stack.isEmpty)
        XCTAssertNil(stack.firstRow)
        XCTAssertNil(stack.lastRow)
        XCTAssertNil(stack.hitTest(Point(x: 10, y: 10)))
        XCTAssertNil(stack.hitTest(Point(x: 0, y: 0)))

        let horizontal = try ScrollStack(settings: StackSettings(axis: .horizontal))
        XCTAssertEqual(horizontal.contentSize, Size(width: 0, height: 667))
        XCTAssertEqual(horizontal.layout().rows, [])
    }

    func testOneRowWithTheDefaultInsets() throws {
        var stack = try ScrollStack(rows: [Fx.defaultRow("a", 44)])
        stack.checkInvariants()
        let row = try stack.layout(of: .id("a"))
        XCTAssertEqual(row.id, "a")
        XCTAssertEqual(row.index, 0)
        XCTAssertEqual(row.frame, Rect(x: 0, y: 0, width: 375, height: 68))
        XCTAssertEqual(row.contentFrame, Rect(x: 16, y: 12, width: 343, height: 44))
        XCTAssertNil(row.separatorFrame, "the last shown row draws no separator by default")
        XCTAssertEqual(row.visibility, .entire)
        XCTAssertEqual(stack.contentSize, Size(width: 375, height: 68))
        XCTAssertEqual(stack.layout().rows, [row])
        XCTAssertEqual(stack.visibleRows, ["a"])
        XCTAssertEqual(stack.entirelyVisibleRows, ["a"])
        XCTAssertEqual(stack.firstRow?.id, "a")
        XCTAssertEqual(stack.lastRow?.id, "a")

        let result = try stack.update(SettingsChange(autoHideLastRowSeparator: false))
        stack.checkInvariants()
        XCTAssertEqual(result.events, [.layoutUpdated])
        XCTAssertEqual(try stack.layout(of: .index(0)).separatorFrame, Rect(x: 16, y: 67, width: 359, height: 1))
    }

    func testRowsWithSpacingAndMixedInsets() throws {
        let c = Fx.row("c", 10, insets: EdgeInsets(top: 5, left: 0, bottom: 5, right: 0))
        let stack = try ScrollStack(settings: StackSettings(spacing: 8), rows: [Fx.defaultRow("a", 44), Fx.row("b", 20), c])
        stack.checkInvariants()
        let rows = stack.layout().rows
        XCTAssertEqual(rows.map(\.index), [0, 1, 2])
        XCTAssertEqual(rows.map(\.frame), [
            Rect(x: 0, y: 0, width: 375, height: 68),
            Rect(x: 0, y: 76, width: 375, height: 20),
            Rect(x: 0, y: 104, width: 375, height: 20),
        ])
        XCTAssertEqual(rows.map(\.contentFrame), [
            Rect(x: 16, y: 12, width: 343, height: 44),
            Rect(x: 0, y: 76, width: 375, height: 20),
            Rect(x: 0, y: 109, width: 375, height: 10),
        ])
        XCTAssertEqual(rows.map(\.separatorFrame), [
            Rect(x: 16, y: 67, width: 359, height: 1),
            Rect(x: 16, y: 95, width: 359, height: 1),
            nil,
        ])
        XCTAssertEqual(stack.contentSize, Size(width: 375, height: 124))
        XCTAssertEqual(try stack.layout(of: .id("b")), rows[1])
        XCTAssertEqual(try stack.layout(of: .index(2)), rows[2])

        var copy = stack
        Fx.assertFails(&copy, .unknownRow, field: "row") { _ = try $0.layout(of: .id("zz")) }
        Fx.assertFails(&copy, .unknownRow, field: "row") { _ = try $0.layout(of: .index(3)) }
        Fx.assertFails(&copy, .unknownRow, field: "row") { _ = try $0.visibility(of: .index(-1)) }
    }

    func testHorizontalFrames() throws {
        let settings = StackSettings(
            axis: .horizontal, spacing: 10,
            separator: SeparatorStyle(thickness: 2, insets: EdgeInsets(top: 4, left: 0, bottom: 6, right: 0))
        )
        let c = Fx.row("c", 30, insets: EdgeInsets(top: 0, left: 5, bottom: 0, right: 5))
        let stack = try ScrollStack(settings: settings, rows: [Fx.defaultRow("a", 100), Fx.row("b", 50), c])
        stack.checkInvariants()
        let layout = stack.layout()
        XCTAssertEqual(layout.axis, .horizontal)
        XCTAssertEqual(layout.rows.map(\.frame), [
            Rect(x: 0, y: 0, width: 132, height: 667),
            Rect(x: 142, y: 0, width: 50, height: 667),
            Rect(x: 202, y: 0, width: 40, height: 667),
        ])
        XCTAssertEqual(layout.rows.map(\.contentFrame), [
            Rect(x: 16, y: 12, width: 100, height: 643),
            Rect(x: 142, y: 0, width: 50, height: 667),
            Rect(x: 207, y: 0, width: 30, height: 667),
        ])
        XCTAssertEqual(layout.rows.map(\.separatorFrame), [
            Rect(x: 130, y: 4, width: 2, height: 657),
            Rect(x: 190, y: 4, width: 2, height: 657),
            nil,
        ])
        XCTAssertEqual(stack.contentSize, Size(width: 242, height: 667))
        XCTAssertEqual(layout.contentSize, Size(width: 242, height: 667))
        XCTAssertEqual(stack.visibleRows, ["a", "b", "c"])
    }

    func testPerAxisSizeRules() throws {
        let row = Row(id: "p", content: .view(ViewDescriptor(type: "Banner")),
                      size: SizeRule(vertical: .fixed(500), horizontal: .fixed(300)), insets: .zero)
        var stack = try ScrollStack(settings: StackSettings(viewport: Size(width: 200, height: 1000)), rows: [row])
        XCTAssertEqual(try stack.layout(of: .id("p")).frame, Rect(x: 0, y: 0, width: 200, height: 500))
        try stack.update(SettingsChange(axis: .horizontal))
        stack.checkInvariants()
        XCTAssertEqual(try stack.layout(of: .id("p")).frame, Rect(x: 0, y: 0, width: 300, height: 1000))
        XCTAssertEqual(stack.contentSize, Size(width: 300, height: 1000))
    }

    // MARK: Separators

    func testSeparatorOverridesPerFieldAndLaterChangesOfTheDefault() throws {
        let rows = [
            Fx.row("a", 40),
            Fx.row("b", 40, separator: SeparatorOverride(thickness: 3)),
            Fx.row("c", 40, separator: SeparatorOverride(insets: EdgeInsets(left: 0, right: 20))),
            Fx.row("d", 40, separator: SeparatorOverride(hidden: true)),
            Fx.row("e", 40, separator: SeparatorOverride(hidden: false)),
            Fx.row("f", 40, separator: SeparatorOverride(color: "#FF0000FF")),
        ]
        var stack = try Fx.stack(rows, viewport: Size(width: 375, height: 667), autoHideLastRowSeparator: false)
        XCTAssertEqual(Fx.separators(stack), [
            Rect(x: 16, y: 39, width: 359, height: 1),
            Rect(x: 16, y: 77, width: 359, height: 3),
            Rect(x: 0, y: 119, width: 355, height: 1),
            nil,
            Rect(x: 16, y: 199, width: 359, height: 1),
            Rect(x: 16, y: 239, width: 359, height: 1),
        ])
        func color(_ id: String) -> String? {
            stack.row(id: id).map { stack.settings.separator.applying($0.separator).color }
        }
        XCTAssertEqual(color("a"), "#3C3C4349")
        XCTAssertEqual(color("f"), "#FF0000FF")

        // A new default reaches every field a row does not override.
        let newDefault = SeparatorStyle(hidden: false, thickness: 2, insets: EdgeInsets(left: 10, right: 5), color: "#000000FF")
        let result = try stack.update(SettingsChange(separator: newDefault))
        stack.checkInvariants()
        XCTAssertEqual(result.events, [.layoutUpdated], "separators take no space")
        XCTAssertEqual(Fx.separators(stack), [
            Rect(x: 10, y: 38, width: 360, height: 2),
            Rect(x: 10, y: 77, width: 360, height: 3),
            Rect(x: 0, y: 118, width: 355, height: 2),
            nil,
            Rect(x: 10, y: 198, width: 360, height: 2),
            Rect(x: 10, y: 238, width: 360, height: 2),
        ])
        XCTAssertEqual(color("a"), "#000000FF")
        XCTAssertEqual(color("f"), "#FF0000FF")
        XCTAssertEqual(stack.row(id: "b")?.separator, SeparatorOverride(thickness: 3), "the row keeps its own override")

        // Hiding separators stack-wide spares only the row that overrides `hidden`.
        try stack.update(SettingsChange(separator: SeparatorStyle(hidden: true, thickness: 2, insets: EdgeInsets(left: 10, right: 5))))
        stack.checkInvariants()
        XCTAssertEqual(Fx.separators(stack), [nil, nil, nil, nil, Rect(x: 10, y: 198, width: 360, height: 2), nil])

        // Clearing an override makes the row follow the stack again; setting one replaces the whole override.
        let cleared = try stack.update(.id("e"), with: RowChange(separator: SeparatorOverride.none))
        stack.checkInvariants()
        XCTAssertEqual(cleared.events, [.layoutUpdated])
        XCTAssertEqual(cleared.changed, ["e"])
        try stack.update(.id("b"), with: RowChange(separator: SeparatorOverride(hidden: false)))
        stack.checkInvariants()
        XCTAssertEqual(Fx.separators(stack), [nil, Rect(x: 10, y: 78, width: 360, height: 2), nil, nil, nil, nil])
        XCTAssertEqual(stack.row(id: "b")?.separator, SeparatorOverride(hidden: false))
    }

    func testCrossExtentsNeverGoBelowZero() throws {
        let settings = StackSettings(
            viewport: Size(width: 20, height: 100),
            separator: SeparatorStyle(insets: EdgeInsets(left: 16, right: 10)),
            autoHideLastRowSeparator: false
        )
        let stack = try ScrollStack(settings: settings, rows: [Fx.defaultRow("a", 10)])
        stack.checkInvariants()
        let row = try stack.layout(of: .id("a"))
        XCTAssertEqual(row.frame, Rect(x: 0, y: 0, width: 20, height: 34))
        XCTAssertEqual(row.contentFrame, Rect(x: 16, y: 12, width: 0, height: 10))
        XCTAssertEqual(row.separatorFrame, Rect(x: 16, y: 33, width: 0, height: 1))

        let horizontal = try ScrollStack(settings: StackSettings(axis: .horizontal, viewport: Size(width: 100, height: 20)),
                                         rows: [Fx.defaultRow("a", 10)])
        XCTAssertEqual(try horizontal.layout(of: .id("a")).contentFrame, Rect(x: 16, y: 12, width: 10, height: 0))
        XCTAssertEqual(try horizontal.layout(of: .id("a")).frame, Rect(x: 0, y: 0, width: 42, height: 20))
    }

    // MARK: Hidden rows

    func testHiddenRowCollapsesAtTheEndOfThePreviousShownRowWithoutSpacing() throws {
        let b = Fx.row("b", 30, insets: EdgeInsets(top: 7, left: 3, bottom: 9, right: 4), hidden: true)
        let stack = try Fx.stack([Fx.row("a", 50), b, Fx.row("c", 40)], spacing: 10)
        let rows = stack.layout().rows
        XCTAssertEqual(rows[0].frame, Rect(x: 0, y: 0, width: 200, height: 50))
        XCTAssertEqual(rows[1].frame, Rect(x: 0, y: 50, width: 200, height: 0))
        XCTAssertEqual(rows[1].contentFrame, Rect(x: 3, y: 50, width: 193, height: 0),
                       "a hidden row's content frame sits at the collapse point and keeps its cross insets")
        XCTAssertNil(rows[1].separatorFrame)
        XCTAssertEqual(rows[1].visibility, .hidden)
        XCTAssertEqual(rows[2].frame, Rect(x: 0, y: 60, width: 200, height: 40), "one spacing between a and c")
        XCTAssertEqual(stack.contentSize, Size(width: 200, height: 100))
        XCTAssertEqual(stack.visibleRows, ["a", "c"])
        XCTAssertEqual(stack.entirelyVisibleRows, ["a", "c"])
    }

    func testHiddenRowsFirstLastAndInARow() throws {
        let rows = [
            Fx.row("h1", 30, hidden: true), Fx.row("a", 50), Fx.row("h2", 30, hidden: true),
            Fx.row("h3", 30, hidden: true), Fx.row("b", 20), Fx.row("h4", 30, hidden: true),
        ]
        let stack = try Fx.stack(rows, spacing: 10)
        XCTAssertEqual(Fx.frames(stack), [
            Rect(x: 0, y: 0, width: 200, height: 0),
            Rect(x: 0, y: 0, width: 200, height: 50),
            Rect(x: 0, y: 50, width: 200, height: 0),
            Rect(x: 0, y: 50, width: 200, height: 0),
            Rect(x: 0, y: 60, width: 200, height: 20),
            Rect(x: 0, y: 80, width: 200, height: 0),
        ])
        XCTAssertEqual(Fx.separators(stack), [nil, Rect(x: 16, y: 49, width: 184, height: 1), nil, nil, nil, nil])
        XCTAssertEqual(stack.contentSize, Size(width: 200, height: 80))
        XCTAssertEqual(stack.layout().rows.map(\.visibility), [.hidden, .entire, .hidden, .hidden, .entire, .hidden])
    }

    func testAllRowsHidden() throws {
        let rows = ["a", "b", "c"].map { Fx.row($0, 50, hidden: true) }
        var stack = try Fx.stack(rows, spacing: 10, autoHideLastRowSeparator: false)
        XCTAssertEqual(stack.contentSize, Size(width: 200, height: 0))
        XCTAssertEqual(Fx.frames(stack), Array(repeating: Rect(x: 0, y: 0, width: 200, height: 0), count: 3))
        XCTAssertEqual(Fx.separators(stack), [nil, nil, nil])
        XCTAssertEqual(stack.layout().rows.map(\.visibility), [.hidden, .hidden, .hidden])
        XCTAssertEqual(stack.visibleRows, [])
        XCTAssertEqual(stack.entirelyVisibleRows, [])
        XCTAssertNil(stack.hitTest(Point(x: 10, y: 0)))
        XCTAssertEqual(stack.scrollRange, 0...0)
        XCTAssertFalse(stack.isEmpty)
        XCTAssertEqual(stack.count, 3)

        let shown = try stack.setHidden([.id("b")], false)
        stack.checkInvariants()
        XCTAssertEqual(shown.events, [
            .rowShown(id: "b", index: 1), .layoutUpdated,
            .contentSizeChanged(from: Size(width: 200, height: 0), to: Size(width: 200, height: 50)),
            .becameVisible(id: "b", index: 1, visibility: .entire),
        ])
        XCTAssertEqual(Fx.frames(stack), [
            Rect(x: 0, y: 0, width: 200, height: 0),
            Rect(x: 0, y: 0, width: 200, height: 50),
            Rect(x: 0, y: 50, width: 200, height: 0),
        ])
        XCTAssertEqual(Fx.separators(stack), [nil, Rect(x: 16, y: 49, width: 184, height: 1), nil])
    }

    func testAutoHideLastRowSeparatorFollowsTheLastShownRow() throws {
        var stack = try ScrollStack(rows: [Fx.defaultRow("a"), Fx.defaultRow("b"), Fx.defaultRow("c", hidden: true)])
        stack.checkInvariants()
        let aSeparator = Rect(x: 16, y: 67, width: 359, height: 1)
        let bSeparator = Rect(x: 16, y: 135, width: 359, height: 1)
        XCTAssertEqual(Fx.separators(stack), [aSeparator, nil, nil], "b is the last shown row")

        try stack.update(SettingsChange(autoHideLastRowSeparator: false))
        stack.checkInvariants()
        XCTAssertEqual(Fx.separators(stack), [aSeparator, bSeparator, nil], "a hidden row never draws one")

        try stack.update(SettingsChange(autoHideLastRowSeparator: true))
        try stack.setHidden([.id("c")], false)
        stack.checkInvariants()
        XCTAssertEqual(Fx.separators(stack), [aSeparator, bSeparator, nil])

        try stack.setHidden([.id("b"), .id("c")], true)
        stack.checkInvariants()
        XCTAssertEqual(Fx.separators(stack), [nil, nil, nil], "a is now the last shown row")

        try stack.setHidden([.id("b")], false)
        try stack.remove([.id("c")])
        stack.checkInvariants()
        XCTAssertEqual(Fx.separators(stack), [aSeparator, nil])

        try stack.move(.id("b"), to: 0)
        stack.checkInvariants()
        XCTAssertEqual(Fx.separators(stack), [Rect(x: 16, y: 67, width: 359, height: 1), nil], "b then a: a is last")
    }

    func testContentInsetsNeverMoveRowsNorShrinkTheViewport() throws {
        let stack = try Fx.uniform(4, contentInsets: EdgeInsets(top: 50, left: 5, bottom: 60, right: 5))
        XCTAssertEqual(Fx.frames(stack)[0], Rect(x: 0, y: 0, width: 200, height: 50))
        XCTAssertEqual(stack.contentSize, Size(width: 200, height: 200))
        XCTAssertEqual(stack.entirelyVisibleRows, ["r0", "r1"])
    }

    func testLayoutAtAnotherOffsetDoesNotScroll() throws {
        let stack = try Fx.uniform(4)
        let layout = stack.layout(offset: Point(x: 0, y: 25))
        XCTAssertEqual(layout.offset, Point(x: 0, y: 25))
        XCTAssertEqual(layout.rows.count, 4)
        Fx.assertVisibility(layout.rows[0].visibility, .partial(fraction: 0.5))
        XCTAssertEqual(layout.rows[1].visibility, .entire)
        Fx.assertVisibility(layout.rows[2].visibility, .partial(fraction: 0.5))
        XCTAssertEqual(layout.rows[3].visibility, .offscreen)
        XCTAssertEqual(layout.visibleRows, ["r0", "r1", "r2"])
        XCTAssertEqual(layout.entirelyVisibleRows, ["r1"])
        let window = stack.visibleLayout(offset: Point(x: 0, y: 25))
        XCTAssertEqual(window.rows.map(\.id), ["r0", "r1", "r2"])
        XCTAssertEqual(window.rows.map(\.index), [0, 1, 2])
        XCTAssertEqual(window.contentSize, Size(width: 200, height: 200))
        XCTAssertEqual(stack.settings.offset, .zero)
        XCTAssertEqual(stack.visibleRows, ["r0", "r1"])
        stack.checkInvariants()
    }

    // MARK: Hit tests

    func testHitTest() throws {
        var stack = try Fx.uniform(3, spacing: 10)  // r0 0…50, r1 60…110, r2 120…170
        XCTAssertEqual(stack.hitTest(Point(x: 10, y: 20))?.id, "r0")
        XCTAssertEqual(stack.hitTest(Point(x: 0, y: 0))?.id, "r0")
        XCTAssertEqual(stack.hitTest(Point(x: 10, y: 20)), try stack.layout(of: .id("r0")))
        XCTAssertNil(stack.hitTest(Point(x: 10, y: 50)), "a row's trailing edge is exclusive; the gap follows")
        XCTAssertNil(stack.hitTest(Point(x: 10, y: 55)), "spacing")
        XCTAssertEqual(stack.hitTest(Point(x: 10, y: 60))?.id, "r1")
        XCTAssertEqual(stack.hitTest(Point(x: 199.5, y: 99.5))?.index, 1)
        XCTAssertNil(stack.hitTest(Point(x: 10, y: 100)), "outside the viewport")
        XCTAssertNil(stack.hitTest(Point(x: 200, y: 10)), "outside the viewport")
        XCTAssertNil(stack.hitTest(Point(x: -1, y: 10)), "outside the viewport")
        XCTAssertNil(stack.hitTest(Point(x: 10, y: -1)), "outside the viewport")

        // With an offset the point is in viewport coordinates.
        try stack.scroll(to: .offset(Point(x: 0, y: 40)))
        stack.checkInvariants()
        XCTAssertEqual(stack.hitTest(Point(x: 10, y: 5))?.id, "r0")   // content y 45
        XCTAssertNil(stack.hitTest(Point(x: 10, y: 15)))             // content y 55: spacing
        XCTAssertEqual(stack.hitTest(Point(x: 10, y: 25))?.id, "r1") // content y 65
        XCTAssertEqual(stack.hitTest(Point(x: 10, y: 85))?.id, "r2") // content y 125
        XCTAssertEqual(stack.hitTest(Point(x: 10, y: 85))?.visibility, .partial(fraction: 0.4))

        // A cross offset can put the point beside the content.
        try stack.scroll(to: .offset(Point(x: 10, y: 0)))
        XCTAssertEqual(stack.hitTest(Point(x: 185, y: 10))?.id, "r0")
        XCTAssertNil(stack.hitTest(Point(x: 190, y: 10)), "content x 200 is beside the rows")

        // Before and after the content.
        try stack.scroll(to: .offset(Point(x: 0, y: -20)))
        XCTAssertNil(stack.hitTest(Point(x: 10, y: 10)))
        XCTAssertEqual(stack.hitTest(Point(x: 10, y: 20))?.id, "r0")
        try stack.scroll(to: .offset(Point(x: 0, y: 100)))
        XCTAssertEqual(stack.hitTest(Point(x: 10, y: 69))?.id, "r2")
        XCTAssertNil(stack.hitTest(Point(x: 10, y: 70)), "past the last row")
        stack.checkInvariants()
    }

    /// A viewport so small that a row's frame has no area in it (1e-200 × 1e-200: the area
    /// underflows to 0) holds the point (0, 0), and so does the row's frame; but the row is
    /// offscreen, and a tap cannot land on what shows nothing (schemathesis found the HTTP
    /// answer naming an offscreen row, which its schema does not allow).
    func testRowsWithNoAreaInTheViewportAreNeverHit() throws {
        let stack = try Fx.stack([Fx.row("a", 24)], viewport: Size(width: 1e-200, height: 1e-200))
        XCTAssertEqual(try stack.layout(of: .id("a")).visibility, .offscreen)
        XCTAssertNil(stack.hitTest(Point(x: 0, y: 0)))
        let thin = try Fx.stack([Fx.row("a", 24)], viewport: Size(width: 375, height: 1e-300))
        XCTAssertEqual(thin.hitTest(Point(x: 10, y: 0))?.visibility.isVisible, true, "some area, however little, is visible")
    }

    func testHiddenAndZeroLengthRowsAreNeverHit() throws {
        let rows = [Fx.row("a", 50), Fx.row("h", 30, hidden: true), Fx.row("z", 0), Fx.row("b", 40)]
        let stack = try Fx.stack(rows)
        XCTAssertEqual(stack.hitTest(Point(x: 10, y: 49))?.id, "a")
        XCTAssertEqual(stack.hitTest(Point(x: 10, y: 50))?.id, "b")
        XCTAssertEqual(stack.hitTest(Point(x: 10, y: 50))?.index, 3)
        XCTAssertEqual(stack.hitTest(Point(x: 10, y: 89))?.id, "b")
        XCTAssertNil(stack.hitTest(Point(x: 10, y: 90)))

        let allHidden = try Fx.stack([Fx.row("h1", 50, hidden: true), Fx.row("h2", 50, hidden: true)])
        XCTAssertNil(allHidden.hitTest(Point(x: 10, y: 0)))
        XCTAssertNil(allHidden.hitTest(Point(x: 10, y: 25)))
    }

    func testHorizontalHitTest() throws {
        var stack = try Fx.uniform(4, length: 100, viewport: Size(width: 300, height: 100), axis: .horizontal, spacing: 20)
        // r0 0…100, r1 120…220, r2 240…340
        XCTAssertEqual(stack.hitTest(Point(x: 50, y: 50))?.id, "r0")
        XCTAssertNil(stack.hitTest(Point(x: 110, y: 50)))
        XCTAssertEqual(stack.hitTest(Point(x: 120, y: 99))?.id, "r1")
        XCTAssertNil(stack.hitTest(Point(x: 120, y: 100)))
        try stack.scroll(to: .offset(Point(x: 200, y: 0)))
        stack.checkInvariants()
        XCTAssertEqual(stack.hitTest(Point(x: 10, y: 0))?.id, "r1")    // content x 210
        XCTAssertEqual(stack.hitTest(Point(x: 45, y: 0))?.id, "r2")    // content x 245
        XCTAssertEqual(stack.hitTest(Point(x: 45, y: 0))?.frame, Rect(x: 240, y: 0, width: 100, height: 100))
    }

    // MARK: Lookups

    func testControllerAndIdLookups() throws {
        let rows = [
            Fx.row("a", type: "Gallery", instance: "g1"),
            Fx.row("b", hidden: true, type: "Text", instance: "t1"),
            Fx.row("c", type: "Gallery", instance: "g2"),
            Fx.viewRow("d", type: "Gallery"),
            Fx.row("e", type: "Text"),
        ]
        var stack = try Fx.stack(rows)
        XCTAssertEqual(stack.firstRow(controllerType: "Gallery")?.row.id, "a")
        XCTAssertEqual(stack.firstRow(controllerType: "Gallery")?.index, 0)
        XCTAssertEqual(stack.firstRow(controllerType: "Text")?.row.id, "b", "hidden rows are found too")
        XCTAssertNil(stack.firstRow(controllerType: "Label"), "view rows have no controller")
        XCTAssertEqual(stack.rows(controllerType: "Gallery").map(\.row.id), ["a", "c"], "the view row d is no controller")
        XCTAssertEqual(stack.rows(controllerType: "Gallery").map(\.index), [0, 2])
        XCTAssertEqual(stack.rows(controllerType: "Text").map(\.row.id), ["b", "e"])
        XCTAssertEqual(stack.rows(controllerType: "Text").map(\.index), [1, 4])
        XCTAssertEqual(stack.rows(controllerType: "Nope").count, 0)
        XCTAssertEqual(stack.row(controllerInstance: "t1")?.row.id, "b")
        XCTAssertEqual(stack.row(controllerInstance: "t1")?.index, 1)
        XCTAssertEqual(stack.row(controllerInstance: "g2")?.index, 2)
        XCTAssertNil(stack.row(controllerInstance: "nope"))
        XCTAssertEqual(stack.index(ofID: "c"), 2)
        XCTAssertEqual(stack.index(ofID: "e"), 4)
        XCTAssertNil(stack.index(ofID: "zz"))
        XCTAssertEqual(stack.row(id: "d")?.content, .view(ViewDescriptor(type: "Gallery")))
        XCTAssertNil(stack.row(id: "zz"))
        XCTAssertEqual(stack.row(at: 3).id, "d")
        XCTAssertEqual(try stack.resolve(.index(1)).row.id, "b")
        XCTAssertEqual(try stack.resolve(.id("e")).index, 4)
        XCTAssertThrowsError(try stack.resolve(.id("zz"), field: "here")) { error in
            XCTAssertEqual((error as? StackError)?.code, .unknownRow)
            XCTAssertEqual((error as? StackError)?.field, "here")
        }

        try stack.move(.id("e"), to: 0)
        stack.checkInvariants()
        XCTAssertEqual(stack.firstRow(controllerType: "Text")?.row.id, "e")
        XCTAssertEqual(stack.firstRow(controllerType: "Text")?.index, 0)
        XCTAssertEqual(stack.rows(controllerType: "Gallery").map(\.index), [1, 3])
        XCTAssertEqual(stack.index(ofID: "c"), 3)
    }

    func testFirstLastAndIsEmptyCountHiddenRows() throws {
        var stack = try Fx.stack([Fx.row("h1", hidden: true), Fx.row("a"), Fx.row("h2", hidden: true)])
        XCTAssertEqual(stack.firstRow?.id, "h1")
        XCTAssertEqual(stack.lastRow?.id, "h2")
        XCTAssertFalse(stack.isEmpty)
        XCTAssertEqual(stack.count, 3)
        try stack.remove([.id("a")])
        stack.checkInvariants()
        XCTAssertEqual(stack.firstRow?.id, "h1")
        XCTAssertEqual(stack.lastRow?.id, "h2")
        XCTAssertFalse(stack.isEmpty, "hidden rows are rows")
        XCTAssertEqual(stack.visibleRows, [])
        try stack.remove([.index(1), .index(0)])
        stack.checkInvariants()
        XCTAssertTrue(stack.isEmpty)
        XCTAssertNil(stack.firstRow)
        XCTAssertNil(stack.lastRow)
    }
}
