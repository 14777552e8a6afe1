import ScrollStackCore
import ScrollStackText
import XCTest

/// Where lines break and how wide each is, where Chromium's line breaker rounds or reshapes
/// (Docs/Semantics.md, "Line boxes as Chromium breaks them"). Each case was found by the
/// browser check; the numbers marked "Chromium 156" are its line boxes for the same text and
/// font file, the others come from the same engine on simpler input.
final class TextLineBreakingTests: XCTestCase {
    static let engine = TextEngine(catalog: FontCatalog(directories: FontCatalog.defaultDirectories))
    var engine: TextEngine { Self.engine }

    func text(_ s: String, size: Double, weight: Int, letterSpacing: Double = 0, alignment: TextContent.Alignment = .start) -> TextContent {
        TextContent(s, font: FontRequest(family: "Inter", size: size, weight: weight), letterSpacing: letterSpacing, alignment: alignment)
    }

    func widths(_ t: TextContent, at width: Double? = nil) -> [Double] { engine.lines(of: t, width: width).widths }

    /// A word fits when the advance to its end is at most the width plus 1/64 (Blink's line
    /// breaker adds one layout unit to the width), so a line may come out 1/64 wider than it.
    func testALineMayBe1Over64WiderThanTheWidth() {
        let t = text("notifications LT. 7:45 settings", size: 17.7, weight: 300, letterSpacing: 1.75)
        let lines = widths(t, at: 78.25)
        // Chromium 156: 124.109375, 78.265625, 80.078125.
        XCTAssertEqual(lines, [124.109375, 78.265625, 80.078125])
        XCTAssertEqual(lines[1], 78.25 + 1.0 / 64, "the second line is 1/64 wider than the width, yet it is one line")
        XCTAssertEqual(widths(t, at: 78.25 - 1.0 / 64).count, 4, "1/64 less and \"7:45\" goes to a line of its own")
        // The same at a line's start, DejaVu Sans Bold 12: Chromium 156 keeps "fluffy first
        // Toyota" (115.765625) on one line at 115.75.
        let dejavu = TextContent("fluffy first Toyota fox", font: FontRequest(family: "DejaVu Sans", size: 12, weight: 600))
        XCTAssertEqual(widths(dejavu, at: 115.75), [115.765625, 21.21875])
        let fluffyFirst = widths(TextContent("fluffy first", font: dejavu.font)).first!
        XCTAssertEqual(widths(dejavu, at: 115.75 - 1.0 / 64).first, fluffyFirst, "1/64 less and \"Toyota\" moves down")
    }

    /// Where a line may end is found on the paragraph's positions, ceiled to 1/64, but the
    /// line's own snapped width must fit too: a line starting at a fraction of 1/64 whose
    /// ends' positions fit but whose width is 1/64 over the room rewinds to the word before.
    func testALineMustFitByItsSnappedWidthAsWellAsByPositions() {
        let t = text("notifications quick fox jumps", size: 17, weight: 700)
        let quick = widths(text("quick", size: 17, weight: 700)).first!
        let quickFox = widths(text("quick fox", size: 17, weight: 700)).first!
        // Chromium 156: "quick fox" shares a line from 4853/64 on, not from 4852/64 (where the
        // ceiled positions alone would let it).
        XCTAssertEqual(quickFox, 4853.0 / 64 + 1.0 / 64, "1/64 wider than the width it takes")
        XCTAssertEqual(widths(t, at: 4853.0 / 64)[1], quickFox)
        XCTAssertEqual(widths(t, at: 4852.0 / 64)[1], quick)
    }

