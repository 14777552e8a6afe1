import ScrollStackCore
@testable import ScrollStackPaging
import XCTest

/// Page sizes, stops, alignment and insets (Docs/Semantics.md, "Paging"). Expected values are
/// worked out by hand in the comments.
final class PageStopsTests: XCTestCase {
    /// Content 1000 (4 rows of 250) in a 400 viewport: clamp range [0, 600].
    func fourRows(_ paging: PagingSettings) throws -> ScrollStack {
        try Carousel.stack([250, 250, 250, 250], paging: paging)
    }

    func testAbsolutePagesWithEachAlignment() throws {
        // 4 pages of 300 (⌈1000/300⌉). Leading: offsets 0, 300, 600, 900 → clamped, 900 merges into 600.
        XCTAssertEqual(Carousel.stops(try fourRows(PagingSettings(size: .absolute(300)))), [0, 300, 600])
        // Centre: page centre k·300+150 on the viewport centre 200 → −50, 250, 550, 850; the
        // centring insets widen the range to [−50, 850], so the first and last pages centre too.
        XCTAssertEqual(Carousel.stops(try fourRows(PagingSettings(size: .absolute(300), alignment: .center))), [-50, 250, 550, 850])
        // Trailing: page end k·300+300 on 400 → −100, 200, 500, 800.
        XCTAssertEqual(Carousel.stops(try fourRows(PagingSettings(size: .absolute(300), alignment: .trailing))), [0, 200, 500, 600])
        XCTAssertEqual(try fourRows(PagingSettings(size: .absolute(300))).pagingState()?.pageSize, 300)
    }

    func testPositionInsetsShiftTheAnchor() throws {
        // Leading + 50: offsets −50, 250, 550, 850 → [0, 250, 550, 600].
        let leading = PagingSettings(size: .absolute(300), positionInsets: EdgeInsets(left: 50))
        XCTAssertEqual(Carousel.stops(try fourRows(leading)), [0, 250, 550, 600])
        // Trailing − 40: page end on 360 → −60, 240, 540, 840.
        let trailing = PagingSettings(size: .absolute(300), alignment: .trailing, positionInsets: EdgeInsets(right: 40))
        XCTAssertEqual(Carousel.stops(try fourRows(trailing)), [0, 240, 540, 600])
        // Centre between 50 and 400 − 30: anchor 210 → −60, 240, 540, 840 (the range widened to them).
        let center = PagingSettings(size: .absolute(300), alignment: .center, positionInsets: EdgeInsets(left: 50, right: 30))
        XCTAssertEqual(Carousel.stops(try fourRows(center)), [-60, 240, 540, 840])
        // Vertical insets do nothing to a horizontal stack.
        let vertical = PagingSettings(size: .absolute(300), positionInsets: EdgeInsets(top: 70, bottom: 70))
        XCTAssertEqual(Carousel.stops(try fourRows(vertical)), [0, 300, 600])
    }

    func testFractionOfThePagingAreaWithSizeAndContentInsets() throws {
        // Area = 400 − content insets 10 + 10 − size insets 20 + 20 = 340; half is 170. Anchor
        // 10 + 5; ⌈1000/170⌉ = 6 pages at 170k − 15 = −15, 155, 325, 495, 665, 835; range [−10, 610].
        let paging = PagingSettings(size: .fraction(0.5), sizeInsets: EdgeInsets(left: 20, right: 20), positionInsets: EdgeInsets(left: 5))
        let stack = try Carousel.stack([250, 250, 250, 250], paging: paging, contentInsets: EdgeInsets(left: 10, right: 10))
        XCTAssertEqual(Carousel.stops(stack), [-10, 155, 325, 495, 610])
        XCTAssertEqual(stack.pagingState()?.pageSize, 170)

        // Leaving out the left content inset: area 350, page 175, anchor 5 → 175k − 5; the
        // range still starts at −10 (the scroll view's), so −10 and −5 are both stops.
        var without = paging
        without.contentInsetEdges = [.top, .bottom, .right]
        let other = try Carousel.stack([250, 250, 250, 250], paging: without, contentInsets: EdgeInsets(left: 10, right: 10))
        XCTAssertEqual(Carousel.stops(other), [-10, -5, 170, 345, 520, 610])
        XCTAssertEqual(other.pagingState()?.pageSize, 175)
    }

