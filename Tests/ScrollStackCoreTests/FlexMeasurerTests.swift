import XCTest
import ScrollStackCore

/// `FlexMeasurer` against the CSS flexbox results described in Docs/Semantics.md,
/// "Measuring content". Every expected value is worked out by hand in the comments.
final class FlexMeasurerTests: XCTestCase {
    let m = FlexMeasurer()

    func height(_ d: ContentDescription, width: Double) -> Double { m.length(of: d, along: .vertical, crossExtent: width) }
    func width(_ d: ContentDescription, height: Double) -> Double { m.length(of: d, along: .horizontal, crossExtent: height) }

    // MARK: Boxes

    func testBoxes() {
        XCTAssertEqual(height(.box(height: 30), width: 343), 30)
        XCTAssertEqual(width(.box(width: 100, height: 30), height: 500), 100)
        XCTAssertEqual(height(.box(), width: 343), 0, "a missing height is 0 along the measured axis")
        XCTAssertEqual(height(.box(width: 50), width: 343), 0)
        XCTAssertEqual(width(.box(height: 50), height: 343), 0)
        XCTAssertEqual(height(ContentDescription(.box(width: nil, height: 10), minHeight: 20), width: 100), 20)
        XCTAssertEqual(height(ContentDescription(.box(width: nil, height: 10), maxHeight: 5), width: 100), 5)
        XCTAssertEqual(height(ContentDescription(.box(width: nil, height: 20), minHeight: 40, maxHeight: 10), width: 100), 40,
                       "min wins over a smaller max")
        XCTAssertEqual(width(ContentDescription(.box(width: 90, height: nil), maxWidth: 60), height: 100), 60)
        XCTAssertEqual(height(ContentDescription(.box(width: 500, height: 12), maxWidth: 10), width: 100), 12,
                       "cross min/max do not change a box's height")
    }

    // MARK: Aspect ratio

    func testAspectRatioBothAxes() {
        XCTAssertEqual(height(.aspectRatio(2), width: 343), 171.5)          // 343 / 2
        XCTAssertEqual(width(.aspectRatio(2), height: 643), 1286)           // 643 × 2
        XCTAssertEqual(height(.aspectRatio(0.5), width: 100), 200)
        XCTAssertEqual(width(.aspectRatio(0.5), height: 100), 50)
        XCTAssertEqual(height(ContentDescription(.aspectRatio(0.5), maxHeight: 150), width: 100), 150)
        XCTAssertEqual(height(ContentDescription(.aspectRatio(2), minHeight: 200), width: 100), 200)
        XCTAssertEqual(height(ContentDescription(.aspectRatio(2), maxWidth: 200), width: 343), 100, "root width clamped to 200")
        XCTAssertEqual(height(ContentDescription(.aspectRatio(2), minWidth: 400), width: 343), 200, "root width raised to 400")
        XCTAssertEqual(height(ContentDescription(.aspectRatio(2), minWidth: 300, maxWidth: 100), width: 343), 150)
        XCTAssertEqual(width(ContentDescription(.aspectRatio(2), maxHeight: 100), height: 643), 200, "root height clamped to 100")
        XCTAssertEqual(height(.aspectRatio(2), width: -10), 0, "a negative cross extent counts as 0")
        XCTAssertEqual(height(.aspectRatio(2), width: 0), 0)
    }

    /// A tiny ratio derives a length of at most 10⁹ (343 / 5e-324 is infinite, 343 / 1e-300 is
    /// 3.4e302), so the frames stay finite and agree with the measured length.
    func testDerivedLengthsStopAtTheLongestLength() {
        for ratio in [5e-324, 1e-300, 1e-8] {
            XCTAssertEqual(height(.aspectRatio(ratio), width: 343), 1e9, "ratio \(ratio)")
            let frames = m.frames(of: .aspectRatio(ratio), along: .vertical, crossExtent: 343)
            XCTAssertEqual(frames.frame, Rect(x: 0, y: 0, width: 343, height: 1e9), "ratio \(ratio)")
        }
        XCTAssertEqual(width(.aspectRatio(1e9), height: 10), 1e9, "10 × 10⁹ is 10¹⁰")
        XCTAssertEqual(height(.aspectRatio(1e-6), width: 343), 343_000_000, "under the cap: as derived")
    }

