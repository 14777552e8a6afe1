import XCTest
import ScrollStackCore

/// Visibility states and the events that report their changes (Docs/Semantics.md,
/// "Visibility" and "Events").
final class StackVisibilityTests: XCTestCase {

    // MARK: States

    func testZeroLengthRowsInsideAndOnTheEdgesAreEntire() throws {
        var stack = try Fx.stack([Fx.row("z0", 0), Fx.row("a", 100), Fx.row("z1", 0), Fx.row("b", 50)])
        XCTAssertEqual(Fx.frames(stack), [
            Rect(x: 0, y: 0, width: 200, height: 0),
            Rect(x: 0, y: 0, width: 200, height: 100),
            Rect(x: 0, y: 100, width: 200, height: 0),
            Rect(x: 0, y: 100, width: 200, height: 50),
        ])
        XCTAssertEqual(stack.layout().rows.map(\.visibility), [.entire, .entire, .entire, .offscreen])
        XCTAssertEqual(stack.visibleRows, ["z0", "a", "z1"])
        XCTAssertEqual(stack.entirelyVisibleRows, ["z0", "a", "z1"])

        let down = try stack.scroll(to: .offset(Point(x: 0, y: 100)))
        stack.checkInvariants()
        XCTAssertEqual(stack.layout().rows.map(\.visibility), [.offscreen, .offscreen, .entire, .entire])
        XCTAssertEqual(down.events, [
            .layoutUpdated, .didScroll(from: .zero, to: Point(x: 0, y: 100)),
            .becameHidden(id: "z0", index: 0, visibility: .offscreen),
            .becameHidden(id: "a", index: 1, visibility: .offscreen),
            .becameVisible(id: "b", index: 3, visibility: .entire),
        ])

        let past = try stack.scroll(to: .offset(Point(x: 0, y: 101)))
        stack.checkInvariants()
        Fx.assertEvents(past.events, [
            .layoutUpdated, .didScroll(from: Point(x: 0, y: 100), to: Point(x: 0, y: 101)),
            .becameHidden(id: "z1", index: 2, visibility: .offscreen),
            .becameHidden(id: "b", index: 3, visibility: .partial(fraction: 0.98)),
        ])

        let inside = try Fx.stack([Fx.row("a", 50), Fx.row("z", 0), Fx.row("b", 30)])
        XCTAssertEqual(try inside.visibility(of: .id("z")), .entire)
        XCTAssertEqual(inside.visibleRows, ["a", "z", "b"])
    }

    func testRowsTouchingTheTopAndBottomEdgesAreOffscreen() throws {
        let stack = try Fx.uniform(4, offset: Point(x: 0, y: 50))  // viewport 50…150
        XCTAssertEqual(stack.layout().rows.map(\.visibility), [.offscreen, .entire, .entire, .offscreen])
        XCTAssertEqual(stack.visibleRows, ["r1", "r2"])
        XCTAssertEqual(try stack.visibility(of: .id("r0")), .offscreen)
        XCTAssertEqual(try stack.visibility(of: .id("r3")), .offscreen)
    }

    func testRowsTouchingTheLeftAndRightEdgesAreOffscreen() throws {
        var stack = try Fx.uniform(4, viewport: Size(width: 100, height: 200), axis: .horizontal, offset: Point(x: 50, y: 0))
        XCTAssertEqual(Fx.frames(stack)[1], Rect(x: 50, y: 0, width: 50, height: 200))
        XCTAssertEqual(stack.layout().rows.map(\.visibility), [.offscreen, .entire, .entire, .offscreen])
        XCTAssertEqual(stack.visibleRows, ["r1", "r2"])

        let result = try stack.scroll(to: .offset(Point(x: 75, y: 0)))
        stack.checkInvariants()
        let rows = stack.layout().rows
        XCTAssertEqual(rows[0].visibility, .offscreen)
        Fx.assertVisibility(rows[1].visibility, .partial(fraction: 0.5))
        XCTAssertEqual(rows[2].visibility, .entire)
        Fx.assertVisibility(rows[3].visibility, .partial(fraction: 0.5))
        Fx.assertEvents(result.events, [
            .layoutUpdated, .didScroll(from: Point(x: 50, y: 0), to: Point(x: 75, y: 0)),
            .becameHidden(id: "r1", index: 1, visibility: .partial(fraction: 0.5)),
            .becameVisible(id: "r3", index: 3, visibility: .partial(fraction: 0.5)),
        ])
    }