    func testFractionPagesWithCentreAndTrailingAlignment() throws {
        // Area 340, pages of 170 (6 over 1000); range [−10, 610]. Anchors: leading 10 + 5,
        // trailing 400 − 10 − 6 = 384, centre 199.5.
        func stops(_ alignment: PagingSettings.Alignment) throws -> [Double] {
            let paging = PagingSettings(size: .fraction(0.5), alignment: alignment, sizeInsets: EdgeInsets(left: 20, right: 20),
                                        positionInsets: EdgeInsets(left: 5, right: 6))
            return Carousel.stops(try Carousel.stack([250, 250, 250, 250], paging: paging, contentInsets: EdgeInsets(left: 10, right: 10)))
        }
        // Trailing: 170(k + 1) − 384 = −214, −44, 126, 296, 466, 636.
        XCTAssertEqual(try stops(.trailing), [-10, 126, 296, 466, 610])
        // Centre: 170k + 85 − 199.5 = −114.5, 55.5, 225.5, 395.5, 565.5, 735.5, all reachable:
        // the centring insets widen the range to [−114.5, 735.5].
        XCTAssertEqual(try stops(.center), [-114.5, 55.5, 225.5, 395.5, 565.5, 735.5])
    }

    /// A vertical stack pages along y with the top and bottom insets.
    func testVerticalPaging() throws {
        // Viewport 400 tall, top content inset 20: area 380, half pages of 190 at 190k − 20;
        // ⌈1000/190⌉ = 6 pages; range [−20, 600].
        var settings = StackSettings(axis: .vertical, viewport: Size(width: 200, height: 400), contentInsets: EdgeInsets(top: 20))
        settings.paging = PagingSettings(size: .fraction(0.5), positionInsets: EdgeInsets(left: 50))
        let stack = try ScrollStack(settings: settings, rows: (0..<4).map { Carousel.row("r\($0)", 250) })
        XCTAssertEqual(Carousel.stops(stack), [-20, 170, 360, 550, 600])
        XCTAssertEqual(stack.pagingState(offset: Point(x: 0, y: 265))?.progress, 1.5)
    }

    func testStopsAtTheEndsWhenPagesDoNotDivideTheContent() throws {
        // 1200 / 400 divides: 0, 400, 800 — the last page offset is the range's end.
        XCTAssertEqual(Carousel.stops(try Carousel.stack([400, 400, 400], paging: PagingSettings())), [0, 400, 800])
        // 1100 / 400 does not: pages at 0, 400, 800 but the range ends at 700, which is the last stop.
        XCTAssertEqual(Carousel.stops(try Carousel.stack([400, 400, 300], paging: PagingSettings())), [0, 400, 700])
        // Content shorter than the viewport: one stop. No content: none.
        XCTAssertEqual(Carousel.stops(try Carousel.stack([100], paging: PagingSettings())), [0])
        XCTAssertEqual(try Carousel.stack([], paging: PagingSettings()).pagingState()?.pageCount, 0)
        XCTAssertEqual(try Carousel.stack([100], paging: PagingSettings(size: .rows), hidden: [0]).pagingState()?.pageCount, 0)
        XCTAssertNil(try Carousel.stack([400, 400], paging: nil).pageStops(), "paging off")
    }

    func testUniformPagesIncludeTheSpacing() throws {
        // Four cards of 300 spaced 20: content 1260 in 400, range [0, 860]; pages step 320, so
        // ⌈(1260 + 20) / 320⌉ = 4 pages. Leading: 0, 320, 640, 960 → [0, 320, 640, 860].
        let leading = try Carousel.stack([300, 300, 300, 300], paging: PagingSettings(size: .absolute(300)), spacing: 20)
        XCTAssertEqual(Carousel.stops(leading), [0, 320, 640, 860])
        XCTAssertEqual(leading.pagingState()?.pageSize, 300)
        // Centre: 320k + 150 − 200 = −50, 270, 590, 910, each centring card k; the range widens to [−50, 910].
        let centred = try Carousel.stack([300, 300, 300, 300], paging: PagingSettings(size: .absolute(300), alignment: .center), spacing: 20)
        XCTAssertEqual(Carousel.stops(centred), [-50, 270, 590, 910])
        XCTAssertEqual(centred.scrollRange, -50...910)
        XCTAssertEqual(centred.firstPageStop(), -50)
        // A fraction page of the same length gives the same stops: 0.75 of 400 is 300.
        let fraction = try Carousel.stack([300, 300, 300, 300], paging: PagingSettings(size: .fraction(0.75), alignment: .center), spacing: 20)
        XCTAssertEqual(Carousel.stops(fraction), [-50, 270, 590, 910])
        // One card shorter than the viewport: one stop, the card centred.
        let one = try Carousel.stack([300], paging: PagingSettings(size: .absolute(300), alignment: .center), spacing: 20)
        XCTAssertEqual(Carousel.stops(one), [-50])
    }