    // MARK: Groups along the measured axis

    func testGroupAlongTheMeasuredAxisSumsItsChildren() {
        // inner width 343 − 10 = 333: the aspect child stretches to it → 166.5;
        // 30 + 40 + 166.5 + 2 gaps × 8 + padding 10 + 20 = 282.5
        let group = ContentDescription.stack(.vertical, spacing: 8, padding: EdgeInsets(top: 10, left: 5, bottom: 20, right: 5),
                                             [.box(height: 30), .box(height: 40), .aspectRatio(2)])
        XCTAssertEqual(height(group, width: 343), 282.5)

        // A child setting its own cross extent keeps it: box width irrelevant, aspect child 50 wide → 50.
        let own = ContentDescription.stack(.vertical, [.box(width: 100, height: 10), ContentDescription(.aspectRatio(1), maxWidth: 50)])
        XCTAssertEqual(height(own, width: 343), 60)

        // Stretched across less the padding: 300 − 20 − 30 = 250.
        XCTAssertEqual(height(.stack(.vertical, padding: EdgeInsets(left: 20, right: 30), [.aspectRatio(1)]), width: 300), 250)
        XCTAssertEqual(height(.stack(.vertical, spacing: 100, [.box(height: 5)]), width: 300), 5, "one child, no gap")
        XCTAssertEqual(height(ContentDescription(.stack(axis: .vertical, spacing: 0, padding: .zero, children: [.box(height: 100)]),
                                                 maxHeight: 60), width: 300), 60)
        // Along the horizontal axis: 40 + (100 × 2) + 5 + 3 + 7 = 255.
        let row = ContentDescription.stack(.horizontal, spacing: 5, padding: EdgeInsets(top: 0, left: 3, bottom: 0, right: 7),
                                           [.box(width: 40), .aspectRatio(2)])
        XCTAssertEqual(width(row, height: 100), 255)
        // Cross padding shrinks the children's height: 100 − 10 − 30 = 60.
        XCTAssertEqual(width(.stack(.horizontal, padding: EdgeInsets(top: 10, bottom: 30), [.aspectRatio(1)]), height: 100), 60)
    }

    func testEmptyGroupsAreTheirPadding() {
        let padding = EdgeInsets(top: 3, left: 1, bottom: 4, right: 2)
        XCTAssertEqual(height(.stack(.vertical, spacing: 10, padding: padding, []), width: 100), 7)
        XCTAssertEqual(height(.stack(.horizontal, spacing: 10, padding: padding, []), width: 100), 7)
        XCTAssertEqual(width(.stack(.horizontal, spacing: 10, padding: padding, []), height: 100), 3)
        XCTAssertEqual(width(.stack(.vertical, spacing: 10, padding: padding, []), height: 100), 3)
    }

    // MARK: Groups across the measured axis

    func testGroupAcrossTheMeasuredAxisSharesTheWidth() {
        // 300 wide: the fixed child keeps 100, the two others get 100 each → heights 20, 100, 50.
        XCTAssertEqual(height(.stack(.horizontal, [.box(width: 100, height: 20), .aspectRatio(1), .aspectRatio(2)]), width: 300), 100)
        // 300 − 20 padding − 20 gaps − 100 fixed = 160 → 80 each → heights 80, 40; longest 80 + 10 padding.
        let padded = ContentDescription.stack(.horizontal, spacing: 10, padding: EdgeInsets(top: 5, left: 10, bottom: 5, right: 10),
                                              [.box(width: 100, height: 20), .aspectRatio(1), .aspectRatio(2)])
        XCTAssertEqual(height(padded, width: 300), 90)
        XCTAssertEqual(height(.stack(.horizontal, [.box(width: 250, height: 5), .aspectRatio(1)]), width: 300), 50)
        XCTAssertEqual(height(.stack(.horizontal, [.aspectRatio(1), .aspectRatio(1), .aspectRatio(1)]), width: 300), 100)
        XCTAssertEqual(height(.stack(.horizontal, [.box(width: 10, height: 70), .aspectRatio(8)]), width: 290), 70,
                       "the longest child: 70 against 280 / 8 = 35")
        // Measuring widths, a vertical group is across: the fixed 30 tall child keeps it, the aspect child gets 70 → 140.
        XCTAssertEqual(width(.stack(.vertical, [.aspectRatio(2), .box(width: 10, height: 30)]), height: 100), 140)
        // A root group with a max width shares only that: 200 / 2 → 100.
        let capped = ContentDescription(.stack(axis: .horizontal, spacing: 0, padding: .zero, children: [.aspectRatio(1), .aspectRatio(1)]),
                                        maxWidth: 200)
        XCTAssertEqual(height(capped, width: 343), 100)
    }