    func testARowLongerThanTheViewportIsNeverEntire() throws {
        var stack = try Fx.stack([Fx.row("a", 400), Fx.row("b", 50)])
        Fx.assertVisibility(try stack.visibility(of: .id("a")), .partial(fraction: 0.25))
        XCTAssertEqual(try stack.visibility(of: .id("b")), .offscreen)
        for y in stride(from: 0.0, through: 300, by: 25) {
            try stack.scroll(to: .offset(Point(x: 0, y: y)))
            stack.checkInvariants()
            Fx.assertVisibility(try stack.visibility(of: .id("a")), .partial(fraction: 0.25))
            XCTAssertEqual(stack.entirelyVisibleRows, [])
        }
        try stack.scroll(to: .offset(Point(x: 0, y: 350)))
        stack.checkInvariants()
        Fx.assertVisibility(try stack.visibility(of: .id("a")), .partial(fraction: 0.125))
        XCTAssertEqual(try stack.visibility(of: .id("b")), .entire)
        XCTAssertEqual(stack.visibleRows, ["a", "b"])
        XCTAssertEqual(stack.entirelyVisibleRows, ["b"])
        XCTAssertEqual(try stack.scroll(to: .row(.id("a"), .automatic)).events.last,
                       .becameHidden(id: "b", index: 1, visibility: .offscreen))
        XCTAssertEqual(stack.settings.offset, .zero)
    }

    func testACrossOffsetMakesRowsPartial() throws {
        let stack = try Fx.uniform(2, offset: Point(x: 50, y: 0))
        Fx.assertVisibility(try stack.visibility(of: .id("r0")), .partial(fraction: 0.75))
        Fx.assertVisibility(try stack.visibility(of: .id("r1")), .partial(fraction: 0.75))
        XCTAssertEqual(stack.visibleRows, ["r0", "r1"])
        XCTAssertEqual(stack.entirelyVisibleRows, [])
    }

    func testVisibilityFractionAccessors() {
        XCTAssertEqual(Visibility.entire.fraction, 1)
        XCTAssertEqual(Visibility.hidden.fraction, 0)
        XCTAssertEqual(Visibility.offscreen.fraction, 0)
        XCTAssertEqual(Visibility.partial(fraction: 0.25).fraction, 0.25)
        XCTAssertTrue(Visibility.partial(fraction: 0.25).isVisible)
        XCTAssertFalse(Visibility.offscreen.isVisible)
        XCTAssertEqual([Visibility.hidden, .offscreen, .entire, .partial(fraction: 0.5)].map(\.name),
                       ["hidden", "offscreen", "entire", "partial"])
    }

    // MARK: Events from scrolling

    func testCreatingAStackEmitsNothingButRecordsTheVisibility() throws {
        var stack = try Fx.uniform(4)
        XCTAssertEqual(try stack.scroll(to: .offset(.zero)).events, [.layoutUpdated],
                       "the initial states were recorded: no becameVisible afterwards")
        stack.checkInvariants()
    }

    func testOffscreenToEntireJumpEmitsOneBecameVisible() throws {
        var stack = try Fx.uniform(10)
        let result = try stack.scroll(to: .row(.id("r7"), .automatic))  // below: bottom-aligned at 400 − 100
        stack.checkInvariants()
        XCTAssertEqual(stack.settings.offset, Point(x: 0, y: 300))
        XCTAssertEqual(result.events, [
            .layoutUpdated, .didScroll(from: .zero, to: Point(x: 0, y: 300)),
            .becameHidden(id: "r0", index: 0, visibility: .offscreen),
            .becameHidden(id: "r1", index: 1, visibility: .offscreen),
            .becameVisible(id: "r6", index: 6, visibility: .entire),
            .becameVisible(id: "r7", index: 7, visibility: .entire),
        ])
        let r7 = result.events.filter {
            switch $0 {
            case .becameVisible(let id, _, _), .becameHidden(let id, _, _): id == "r7"
            default: false
            }
        }
        XCTAssertEqual(r7, [.becameVisible(id: "r7", index: 7, visibility: .entire)])
        XCTAssertEqual(stack.visibleRows, ["r6", "r7"])

        let back = try stack.scroll(to: .top)
        stack.checkInvariants()
        XCTAssertEqual(back.events, [
            .layoutUpdated, .didScroll(from: Point(x: 0, y: 300), to: .zero),
            .becameVisible(id: "r0", index: 0, visibility: .entire),
            .becameVisible(id: "r1", index: 1, visibility: .entire),
            .becameHidden(id: "r6", index: 6, visibility: .offscreen),
            .becameHidden(id: "r7", index: 7, visibility: .offscreen),
        ])
    }

