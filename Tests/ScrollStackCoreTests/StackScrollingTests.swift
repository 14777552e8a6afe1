import XCTest
import ScrollStackCore

/// Scrolling to rows, to the ends and to offsets, and the clamp range (Docs/Semantics.md,
/// "Operations": scroll to a row, scroll to top / bottom, scroll to an offset).
final class StackScrollingTests: XCTestCase {

    func y(_ stack: ScrollStack, _ target: ScrollTarget, file: StaticString = #filePath, line: UInt = #line) -> Double? {
        do {
            let offset = try stack.offset(for: target)
            XCTAssertEqual(offset.x, 0, "rows span the viewport: the cross offset becomes 0", file: file, line: line)
            return offset.y
        } catch {
            XCTFail("\(error)", file: file, line: line)
            return nil
        }
    }

    // MARK: Empty and short content

    func testEmptyStackClamping() throws {
        var stack = try ScrollStack()
        XCTAssertEqual(stack.scrollRange, 0...0)
        XCTAssertEqual(try stack.scroll(to: .bottom).events, [.layoutUpdated])
        XCTAssertEqual(try stack.scroll(to: .top).events, [.layoutUpdated])
        XCTAssertEqual(stack.settings.offset, .zero)
        stack.checkInvariants()
        Fx.assertFails(&stack, .unknownRow, field: "row") { try $0.scroll(to: .row(.index(0), .initial)) }

        var scrolled = try ScrollStack(settings: StackSettings(offset: Point(x: 5, y: 100)))
        let result = try scrolled.scroll(to: .bottom)
        scrolled.checkInvariants()
        XCTAssertEqual(result.events, [.layoutUpdated, .didScroll(from: Point(x: 5, y: 100), to: Point(x: 5, y: 0))])

        var inset = try ScrollStack(settings: StackSettings(contentInsets: EdgeInsets(top: 10, left: 0, bottom: 50, right: 0)))
        XCTAssertEqual(inset.scrollRange, -10 ... -10)
        try inset.scroll(to: .bottom)
        inset.checkInvariants()
        XCTAssertEqual(inset.settings.offset, Point(x: 0, y: -10))
    }

    func testContentShorterThanTheViewport() throws {
        var stack = try Fx.uniform(2, length: 30)  // content 60 in a viewport 100 tall
        XCTAssertEqual(stack.scrollRange, 0...0)
        XCTAssertEqual(y(stack, .bottom), 0)
        XCTAssertEqual(y(stack, .top), 0)
        XCTAssertEqual(y(stack, .row(.id("r1"), .final)), 0)
        XCTAssertEqual(y(stack, .row(.id("r1"), .initial)), 0)
        XCTAssertEqual(y(stack, .row(.id("r1"), .middle)), 0)
        XCTAssertEqual(try stack.scroll(to: .row(.id("r1"), .automatic)).events, [.layoutUpdated])
        stack.checkInvariants()

        var inset = try Fx.uniform(2, length: 30, contentInsets: EdgeInsets(top: 10, left: 0, bottom: 50, right: 0))
        XCTAssertEqual(inset.scrollRange, -10...10)
        XCTAssertEqual(y(inset, .bottom), 10)
        XCTAssertEqual(y(inset, .top), -10)
        XCTAssertEqual(y(inset, .row(.id("r0"), .final)), -10)   // 30 − 100 = −70, clamped
        XCTAssertEqual(y(inset, .row(.id("r0"), .middle)), -10)  // 15 − 50 = −35, clamped
        XCTAssertEqual(y(inset, .row(.id("r1"), .initial)), 10)  // 30, clamped
        XCTAssertEqual(y(inset, .row(.id("r1"), .middle)), -5)   // 45 − 50
        let result = try inset.scroll(to: .bottom)
        inset.checkInvariants()
        Fx.assertEvents(result.events, [
            .layoutUpdated, .didScroll(from: .zero, to: Point(x: 0, y: 10)),
            .becameHidden(id: "r0", index: 0, visibility: .partial(fraction: 20.0 / 30.0)),
        ])
        Fx.assertVisibility(try inset.visibility(of: .id("r0")), .partial(fraction: 20.0 / 30.0))
        XCTAssertEqual(try inset.visibility(of: .id("r1")), .entire)
        try inset.scroll(to: .top)
        inset.checkInvariants()
        XCTAssertEqual(inset.settings.offset, Point(x: 0, y: -10))
    }