    func testMaxWidthFreezesAndRedistributes() {
        let capped = ContentDescription(.box(width: nil, height: nil), maxWidth: 50)
        // Container 300, three flexible children: 100 each; the capped one freezes at 50, the others get 125.
        XCTAssertEqual(height(.stack(.horizontal, [capped, .aspectRatio(1), .box()]), width: 300), 125)
        XCTAssertEqual(height(.stack(.horizontal, [ContentDescription(.aspectRatio(1), maxWidth: 50), .box(), .box()]), width: 300), 50)
        // Two capped children (10 and 20) freeze in one round; the last gets 270.
        let two = ContentDescription.stack(.horizontal, [
            ContentDescription(.box(width: nil, height: nil), maxWidth: 10),
            ContentDescription(.box(width: nil, height: nil), maxWidth: 20),
            .aspectRatio(1),
        ])
        XCTAssertEqual(height(two, width: 300), 270)
    }

    func testMinWidthFreezesAndRedistributes() {
        let raised = ContentDescription(.box(width: nil, height: nil), minWidth: 200)
        // Container 300: the raised child freezes at 200, the two others get 50 each.
        XCTAssertEqual(height(.stack(.horizontal, [raised, .aspectRatio(1), .box()]), width: 300), 50)
        XCTAssertEqual(height(.stack(.horizontal, [ContentDescription(.aspectRatio(1), minWidth: 200), .box(), .box()]), width: 300), 200)
        // Positive total violation freezes only the min violator first: 200; then 50 each (the 50 cap is not violated).
        let mixed = ContentDescription.stack(.horizontal, [
            ContentDescription(.box(width: nil, height: nil), maxWidth: 50), raised, .aspectRatio(1),
        ])
        XCTAssertEqual(height(mixed, width: 300), 50)
    }

    func testMinWinsOverMaxInsideAGroup() {
        let conflicted = ContentDescription(.aspectRatio(1), minWidth: 80, maxWidth: 40)
        XCTAssertEqual(height(.stack(.horizontal, [conflicted, .box(), .box()]), width: 300), 80)
        // It freezes at 80 (a negative violation): the others share 220 → 110.
        let probe = ContentDescription.stack(.horizontal, [
            ContentDescription(.box(width: nil, height: nil), minWidth: 80, maxWidth: 40), .aspectRatio(1), .box(),
        ])
        XCTAssertEqual(height(probe, width: 300), 110)
        // A fixed child is clamped too.
        XCTAssertEqual(height(.stack(.horizontal, [ContentDescription(.box(width: 10, height: nil), minWidth: 100), .aspectRatio(1)]),
                              width: 300), 200)
    }

    func testNegativeLeftoverSpaceGivesFlexibleChildrenNothing() {
        // 100 wide, a fixed 150: the aspect child gets 0 → height 0; the longest child is the box, 10.
        XCTAssertEqual(height(.stack(.horizontal, [.box(width: 150, height: 10), .aspectRatio(1)]), width: 100), 10)
        XCTAssertEqual(height(.stack(.horizontal, [.box(width: 150, height: 10), ContentDescription(.aspectRatio(1), minWidth: 20)]),
                              width: 100), 20)
        // Gaps alone can use up the space.
        XCTAssertEqual(height(.stack(.horizontal, spacing: 150, [.aspectRatio(1), .aspectRatio(1)]), width: 100), 0)
        XCTAssertEqual(height(.stack(.horizontal, spacing: 60, [.aspectRatio(1), .aspectRatio(1)]), width: 100), 20)
    }

