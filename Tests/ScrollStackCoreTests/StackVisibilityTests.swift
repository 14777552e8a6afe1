import XCTest
import ScrollStackCore

final class StackVisibilityTests: XCTestCase {
    func testRowsTouchingAnEdgeAreOffscreen() throws {
        var stack = try uniformStack(3, length: 100)
        XCTAssertEqual(stack.layout().rows.map(\.visibility), [.entire, .offscreen, .offscreen])
        try stack.scroll(to: .offset(Point(x: 0, y: 100)))
        XCTAssertEqual(stack.layout().rows.map(\.visibility), [.offscreen, .entire, .offscreen])

        var horizontal = try uniformStack(3, length: 200, axis: .horizontal)
        XCTAssertEqual(horizontal.layout().rows.map(\.visibility), [.entire, .offscreen, .offscreen])
        try horizontal.scroll(to: .offset(Point(x: 200, y: 0)))
        XCTAssertEqual(horizontal.layout().rows.map(\.visibility), [.offscreen, .entire, .offscreen])
    }

    func testZeroLengthRowsInsideOrOnAnEdgeAreEntire() throws {
        var stack = try ScrollStack(settings: StackSettings(viewport: Size(width: 200, height: 100)),
                                    rows: [fixedRow("top", 0, insets: .zero), fixedRow("a", 100, insets: .zero), fixedRow("edge", 0, insets: .zero), fixedRow("b", 50, insets: .zero)])
        XCTAssertEqual(stack.layout().rows.map(\.visibility), [.entire, .entire, .entire, .offscreen])
        try stack.scroll(to: .offset(Point(x: 0, y: 100)))
        XCTAssertEqual(stack.layout().rows.map(\.visibility), [.offscreen, .offscreen, .entire, .entire])
        try stack.scroll(to: .offset(Point(x: 0, y: 101)))
        XCTAssertEqual(try stack.visibility(of: .id("edge")), .offscreen)
    }

    func testRowTallerThanTheViewportIsAtMostPartial() throws {
        var stack = try uniformStack(1, length: 300)
        XCTAssertEqual(try stack.visibility(of: .index(0)), .partial(fraction: 100.0 / 300.0))
        try stack.scroll(to: .offset(Point(x: 0, y: 50)))
        XCTAssertEqual(try stack.visibility(of: .index(0)), .partial(fraction: 100.0 / 300.0))
        try stack.scroll(to: .offset(Point(x: 0, y: 250)))
        XCTAssertEqual(try stack.visibility(of: .index(0)), .partial(fraction: 50.0 / 300.0))
        XCTAssertEqual(stack.entirelyVisibleRows, [])
        XCTAssertEqual(stack.visibleRows, ["r0"])
    }

    func testOffscreenToEntireJumpEmitsOneBecameVisible() throws {
        var stack = try uniformStack(10)
        let result = try stack.scroll(to: .offset(Point(x: 0, y: 250)))
        XCTAssertEqual(result.events, [
            .layoutUpdated,
            .didScroll(from: .zero, to: Point(x: 0, y: 250)),
            .becameHidden(id: "r0", index: 0, visibility: .offscreen),
            .becameHidden(id: "r1", index: 1, visibility: .offscreen),
            .becameVisible(id: "r5", index: 5, visibility: .entire),
            .becameVisible(id: "r6", index: 6, visibility: .entire),
        ])
        stack.checkInvariants()
    }

    func testEntireToPartialToOffscreenAndBack() throws {
        var stack = try uniformStack(10)
        XCTAssertEqual(try stack.scroll(to: .offset(Point(x: 0, y: 25))).visibilityEvents, [
            .becameHidden(id: "r0", index: 0, visibility: .partial(fraction: 0.5)),
            .becameVisible(id: "r2", index: 2, visibility: .partial(fraction: 0.5)),
        ])
        XCTAssertEqual(try stack.scroll(to: .offset(Point(x: 0, y: 30))).visibilityEvents, [], "partial → partial emits nothing")
        XCTAssertEqual(try stack.scroll(to: .offset(Point(x: 0, y: 50))).visibilityEvents, [
            .becameHidden(id: "r0", index: 0, visibility: .offscreen),
            .becameVisible(id: "r2", index: 2, visibility: .entire),
        ])
        XCTAssertEqual(try stack.scroll(to: .offset(Point(x: 0, y: 50))).events, [.layoutUpdated], "no move, no scroll, no visibility event")
    }

    func testHidingAVisibleRowEmitsInOrder() throws {
        var stack = try uniformStack(5)
        let result = try stack.setHidden([.id("r0")], true)
        XCTAssertEqual(result.events, [
            .rowHidden(id: "r0", index: 0),
            .layoutUpdated,
            .contentSizeChanged(from: Size(width: 200, height: 250), to: Size(width: 200, height: 200)),
            .becameHidden(id: "r0", index: 0, visibility: .hidden),
            .becameVisible(id: "r2", index: 2, visibility: .entire),
        ])
        XCTAssertEqual(try stack.setHidden([.id("r0")], false).events.first, .rowShown(id: "r0", index: 0))
        XCTAssertEqual(try stack.setHidden([.id("r1")], false).events.first, .layoutUpdated, "already shown: no rowShown")
    }

    func testStructuralChangesEmitVisibilityEvents() throws {
        var stack = try uniformStack(4)
        // Inserting at the top pushes r1 out; the new row becomes visible.
        let inserted = try stack.insert([fixedRow("new", 50, insets: .zero)], at: .top)
        XCTAssertEqual(inserted.events, [
            .rowAdded(id: "new", index: 0), .layoutUpdated,
            .contentSizeChanged(from: Size(width: 200, height: 200), to: Size(width: 200, height: 250)),
            .becameVisible(id: "new", index: 0, visibility: .entire),
            .becameHidden(id: "r1", index: 2, visibility: .offscreen),
        ])
        // Removing a visible row emits no visibility event for it.
        let removed = try stack.remove([.id("new")])
        XCTAssertEqual(removed.visibilityEvents, [.becameVisible(id: "r1", index: 1, visibility: .entire)])
        // Moving a row into view.
        let moved = try stack.move(.id("r3"), to: 0)
        XCTAssertEqual(moved.visibilityEvents, [
            .becameVisible(id: "r3", index: 0, visibility: .entire),
            .becameHidden(id: "r1", index: 2, visibility: .offscreen),
        ])
        // Resizing the viewport.
        let resized = try stack.update(SettingsChange(viewport: Size(width: 200, height: 75)))
        XCTAssertEqual(resized.visibilityEvents, [.becameHidden(id: "r0", index: 1, visibility: .partial(fraction: 0.5))])
    }
}