    // MARK: Row positions

    func testRowPositionsVertical() throws {
        var stack = try Fx.uniform(10)  // content 500, range 0…400
        XCTAssertEqual(stack.scrollRange, 0...400)
        XCTAssertEqual(y(stack, .row(.id("r4"), .initial)), 200)
        XCTAssertEqual(y(stack, .row(.id("r4"), .middle)), 175)
        XCTAssertEqual(y(stack, .row(.id("r4"), .final)), 150)
        XCTAssertEqual(y(stack, .row(.index(4), .automatic)), 150, "below: bottom-aligned")
        XCTAssertEqual(y(stack, .row(.id("r0"), .final)), 0, "−50 clamped")
        XCTAssertEqual(y(stack, .row(.id("r0"), .middle)), 0, "−25 clamped")
        XCTAssertEqual(y(stack, .row(.id("r9"), .initial)), 400, "450 clamped")
        XCTAssertEqual(y(stack, .row(.id("r9"), .middle)), 400, "425 clamped")
        XCTAssertEqual(y(stack, .row(.id("r9"), .final)), 400)
        XCTAssertEqual(stack.settings.offset, .zero, "offset(for:) does not scroll")

        let result = try stack.scroll(to: .row(.id("r4"), .initial))
        stack.checkInvariants()
        XCTAssertEqual(result.events, [
            .layoutUpdated, .didScroll(from: .zero, to: Point(x: 0, y: 200)),
            .becameHidden(id: "r0", index: 0, visibility: .offscreen),
            .becameHidden(id: "r1", index: 1, visibility: .offscreen),
            .becameVisible(id: "r4", index: 4, visibility: .entire),
            .becameVisible(id: "r5", index: 5, visibility: .entire),
        ])
        XCTAssertEqual(result.changed, [])

        // automatic: already visible → no move at all, no didScroll.
        XCTAssertEqual(try stack.scroll(to: .row(.id("r5"), .automatic)).events, [.layoutUpdated])
        XCTAssertEqual(try stack.scroll(to: .row(.id("r4"), .automatic)).events, [.layoutUpdated])
        XCTAssertEqual(stack.settings.offset, Point(x: 0, y: 200))
        stack.checkInvariants()

        // above → top-aligned; below → bottom-aligned.
        XCTAssertEqual(y(stack, .row(.id("r2"), .automatic)), 100)
        XCTAssertEqual(y(stack, .row(.id("r8"), .automatic)), 350)
        try stack.scroll(to: .offset(Point(x: 0, y: 125)))
        XCTAssertEqual(y(stack, .row(.id("r2"), .automatic)), 100, "partly above")
        XCTAssertEqual(y(stack, .row(.id("r4"), .automatic)), 150, "partly below")
        XCTAssertEqual(y(stack, .row(.id("r3"), .automatic)), 125, "entirely shown")
        stack.checkInvariants()
    }

    func testRowScrollsResetTheCrossOffsetAndEndScrollsKeepIt() throws {
        var stack = try Fx.uniform(10, offset: Point(x: 7, y: 0))
        XCTAssertEqual(try stack.offset(for: .row(.id("r4"), .middle)), Point(x: 0, y: 175))
        let result = try stack.scroll(to: .row(.id("r0"), .automatic))
        stack.checkInvariants()
        XCTAssertEqual(result.events, [
            .layoutUpdated, .didScroll(from: Point(x: 7, y: 0), to: .zero),
            .becameVisible(id: "r0", index: 0, visibility: .entire),
            .becameVisible(id: "r1", index: 1, visibility: .entire),
        ], "with a cross offset the rows were only partly shown")

        try stack.scroll(to: .offset(Point(x: 7, y: 200)))
        XCTAssertEqual(try stack.offset(for: .top), Point(x: 7, y: 0))
        XCTAssertEqual(try stack.offset(for: .bottom), Point(x: 7, y: 400))
        try stack.scroll(to: .bottom)
        stack.checkInvariants()
        XCTAssertEqual(stack.settings.offset, Point(x: 7, y: 400))
    }