    func testFlexibleChildrenStartFromTheirPadding() {
        // 300 wide; the group's base is its padding (80): 300 − 80 = 220 shared → 110 each.
        // The aspect child is 110 wide → 110 tall; the group is 80 + 110 = 190 wide.
        let padded = ContentDescription.stack(.vertical, padding: EdgeInsets(left: 40, right: 40), [])
        XCTAssertEqual(height(.stack(.horizontal, [.aspectRatio(1), padded]), width: 300), 110)
        let frames = m.frames(of: .stack(.horizontal, [.aspectRatio(1), padded]), along: .vertical, crossExtent: 300)
        XCTAssertEqual(frames.children.map(\.frame), [Rect(x: 0, y: 0, width: 110, height: 110), Rect(x: 110, y: 0, width: 190, height: 0)])
        // No free space: the padded group keeps its padding, the aspect child gets nothing.
        XCTAssertEqual(m.frames(of: .stack(.horizontal, [.aspectRatio(1), padded]), along: .vertical, crossExtent: 50).children.map(\.frame.size.width), [0, 80])
        // A border box never gets smaller than its padding, whatever its max says.
        XCTAssertEqual(height(ContentDescription(.stack(axis: .vertical, spacing: 0, padding: EdgeInsets(top: 30), children: []), maxHeight: 10), width: 100), 30)
    }

    func testLengthsAreInSixtyFourthsAsChromiumComputesThem() {
        // 100 / 3 = 33.33… is floored to 2133/64.
        XCTAssertEqual(height(.aspectRatio(3), width: 100), 2133.0 / 64)
        // Three shares of 100, the last first: round(6400 / 3) = 2133, round(4267 / 2) = 2134 (a half away from 0), 2133.
        let thirds = m.frames(of: .stack(.horizontal, [.box(), .box(), .box()]), along: .vertical, crossExtent: 100)
        XCTAssertEqual(thirds.children.map { $0.frame.size.width * 64 }, [2133, 2134, 2133])
        XCTAssertEqual(thirds.children.map { $0.frame.origin.x * 64 }, [0, 2133, 4267])
        // Given lengths are truncated to 1/64: 10.01 → 640/64.
        XCTAssertEqual(height(.box(height: 10.01), width: 100), 10)
    }

    func testFramesMirrorTheTree() {
        // A column 200 wide with padding 10 all round and spacing 4: a 30 tall box, then a row of two aspect-1 boxes of 90.
        let d = ContentDescription.stack(.vertical, spacing: 4, padding: EdgeInsets(top: 10, left: 10, bottom: 10, right: 10),
                                         [.box(height: 30), .stack(.horizontal, [.aspectRatio(1), .aspectRatio(1)])])
        let f = m.frames(of: d, along: .vertical, crossExtent: 200)
        XCTAssertEqual(f.frame, Rect(x: 0, y: 0, width: 200, height: 10 + 30 + 4 + 90 + 10))
        XCTAssertEqual(f.children.map(\.frame), [Rect(x: 10, y: 10, width: 180, height: 30), Rect(x: 10, y: 44, width: 180, height: 90)])
        XCTAssertEqual(f.children[1].children.map(\.frame), [Rect(x: 10, y: 44, width: 90, height: 90), Rect(x: 100, y: 44, width: 90, height: 90)])
        // Measuring widths: the same tree transposed; the column is across, so its children share the height.
        let w = m.frames(of: .stack(.vertical, [.aspectRatio(2), .aspectRatio(1)]), along: .horizontal, crossExtent: 100)
        XCTAssertEqual(w.children.map(\.frame), [Rect(x: 0, y: 0, width: 100, height: 50), Rect(x: 0, y: 50, width: 50, height: 50)])
        XCTAssertEqual(w.frame, Rect(x: 0, y: 0, width: 100, height: 100))
    }

