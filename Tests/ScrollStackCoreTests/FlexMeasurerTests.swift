import XCTest
import ScrollStackCore

/// Expected values are what CSS flexbox gives for the same tree (Docs/Semantics.md).
final class FlexMeasurerTests: XCTestCase {
    let measure = FlexMeasurer()

    func height(_ d: ContentDescription, width: Double) -> Double { measure.length(of: d, along: .vertical, crossExtent: width) }
    func width(_ d: ContentDescription, height: Double) -> Double { measure.length(of: d, along: .horizontal, crossExtent: height) }

    func testBoxes() {
        XCTAssertEqual(height(.box(height: 40), width: 300), 40)
        XCTAssertEqual(height(.box(width: 40), width: 300), 0, "no height: 0 along the measured axis")
        XCTAssertEqual(width(.box(width: 40, height: 10), height: 300), 40)
        XCTAssertEqual(height(ContentDescription(.box(width: nil, height: 40), minHeight: 60), width: 300), 60)
        XCTAssertEqual(height(ContentDescription(.box(width: nil, height: 40), maxHeight: 30), width: 300), 30)
        XCTAssertEqual(height(ContentDescription(.box(width: nil, height: 40), minHeight: 50, maxHeight: 30), width: 300), 50, "min wins over a smaller max")
    }

    func testAspectRatioFollowsTheCrossExtent() {
        XCTAssertEqual(height(.aspectRatio(2), width: 300), 150)
        XCTAssertEqual(width(.aspectRatio(2), height: 300), 600)
        XCTAssertEqual(height(ContentDescription(.aspectRatio(2), maxWidth: 100), width: 300), 50, "the root's own max width applies first")
        XCTAssertEqual(height(ContentDescription(.aspectRatio(1), maxHeight: 120), width: 300), 120)
    }

    func testGroupAlongTheMeasuredAxisAddsUp() {
        let group = ContentDescription.stack(.vertical, spacing: 8, padding: EdgeInsets(top: 10, left: 20, bottom: 6, right: 20), [
            .box(height: 30), .aspectRatio(4), .box(width: 100, height: 12),
        ])
        // 10 + 30 + 8 + (300 − 40) / 4 + 8 + 12 + 6: children span the width less padding.
        XCTAssertEqual(height(group, width: 300), 139)
        XCTAssertEqual(height(.stack(.vertical, spacing: 8, []), width: 300), 0, "no children, no gaps")
    }

    func testGroupAcrossTheMeasuredAxisSplitsAndTakesTheLongest() {
        // Fixed-width children keep their width; the two others share (300 − 100 − 2×10) / 2 = 90.
        let group = ContentDescription.stack(.horizontal, spacing: 10, padding: EdgeInsets(top: 4, bottom: 6), [
            .box(width: 100, height: 20), .aspectRatio(1), .aspectRatio(3),
        ])
        XCTAssertEqual(height(group, width: 300), 4 + 90 + 6)
    }

    func testFreezeAndRedistributeWithClamps() {
        let capped = ContentDescription.stack(.horizontal, [
            ContentDescription(.aspectRatio(1), maxWidth: 50), .aspectRatio(1), .aspectRatio(1),
        ])
        XCTAssertEqual(height(capped, width: 300), 125, "one child capped at 50: the others get 125 each")
        let floored = ContentDescription.stack(.horizontal, [
            ContentDescription(.aspectRatio(1), minWidth: 200), .aspectRatio(1), .aspectRatio(1),
        ])
        XCTAssertEqual(height(floored, width: 300), 200, "one child at least 200: the others get 50 each, the longest is 200")
        let crowded = ContentDescription.stack(.horizontal, [.box(width: 250, height: 10), .box(width: 100, height: 10), .aspectRatio(1)])
        XCTAssertEqual(height(crowded, width: 300), 10, "no space left: the flexible child is 0 wide")
    }

    func testHorizontalStacksMeasureWidths() {
        let group = ContentDescription.stack(.horizontal, spacing: 5, padding: EdgeInsets(left: 3, right: 2), [.box(width: 10), .aspectRatio(2)])
        XCTAssertEqual(width(group, height: 50), 3 + 10 + 5 + 100 + 2)
        let column = ContentDescription.stack(.vertical, [.box(width: 30, height: 10), .box(height: 20), .aspectRatio(0.5)])
        // Across the measured axis (a column when measuring widths): heights split 50 − 10 = 40 → 20 each.
        XCTAssertEqual(width(column, height: 50), 30)
    }
}
