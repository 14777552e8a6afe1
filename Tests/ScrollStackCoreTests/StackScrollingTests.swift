import XCTest
import ScrollStackCore

final class StackScrollingTests: XCTestCase {
    func didScroll(_ result: OperationResult) -> Point? {
        for event in result.events { if case .didScroll(_, let to) = event { return to } }
        return nil
    }

    func testPositionsVertical() throws {
        var stack = try uniformStack(10)  // rows of 50, viewport 100, content 500
        XCTAssertNil(didScroll(try stack.scroll(to: .row(.id("r1"), .automatic))), "already entire: no move")
        XCTAssertEqual(didScroll(try stack.scroll(to: .row(.id("r5"), .automatic))), Point(x: 0, y: 200), "below: align its end")
        XCTAssertEqual(didScroll(try stack.scroll(to: .row(.id("r2"), .automatic))), Point(x: 0, y: 100), "above: align its start")
        XCTAssertEqual(didScroll(try stack.scroll(to: .row(.id("r5"), .initial))), Point(x: 0, y: 250))
        XCTAssertEqual(didScroll(try stack.scroll(to: .row(.id("r5"), .middle))), Point(x: 0, y: 225))
        XCTAssertEqual(didScroll(try stack.scroll(to: .row(.id("r5"), .final))), Point(x: 0, y: 200))
        XCTAssertEqual(didScroll(try stack.scroll(to: .row(.id("r9"), .initial))), Point(x: 0, y: 400), "clamped to content − viewport")
        XCTAssertEqual(didScroll(try stack.scroll(to: .row(.id("r0"), .final))), Point(x: 0, y: 0), "clamped at 0")
        XCTAssertEqual(didScroll(try stack.scroll(to: .top)), nil)
        XCTAssertEqual(try stack.offset(for: .bottom), Point(x: 0, y: 400))
    }

    func testRowLongerThanTheViewportAlignsItsStart() throws {
        var stack = try ScrollStack(settings: StackSettings(viewport: Size(width: 100, height: 100)),
                                    rows: [fixedRow("a", 50, insets: .zero), fixedRow("long", 300, insets: .zero), fixedRow("c", 50, insets: .zero)])
        try stack.scroll(to: .offset(Point(x: 0, y: 100)))
        XCTAssertEqual(didScroll(try stack.scroll(to: .row(.id("long"), .automatic))), Point(x: 0, y: 50))
    }

    func testContentInsetsWidenTheClampRangeEvenWhenContentIsShort() throws {
        var stack = try ScrollStack(settings: StackSettings(viewport: Size(width: 100, height: 300), contentInsets: EdgeInsets(top: 20, bottom: 10)),
                                    rows: [fixedRow("a", 50, insets: .zero), fixedRow("b", 50, insets: .zero)])
        XCTAssertEqual(stack.scrollRange, -20 ... -20)
        XCTAssertEqual(try stack.offset(for: .bottom).y, -20, "content shorter than the viewport: both ends are −top inset")
        XCTAssertEqual(didScroll(try stack.scroll(to: .row(.id("b"), .final))), Point(x: 0, y: -20))
        try stack.update(SettingsChange(viewport: Size(width: 100, height: 60)))
        XCTAssertEqual(stack.scrollRange, -20...50)
        XCTAssertEqual(didScroll(try stack.scroll(to: .bottom)), Point(x: 0, y: 50))
        XCTAssertEqual(didScroll(try stack.scroll(to: .top)), Point(x: 0, y: -20))
    }

    func testHorizontalScrollingUsesX() throws {
        var stack = try uniformStack(10, length: 100, viewport: Size(width: 200, height: 80), axis: .horizontal)
        XCTAssertEqual(didScroll(try stack.scroll(to: .row(.id("r4"), .middle))), Point(x: 350, y: 0))
        XCTAssertEqual(didScroll(try stack.scroll(to: .bottom)), Point(x: 800, y: 0))
        XCTAssertEqual(stack.visibleRows, ["r8", "r9"])
    }

    func testExplicitOffsetIsKeptAsGiven() throws {
        var stack = try uniformStack(3)
        XCTAssertEqual(didScroll(try stack.scroll(to: .offset(Point(x: 7, y: -40)))), Point(x: 7, y: -40))
        XCTAssertEqual(try stack.visibility(of: .id("r0")), .partial(fraction: (193.0 * 50.0) / (200.0 * 50.0)))
    }
}