    func testContentInsetsWidenTheClampRange() throws {
        var stack = try Fx.uniform(10, contentInsets: EdgeInsets(top: 20, left: 3, bottom: 30, right: 4))
        XCTAssertEqual(stack.scrollRange, -20...430)
        XCTAssertEqual(y(stack, .top), -20)
        XCTAssertEqual(y(stack, .bottom), 430)
        XCTAssertEqual(y(stack, .row(.id("r0"), .initial)), 0)
        XCTAssertEqual(y(stack, .row(.id("r0"), .middle)), -20, "−25 clamped")
        XCTAssertEqual(y(stack, .row(.id("r0"), .final)), -20, "−50 clamped")
        XCTAssertEqual(y(stack, .row(.id("r9"), .initial)), 430, "450 clamped")
        XCTAssertEqual(y(stack, .row(.id("r9"), .middle)), 425)
        XCTAssertEqual(y(stack, .row(.id("r9"), .final)), 400)
        XCTAssertEqual(y(stack, .row(.id("r9"), .automatic)), 400)

        try stack.scroll(to: .top)
        stack.checkInvariants()
        XCTAssertEqual(stack.settings.offset, Point(x: 0, y: -20))
        XCTAssertEqual(stack.visibleRows, ["r0", "r1"], "content insets are not subtracted from the viewport")
        Fx.assertVisibility(try stack.visibility(of: .id("r1")), .partial(fraction: 0.6))
        XCTAssertEqual(try stack.scroll(to: .row(.id("r0"), .automatic)).events, [.layoutUpdated])
        try stack.scroll(to: .bottom)
        stack.checkInvariants()
        XCTAssertEqual(stack.settings.offset, Point(x: 0, y: 430))
        XCTAssertEqual(stack.visibleRows, ["r8", "r9"])
    }

    func testHorizontalScrolling() throws {
        let insets = EdgeInsets(top: 1000, left: 20, bottom: 1000, right: 30)
        var stack = try Fx.uniform(10, viewport: Size(width: 100, height: 200), axis: .horizontal,
                                   contentInsets: insets, offset: Point(x: 0, y: 9))
        XCTAssertEqual(stack.scrollRange, -20...430, "only the main-axis insets count")
        XCTAssertEqual(try stack.offset(for: .row(.id("r4"), .initial)), Point(x: 200, y: 0))
        XCTAssertEqual(try stack.offset(for: .row(.id("r4"), .middle)), Point(x: 175, y: 0))
        XCTAssertEqual(try stack.offset(for: .row(.id("r4"), .final)), Point(x: 150, y: 0))
        XCTAssertEqual(try stack.offset(for: .row(.id("r4"), .automatic)), Point(x: 150, y: 0))
        XCTAssertEqual(try stack.offset(for: .row(.id("r0"), .final)), Point(x: -20, y: 0))
        XCTAssertEqual(try stack.offset(for: .row(.id("r9"), .initial)), Point(x: 430, y: 0))
        XCTAssertEqual(try stack.offset(for: .top), Point(x: -20, y: 9))
        XCTAssertEqual(try stack.offset(for: .bottom), Point(x: 430, y: 9))

        try stack.scroll(to: .row(.id("r4"), .automatic))
        stack.checkInvariants()
        XCTAssertEqual(stack.settings.offset, Point(x: 150, y: 0))
        XCTAssertEqual(stack.visibleRows, ["r3", "r4"])
        XCTAssertEqual(try stack.offset(for: .row(.id("r3"), .automatic)), Point(x: 150, y: 0))
        XCTAssertEqual(try stack.offset(for: .row(.id("r1"), .automatic)), Point(x: 50, y: 0))
        XCTAssertEqual(try stack.offset(for: .row(.id("r7"), .automatic)), Point(x: 300, y: 0))

        var short = try Fx.uniform(2, length: 30, viewport: Size(width: 100, height: 200), axis: .horizontal)
        XCTAssertEqual(short.scrollRange, 0...0)
        try short.scroll(to: .bottom)
        short.checkInvariants()
        XCTAssertEqual(short.settings.offset, .zero)
    }