    func testEntireToPartialToOffscreenTransitions() throws {
        var stack = try Fx.uniform(10)
        let first = try stack.scroll(to: .offset(Point(x: 0, y: 25)))
        stack.checkInvariants()
        Fx.assertEvents(first.events, [
            .layoutUpdated, .didScroll(from: .zero, to: Point(x: 0, y: 25)),
            .becameHidden(id: "r0", index: 0, visibility: .partial(fraction: 0.5)),
            .becameVisible(id: "r2", index: 2, visibility: .partial(fraction: 0.5)),
        ])

        let second = try stack.scroll(to: .offset(Point(x: 0, y: 30)))
        stack.checkInvariants()
        XCTAssertEqual(second.events, [.layoutUpdated, .didScroll(from: Point(x: 0, y: 25), to: Point(x: 0, y: 30))],
                       "partial → partial emits nothing")
        Fx.assertVisibility(try stack.visibility(of: .id("r0")), .partial(fraction: 0.4))
        Fx.assertVisibility(try stack.visibility(of: .id("r2")), .partial(fraction: 0.6))

        let third = try stack.scroll(to: .offset(Point(x: 0, y: 50)))
        stack.checkInvariants()
        XCTAssertEqual(third.events, [
            .layoutUpdated, .didScroll(from: Point(x: 0, y: 30), to: Point(x: 0, y: 50)),
            .becameHidden(id: "r0", index: 0, visibility: .offscreen),
            .becameVisible(id: "r2", index: 2, visibility: .entire),
        ])

        XCTAssertEqual(try stack.scroll(to: .offset(Point(x: 0, y: 50))).events, [.layoutUpdated])
        stack.checkInvariants()

        let away = try stack.scroll(to: .offset(Point(x: 0, y: 1000)))
        stack.checkInvariants()
        XCTAssertEqual(away.events, [
            .layoutUpdated, .didScroll(from: Point(x: 0, y: 50), to: Point(x: 0, y: 1000)),
            .becameHidden(id: "r1", index: 1, visibility: .offscreen),
            .becameHidden(id: "r2", index: 2, visibility: .offscreen),
        ])
        XCTAssertEqual(stack.visibleRows, [])

        let last = try stack.scroll(to: .offset(Point(x: 0, y: 475)))
        stack.checkInvariants()
        Fx.assertEvents(last.events, [
            .layoutUpdated, .didScroll(from: Point(x: 0, y: 1000), to: Point(x: 0, y: 475)),
            .becameVisible(id: "r9", index: 9, visibility: .partial(fraction: 0.5)),
        ])
    }

    // MARK: Events from other operations

    func testHidingAVisibleRow() throws {
        var stack = try Fx.uniform(4)
        let hidden = try stack.setHidden([.id("r0")], true)
        stack.checkInvariants()
        XCTAssertEqual(hidden.events, [
            .rowHidden(id: "r0", index: 0), .layoutUpdated,
            .contentSizeChanged(from: Size(width: 200, height: 200), to: Size(width: 200, height: 150)),
            .becameHidden(id: "r0", index: 0, visibility: .hidden),
            .becameVisible(id: "r2", index: 2, visibility: .entire),
        ])
        XCTAssertEqual(hidden.changed, ["r0"])
        XCTAssertEqual(stack.visibleRows, ["r1", "r2"])
        XCTAssertEqual(try stack.visibility(of: .id("r0")), .hidden)

        XCTAssertEqual(try stack.setHidden([.id("r0")], true).events, [.layoutUpdated], "no change, no rowHidden")
        stack.checkInvariants()

        let shown = try stack.setHidden([.id("r0")], false)
        stack.checkInvariants()
        XCTAssertEqual(shown.events, [
            .rowShown(id: "r0", index: 0), .layoutUpdated,
            .contentSizeChanged(from: Size(width: 200, height: 150), to: Size(width: 200, height: 200)),
            .becameVisible(id: "r0", index: 0, visibility: .entire),
            .becameHidden(id: "r2", index: 2, visibility: .offscreen),
        ])
    }