    /// A line ending where the end is reshaped (after the hyphen of "co-", which kerns with
    /// the "o" after it) fits by the reshaped piece after the position of the last safe
    /// offset, even where the paragraph's own advance to its end is over the room.
    func testAReshapedLineEndFitsByPositions() {
        let t = TextContent("Toyota café co-operate co-operate", font: FontRequest(family: "DejaVu Sans", size: 18, weight: 500))
        // Chromium 156: "café co-" is one line, 71.8125 wide, at 72.109375.
        XCTAssertEqual(widths(t, at: 72.109375)[1], 71.8125)
        XCTAssertEqual(widths(t, at: 72.109375 - 1.0 / 64)[1], widths(TextContent("café", font: t.font)).first!)
    }

    /// When the snapped width does not fit after all, Blink breaks the line again in that
    /// width less 1 pt, reshaping the new end: here "notifications co-operate" is 1/64 too
    /// wide, and the line ends after "co-" reshaped without the "o" it kerns with.
    func testAnOverflowingLineIsBrokenAgainWithItsEndReshaped() {
        let t = TextContent("résumé first brown notifications co-operate", font: FontRequest(family: "DejaVu Sans", size: 17, weight: 500))
        let lines = widths(t, at: 202.53125)
        // Chromium 156: 136.0625 ("co-" shaped alone; in the paragraph's shaping, 136.375).
        XCTAssertEqual(lines.count, 3)
        XCTAssertEqual(lines[1], 136.0625)
    }

    /// Centred and end-aligned lines that end at spaces are measured with their end reshaped
    /// without the space (Chromium needs their accurate end there); start-aligned ones keep
    /// the paragraph's shaping, kerning against the hanging space included.
    func testCentredAndEndAlignedLinesEndWithoutTheKerningAgainstTheSpace() {
        let pm = widths(text("pm,", size: 34, weight: 800)).first!
        let end = widths(text("notifications pm, over", size: 34, weight: 800, alignment: .end), at: 64)
        let start = widths(text("notifications pm, over", size: 34, weight: 800), at: 64)
        // Chromium 156: 63.8125 end-aligned, 62.265625 start-aligned ("," kerns with " ").
        XCTAssertEqual(end[1], pm)
        XCTAssertEqual(end[1], 63.8125)
        XCTAssertEqual(start[1], 62.265625)
        XCTAssertEqual(widths(text("notifications pm, over", size: 34, weight: 800, alignment: .center), at: 64)[1], pm)
        XCTAssertEqual([end[0], end[2]], [start[0], start[2]], "lines ending at safe places are alike")
    }

    /// A line that starts where breaking is unsafe (the space before it kerns with its first
    /// letter) is reshaped from its start; here up to the next safe offset, past its end, so
    /// it is "LT." shaped alone.
    func testALineStartingUnsafelyIsReshapedFromItsStart() {
        let lt = widths(text("LT.", size: 34, weight: 800)).first!
        // Chromium 156: 120.25, 48.578125, 133.5 for every alignment.
        for alignment in TextContent.Alignment.allCases {
            let lines = widths(text("(aside) LT. affluent", size: 34, weight: 800, alignment: alignment), at: 134)
            XCTAssertEqual(lines, [120.25, 48.578125, 133.5], "\(alignment)")
            XCTAssertEqual(lines[1], lt, "\(alignment)")
        }
    }

    /// The line boxes of `?content=frames` take those widths: centred at half the room left
    /// truncated to 1/64, ends flush right.
    func testLineBoxesUseTheReshapedWidths() {
        let m = FlexMeasurer(text: engine)
        let frames = m.frames(of: .text(text("(aside) LT. affluent", size: 34, weight: 800, alignment: .center)), along: .vertical, crossExtent: 134)
        // Chromium 156: x 6.875, 42.703125, 0.25; 41 pt apart (Inter's normal line height at 34).
        XCTAssertEqual(frames.lines.map(\.origin.x), [6.875, 42.703125, 0.25])
        XCTAssertEqual(frames.lines.map(\.origin.y), [0, 41, 82])
        XCTAssertEqual(frames.lines.map(\.size.width), [120.25, 48.578125, 133.5])
    }
}