    func testAutomaticAlignsARowLongerThanTheViewportLikeInitial() throws {
        var stack = try Fx.stack([Fx.row("a", 50), Fx.row("big", 300), Fx.row("c", 50)])  // range 0…300
        XCTAssertEqual(y(stack, .row(.id("big"), .automatic)), 50)
        try stack.scroll(to: .offset(Point(x: 0, y: 100)))  // inside big
        let result = try stack.scroll(to: .row(.id("big"), .automatic))
        stack.checkInvariants()
        XCTAssertEqual(stack.settings.offset, Point(x: 0, y: 50))
        XCTAssertEqual(result.events, [.layoutUpdated, .didScroll(from: Point(x: 0, y: 100), to: Point(x: 0, y: 50))],
                       "big stays partial; a and c stay offscreen")
        Fx.assertVisibility(try stack.visibility(of: .id("big")), .partial(fraction: 1.0 / 3.0))
        XCTAssertEqual(try stack.visibility(of: .id("a")), .offscreen, "a only touches the viewport")

        // A row exactly as long as the viewport is not longer: automatic bottom-aligns it.
        let exact = try Fx.stack([Fx.row("a", 50), Fx.row("e", 100), Fx.row("c", 50)])
        XCTAssertEqual(y(exact, .row(.id("e"), .automatic)), 50)
        XCTAssertEqual(y(exact, .row(.id("c"), .automatic)), 100)
    }

    func testScrollingToAHiddenRowUsesItsCollapsedFrame() throws {
        let rows = [Fx.row("r0"), Fx.row("h", 30, hidden: true), Fx.row("r1"), Fx.row("r2"), Fx.row("r3")]
        var stack = try Fx.stack(rows, spacing: 10)  // h at 50, content 230, range 0…130
        XCTAssertEqual(stack.scrollRange, 0...130)
        XCTAssertEqual(y(stack, .row(.id("h"), .initial)), 50)
        XCTAssertEqual(y(stack, .row(.id("h"), .middle)), 0)
        XCTAssertEqual(y(stack, .row(.id("h"), .final)), 0)
        try stack.scroll(to: .offset(Point(x: 0, y: 120)))
        XCTAssertEqual(y(stack, .row(.id("h"), .automatic)), 50)
        XCTAssertEqual(y(stack, .row(.id("r3"), .automatic)), 130)
        stack.checkInvariants()
    }

    // MARK: Offsets

    func testScrollToAnOffsetIsNotClamped() throws {
        var stack = try Fx.uniform(10)
        let result = try stack.scroll(to: .offset(Point(x: -1000, y: 5000)))
        stack.checkInvariants()
        XCTAssertEqual(stack.settings.offset, Point(x: -1000, y: 5000))
        XCTAssertEqual(result.events, [
            .layoutUpdated, .didScroll(from: .zero, to: Point(x: -1000, y: 5000)),
            .becameHidden(id: "r0", index: 0, visibility: .offscreen),
            .becameHidden(id: "r1", index: 1, visibility: .offscreen),
        ])
        try stack.scroll(to: .offset(Point(x: 0, y: -1e15)))
        stack.checkInvariants()
        XCTAssertEqual(stack.settings.offset, Point(x: 0, y: -1e15))
        try stack.scroll(to: .offset(Point(x: 1e15, y: 0)))
        XCTAssertEqual(stack.settings.offset, Point(x: 1e15, y: 0))

        Fx.assertFails(&stack, .invalidValue, field: "offset.x") { try $0.scroll(to: .offset(Point(x: .nan, y: 0))) }
        Fx.assertFails(&stack, .invalidValue, field: "offset.y") { try $0.scroll(to: .offset(Point(x: 0, y: .infinity))) }
        Fx.assertFails(&stack, .invalidValue, field: "offset.y") { try $0.scroll(to: .offset(Point(x: 0, y: -2e15))) }
        Fx.assertFails(&stack, .unknownRow, field: "row") { try $0.scroll(to: .row(.id("nope"), .initial)) }
        Fx.assertFails(&stack, .unknownRow, field: "row") { try $0.scroll(to: .row(.index(10), .automatic)) }
        Fx.assertFails(&stack, .unknownRow, field: "row") { try $0.scroll(to: .row(.index(-1), .final)) }
    }
}