    func testHidingAVisibleRowNextToSpacing() throws {
        var stack = try Fx.uniform(4, spacing: 10)  // r0 0…50, r1 60…110, r2 120…170
        Fx.assertVisibility(try stack.visibility(of: .id("r1")), .partial(fraction: 0.8))
        let result = try stack.setHidden([.id("r1")], true)
        stack.checkInvariants()
        Fx.assertEvents(result.events, [
            .rowHidden(id: "r1", index: 1), .layoutUpdated,
            .contentSizeChanged(from: Size(width: 200, height: 230), to: Size(width: 200, height: 170)),
            .becameHidden(id: "r1", index: 1, visibility: .hidden),
            .becameVisible(id: "r2", index: 2, visibility: .partial(fraction: 0.8)),
        ])
        XCTAssertEqual(Fx.frames(stack), [
            Rect(x: 0, y: 0, width: 200, height: 50),
            Rect(x: 0, y: 50, width: 200, height: 0),
            Rect(x: 0, y: 60, width: 200, height: 50),
            Rect(x: 0, y: 120, width: 200, height: 50),
        ])
    }

    func testHidingAnOffscreenRowEmitsNoVisibilityEvent() throws {
        var stack = try Fx.uniform(4)
        let result = try stack.setHidden([.id("r3")], true)
        stack.checkInvariants()
        XCTAssertEqual(result.events, [
            .rowHidden(id: "r3", index: 3), .layoutUpdated,
            .contentSizeChanged(from: Size(width: 200, height: 200), to: Size(width: 200, height: 150)),
        ])
        XCTAssertEqual(try stack.setHidden([.id("r3")], false).events, [
            .rowShown(id: "r3", index: 3), .layoutUpdated,
            .contentSizeChanged(from: Size(width: 200, height: 150), to: Size(width: 200, height: 200)),
        ])
        stack.checkInvariants()
    }

    func testInsertingAboveTheVisibleRowsPushesThemDown() throws {
        var stack = try Fx.uniform(4)
        let result = try stack.insert([Fx.row("x", 25)], at: .top)
        stack.checkInvariants()
        Fx.assertEvents(result.events, [
            .rowAdded(id: "x", index: 0), .layoutUpdated,
            .contentSizeChanged(from: Size(width: 200, height: 200), to: Size(width: 200, height: 225)),
            .becameVisible(id: "x", index: 0, visibility: .entire),
            .becameHidden(id: "r1", index: 2, visibility: .partial(fraction: 0.5)),
        ])

        let block = try stack.insert([Fx.row("p", 10), Fx.row("q", 10)], at: .index(1))
        stack.checkInvariants()
        // x 0…25, p 25…35, q 35…45, r0 45…95, r1 95…145
        Fx.assertEvents(block.events, [
            .rowAdded(id: "p", index: 1), .rowAdded(id: "q", index: 2), .layoutUpdated,
            .contentSizeChanged(from: Size(width: 200, height: 225), to: Size(width: 200, height: 245)),
            .becameVisible(id: "p", index: 1, visibility: .entire),
            .becameVisible(id: "q", index: 2, visibility: .entire),
        ])
        Fx.assertVisibility(try stack.visibility(of: .id("r1")), .partial(fraction: 0.1))
    }