    /// Uniform pages closer than the tolerance merge as a list of the same offsets does.
    func testUniformPagesUnderTheToleranceMerge() {
        let uniform = PageStops(uniformFirst: 0, step: 4e-7, pages: 100, range: -1...1)
        let list = PageStops(offsets: (0..<100).map { Double($0) * 4e-7 }, range: -1...1)
        // −1, then 0, 1.2·10⁻⁶, 2.4·10⁻⁶, … (every third page) up to 33 · 1.2·10⁻⁶, then 1.
        XCTAssertEqual(uniform.count, 36)
        XCTAssertEqual(list.count, 36)
        for i in 0..<36 { XCTAssertEqual(uniform[i], list[i], accuracy: 1e-12, "stop \(i)") }
        XCTAssertEqual(uniform[2], 1.2e-6, accuracy: 1e-15)
        XCTAssertEqual(PageStops(uniformFirst: 0, step: 4e-7, pages: 100, range: 1...2).count, 2, "every page before the range: only its ends")
    }

    func testRowPages() throws {
        // Rows 100, (hidden), 200, 300 with spacing 10: shown rows start at 0, 110, 320;
        // content 620 in 250 → range [0, 370].
        let paging = PagingSettings(size: .rows)
        let stack = try Carousel.stack([100, 80, 200, 300], width: 250, paging: paging, spacing: 10, hidden: [1])
        XCTAssertEqual(Carousel.stops(stack), [0, 110, 320, 370])
        // Centred: 50 − 125, 210 − 125, 470 − 125 = −75, 85, 345; the range widens to −75 for
        // the first row and keeps its end 370 (the last row is longer than the viewport).
        var centered = paging
        centered.alignment = .center
        let c = try Carousel.stack([100, 80, 200, 300], width: 250, paging: centered, spacing: 10, hidden: [1])
        XCTAssertEqual(Carousel.stops(c), [-75, 85, 345, 370])
        XCTAssertEqual(c.scrollRange, -75...370)
        // The page size is the current page's row: at 110 that is the 200-long row.
        XCTAssertEqual(stack.pagingState(offset: Point(x: 110, y: 0))?.pageSize, 200)
    }

    func testCurrentPageAndProgress() throws {
        let stack = try Carousel.stack([400, 400, 400, 400, 400], paging: PagingSettings())  // stops 0…1600 by 400
        func state(_ x: Double) -> PagingState { stack.pagingState(offset: Point(x: x, y: 0))! }
        XCTAssertEqual(state(0).currentPage, 0)
        XCTAssertEqual(state(0).progress, 0)
        XCTAssertEqual(state(200).currentPage, 0, "a tie goes to the earlier stop")
        XCTAssertEqual(state(201).currentPage, 1)
        XCTAssertEqual(state(600).progress, 1.5)
        XCTAssertEqual(state(1600).progress, 4)
        XCTAssertEqual(state(-100).currentPage, 0, "clamped before the first stop")
        XCTAssertEqual(state(-100).progress, -0.25, "extrapolated with the first gap")
        XCTAssertEqual(state(1700).currentPage, 4, "clamped after the last stop")
        XCTAssertEqual(state(1700).progress, 4.25)
        XCTAssertEqual(state(0).pageCount, 5)
    }

    /// A million pages cost nothing to describe: the stops are arithmetic.
    func testUniformStopsAreArithmetic() throws {
        let stack = try Carousel.stack([1_000_000], paging: PagingSettings(size: .absolute(1)))
        let stops = try XCTUnwrap(stack.pageStops())
        XCTAssertEqual(stops.count, 999_601)  // 0…999600
        XCTAssertEqual(stops[12_345], 12_345)
        XCTAssertEqual(stops.nearestIndex(12_345.4), 12_345)
        XCTAssertEqual(stops.nearestIndex(12_345.6), 12_346)
        XCTAssertEqual(stops[stops.count - 1], 999_600)
    }

    /// An offset within the tolerance short of the last stop: `floorIndex` answers the last
    /// stop, and `progress` interpolates in the last gap (it read one stop past the end of row
    /// stops, which crashed the server, and divided by zero with uniform stops).
    func testProgressJustShortOfTheLastStop() throws {
        let rows = PageStops(offsets: [0, 400, 800], range: 0...1000)  // stops 0, 400, 800, 1000
        let uniform = PageStops(uniformFirst: 0, step: 400, pages: 3, range: 0...1000)
        for stops in [rows, uniform] {
            XCTAssertEqual(stops.count, 4)
            let offset = 1000 - 4e-7
            XCTAssertEqual(stops.floorIndex(offset), 3)
            XCTAssertEqual(stops.progress(at: offset), 3 - 4e-7 / 200, accuracy: 1e-12)
            XCTAssertEqual(stops.progress(at: 1000), 3)
        }
    }

    func testListStopsMergeWithinTheTolerance() {
        let stops = PageStops(offsets: [5, 5.0000001, 50, 200, -3], range: 0...100)
        XCTAssertEqual((0..<stops.count).map { stops[$0] }, [0, 5, 50, 100])
    }
}