    // MARK: Nesting

    func testNestedGroups() {
        // 10 + (200 / 2 = 100) + 4 gap + 2 + 2 padding = 118.
        let column = ContentDescription.stack(.vertical, spacing: 4, padding: EdgeInsets(top: 2, bottom: 2),
                                              [.box(height: 10), .stack(.horizontal, [.aspectRatio(1), .aspectRatio(1)])])
        XCTAssertEqual(height(column, width: 200), 118)
        // 230 − 2 gaps × 10 − 30 fixed = 180 → 90 each; heights 30, 40 and 45 → 45.
        let row = ContentDescription.stack(.horizontal, spacing: 10, [
            .stack(.vertical, [.box(height: 10), .box(height: 20)]),
            .stack(.vertical, spacing: 5, [.box(height: 40)]),
            .box(width: 30, height: 45),
        ])
        XCTAssertEqual(height(row, width: 230), 45)
        // The 90-wide columns: 90 / 2 + 15 = 60 and 10 + 90 / 3 = 40 (one child, no gap); the box 45: longest 60.
        let deeper = ContentDescription.stack(.horizontal, spacing: 10, [
            .stack(.vertical, [.aspectRatio(2), .box(height: 15)]),
            .stack(.vertical, spacing: 5, padding: EdgeInsets(top: 10), [.aspectRatio(3)]),
            .box(width: 30, height: 45),
        ])
        XCTAssertEqual(height(deeper, width: 230), 60)
    }

    // MARK: In a stack

    struct QuarterMeasurer: ContentMeasuring {
        func length(of content: ContentDescription, along axis: Axis, crossExtent: Double) -> Double { crossExtent / 4 }
    }

    func testTheStackMeasuresAtTheContentCrossExtent() throws {
        // 375 − 16 − 16 = 343 → 85.75, + 24 = 109.75.
        var stack = try ScrollStack(rows: [Fx.fitRow("f", .box())], measurer: QuarterMeasurer())
        stack.checkInvariants()
        XCTAssertEqual(try stack.layout(of: .id("f")).frame.size.height, 109.75)
        try stack.setInsets([.id("f")], EdgeInsets(top: 0, left: 75, bottom: 0, right: 100))
        stack.checkInvariants()
        XCTAssertEqual(try stack.layout(of: .id("f")).frame.size.height, 50)  // (375 − 175) / 4
        try stack.update(SettingsChange(axis: .horizontal))
        stack.checkInvariants()
        XCTAssertEqual(try stack.layout(of: .id("f")).frame.size.width, 175 + 166.75)  // 667 / 4 + 175
        try stack.setInsets([.id("f")], EdgeInsets(top: 400, left: 0, bottom: 400, right: 0))
        stack.checkInvariants()
        XCTAssertEqual(try stack.layout(of: .id("f")).frame.size.width, 0, "the cross extent never goes below 0")
    }

    func testFitRowsInBothAxes() throws {
        let card = ContentDescription.stack(.vertical, spacing: 8, padding: EdgeInsets(top: 10, left: 10, bottom: 10, right: 10),
                                            [.aspectRatio(2), .box(height: 20)])
        var stack = try ScrollStack(rows: [Fx.fitRow("card", card)])
        // Vertical: content 343 wide, inner 323 → 161.5 + 20 + 8 + 20 = 209.5; row 233.5.
        XCTAssertEqual(try stack.layout(of: .id("card")).frame, Rect(x: 0, y: 0, width: 375, height: 233.5))
        try stack.update(SettingsChange(axis: .horizontal))
        stack.checkInvariants()
        // Horizontal: content 643 tall; the column is across: inner 623 − 8 gap − 20 fixed = 595 → 1190 wide,
        // the box 0 wide: longest 1190 + 20 padding = 1210; row 1242.
        XCTAssertEqual(try stack.layout(of: .id("card")).frame, Rect(x: 0, y: 0, width: 1242, height: 667))
    }
}