    func testInsertingAHiddenRowEmitsNoVisibilityEvent() throws {
        var stack = try Fx.uniform(2, spacing: 10)
        let result = try stack.insert([Fx.row("h", 30, hidden: true)], at: .index(1))
        stack.checkInvariants()
        XCTAssertEqual(result.events, [.rowAdded(id: "h", index: 1), .layoutUpdated], "a hidden row adds no length nor spacing")
        XCTAssertEqual(try stack.layout(of: .id("h")).frame, Rect(x: 0, y: 50, width: 200, height: 0))
        XCTAssertEqual(try stack.layout(of: .id("r1")).frame, Rect(x: 0, y: 60, width: 200, height: 50))
    }

    func testRemovedRowsEmitNoVisibilityEvent() throws {
        var stack = try Fx.uniform(4)
        let result = try stack.remove([.id("r0")])
        stack.checkInvariants()
        XCTAssertEqual(result.events, [
            .rowRemoved(id: "r0", index: 0), .layoutUpdated,
            .contentSizeChanged(from: Size(width: 200, height: 200), to: Size(width: 200, height: 150)),
            .becameVisible(id: "r2", index: 1, visibility: .entire),
        ])
    }

    func testResizingARowMovesTheOthers() throws {
        var stack = try Fx.uniform(4)
        let result = try stack.update(.id("r0"), with: RowChange(size: .fixed(100)))
        stack.checkInvariants()
        XCTAssertEqual(result.events, [
            .rowResized(id: "r0", index: 0, from: 50, to: 100), .layoutUpdated,
            .contentSizeChanged(from: Size(width: 200, height: 200), to: Size(width: 200, height: 250)),
            .becameHidden(id: "r1", index: 1, visibility: .offscreen),
        ])
    }

    func testViewportChanges() throws {
        var stack = try Fx.uniform(4)
        let taller = try stack.update(SettingsChange(viewport: Size(width: 200, height: 150)))
        stack.checkInvariants()
        XCTAssertEqual(taller.events, [.layoutUpdated, .becameVisible(id: "r2", index: 2, visibility: .entire)])
        let wider = try stack.update(SettingsChange(viewport: Size(width: 300, height: 150)))
        stack.checkInvariants()
        XCTAssertEqual(wider.events, [
            .layoutUpdated, .contentSizeChanged(from: Size(width: 200, height: 200), to: Size(width: 300, height: 200)),
        ])
        let shorter = try stack.update(SettingsChange(viewport: Size(width: 300, height: 75)))
        stack.checkInvariants()
        Fx.assertEvents(shorter.events, [
            .layoutUpdated,
            .becameHidden(id: "r1", index: 1, visibility: .partial(fraction: 0.5)),
            .becameHidden(id: "r2", index: 2, visibility: .offscreen),
        ])
    }

    func testEventOrderWhenContentSizeAndOffsetChangeTogether() throws {
        var stack = try Fx.uniform(4)
        let result = try stack.update(SettingsChange(offset: Point(x: 0, y: 50), spacing: 10))
        stack.checkInvariants()
        // r0 0…50, r1 60…110, r2 120…170 against 50…150
        Fx.assertEvents(result.events, [
            .layoutUpdated,
            .contentSizeChanged(from: Size(width: 200, height: 200), to: Size(width: 200, height: 230)),
            .didScroll(from: .zero, to: Point(x: 0, y: 50)),
            .becameHidden(id: "r0", index: 0, visibility: .offscreen),
            .becameVisible(id: "r2", index: 2, visibility: .partial(fraction: 0.6)),
        ])
    }

    func testEventNames() {
        let events: [StackEvent] = [
            .rowAdded(id: "a", index: 0), .rowRemoved(id: "a", index: 0), .rowMoved(id: "a", from: 0, to: 1),
            .rowHidden(id: "a", index: 0), .rowShown(id: "a", index: 0), .rowResized(id: "a", index: 0, from: 1, to: 2),
            .becameVisible(id: "a", index: 0, visibility: .entire), .becameHidden(id: "a", index: 0, visibility: .offscreen),
            .contentSizeChanged(from: .zero, to: .zero), .layoutUpdated, .didScroll(from: .zero, to: .zero),
        ]
        XCTAssertEqual(events.map(\.name), [
            "rowAdded", "rowRemoved", "rowMoved", "rowHidden", "rowShown", "rowResized",
            "becameVisible", "becameHidden", "contentSizeChanged", "layoutUpdated", "didScroll",
        ])
    }
}
