import ScrollStackCore
@testable import ScrollStackText
import XCTest

/// Right-to-left text in left-to-right paragraphs (CSS `direction: ltr`), as Chromium lays it
/// out: embedding levels by the Unicode Bidirectional Algorithm, runs of one level shaped apart
/// (odd ones right to left), each run's part of a line ceiled to 1/64 pt, no letter spacing
/// between the letters of cursive scripts, and lines drawn in visual order. Figures marked
/// "Chromium 156" were measured by Debian's headless Chromium with the same font files.
final class BidiTextTests: XCTestCase {
    static let engine = TextEngine(catalog: FontCatalog(directories: FontCatalog.defaultDirectories))
    var engine: TextEngine { Self.engine }

    func text(_ s: String, _ family: String = "DejaVu Sans", size: Double = 12, weight: Int = 400, style: FontRequest.Style = .normal,
              letterSpacing: Double = 0) -> TextContent {
        TextContent(s, font: FontRequest(family: family, size: size, weight: weight, style: style), letterSpacing: letterSpacing)
    }

    func width(_ t: TextContent) -> Double { engine.lines(of: t, width: nil).widths.first ?? 0 }

    /// The glyph ids of a one-line text's drawing, left to right.
    func drawnIDs(_ t: TextContent) throws -> [UInt32] {
        let line = try XCTUnwrap(engine.glyphLines(of: t, width: nil).first)
        return line.runs.flatMap(\.glyphs).sorted { $0.x < $1.x }.map(\.id)
    }

    func testLevelsAndVisualOrder() {
        XCTAssertNil(Bidi.levels(Array("plain Latin, café 123".utf16)), "no unit at U+0590 or above: all level 0")
        XCTAssertEqual(Bidi.levels(Array("ab שלום".utf16)), [0, 0, 0, 1, 1, 1, 1])
        // European digits inside right-to-left text are level 2: left to right within it.
        XCTAssertEqual(Bidi.levels(Array("שלום 12 עולם".utf16)), [1, 1, 1, 1, 1, 2, 2, 1, 1, 1, 1, 1])
        XCTAssertEqual(Bidi.visualOrder([0, 0, 1, 1, 1, 0]), [0, 1, 4, 3, 2, 5])
        XCTAssertEqual(Bidi.visualOrder([1, 1, 2, 2, 1]), [4, 2, 3, 1, 0])
        XCTAssertEqual(Bidi.visualOrder([0, 0]), [0, 1])
        XCTAssertEqual(Bidi.levelRuns(0..<7, Bidi.levels(Array("ab שלום".utf16))).map(\.range), [0..<3, 3..<7])
        XCTAssertEqual(Bidi.levelRuns(0..<7, Bidi.levels(Array("ab שלום".utf16))).map(\.rightToLeft), [false, true])
    }

    func testRightToLeftRunsAreShapedRightToLeftAndKeptInLogicalOrder() throws {
        let engine = self.engine
        let units = Array("ab مرحبا cd".utf16)
        let glyphs = try XCTUnwrap(engine.shards[0].state.withLock { state -> [Shaper.Glyph]? in
            let key = try? XCTUnwrap(state.fontKey(for: FontRequest(family: "DejaVu Sans", size: 12)))
            return key.flatMap { key in
                state.withChain(key) { chain in
                    Shaper.shapeGlyphs(units, chain: chain, context: ParagraphContext(), features: [], letterSpacing: 0).glyphs
                }
            }
        })
        XCTAssertEqual(glyphs.map(\.cluster), glyphs.map(\.cluster).sorted(), "clusters ascend: logical order")
        // Drawn, the Arabic word's glyphs are its shaping reversed: right to left.
        let arabic = glyphs.filter { (3..<8).contains($0.cluster) }.map(\.id)
        let drawn = try drawnIDs(text("ab مرحبا cd"))
        XCTAssertEqual(drawn.count, glyphs.count)
        XCTAssertEqual(Array(drawn[3..<8]), arabic.reversed())
        XCTAssertEqual(Array(drawn[0..<3]), glyphs[0..<3].map(\.id), "Latin before it stays left to right")
    }

    func testHebrewIsDrawnRightToLeftWithDigitsLeftToRight() throws {
        func id(_ s: String) throws -> UInt32 { try XCTUnwrap(try drawnIDs(text(s)).first) }
        let (shin, lamed, vav, finalMem) = (try id("ש"), try id("ל"), try id("ו"), try id("ם"))
        XCTAssertEqual(try drawnIDs(text("שלום")), [finalMem, vav, lamed, shin])
        let (one, two) = (try id("1"), try id("2"))
        let drawn = try drawnIDs(text("שלום 12"))
        // Visually: "12", the space, then the word right to left.
        XCTAssertEqual(drawn.filter { $0 != drawn[2] }, [one, two, finalMem, vav, lamed, shin])
    }

    func testLetterSpacingSkipsTheLettersOfCursiveScripts() {
        // Chromium 156, DejaVu Sans 12 px: "مرحبا" is 27.75 with letter-spacing 0 and 2;
        // "שלום" is 26.5625 and 34.5625 (four letters spaced); "مرحبا مرحبا" 59.3125 and
        // 61.3125 (only the space is).
        XCTAssertEqual(width(text("مرحبا")), 27.75)
        XCTAssertEqual(width(text("مرحبا", letterSpacing: 2)), 27.75)
        XCTAssertEqual(width(text("שלום")), 26.5625)
        XCTAssertEqual(width(text("שלום", letterSpacing: 2)), 34.5625)
        XCTAssertEqual(width(text("مرحبا مرحبا")), 59.3125)
        XCTAssertEqual(width(text("مرحبا مرحبا", letterSpacing: 2)), 61.3125)
    }

    func testEachRunsPartOfALineIsCeiled() {
        // Chromium 156, Inter 11 px 600 italic (Hebrew falls back to DejaVu Sans): each bidi
        // run is an inline item whose width Blink ceils to 1/64, so these are 1/64 or 2/64
        // wider than the advances added up.
        XCTAssertEqual(width(text("over הגדרות", "Inter", size: 11, weight: 600, style: .italic)), 60.421875)
        XCTAssertEqual(width(text("a הגדרות b", "Inter", size: 11, weight: 600, style: .italic)), 52.90625)
        XCTAssertEqual(width(text("הגדרות", "Inter", size: 11, weight: 600, style: .italic)), 34.171875)
    }

    func testLinesAcrossRunsBreakAsChromiumBreaksThem() {
        // Chromium 156 breaks this at 70.53125 px (1/64 below where "لا Toyota" fits) into
        // "الإعدادات", "لا", "Toyota", "45 עולם", "إله עולם", "notifications".
        let t = text("الإعدادات لا Toyota 45 עולם إله עולם notifications", size: 17)
        let broken = engine.lines(of: t, width: 70.53125)
        XCTAssertEqual(broken.widths.count, 6, "\(broken.widths)")
        XCTAssertEqual(engine.lines(of: t, width: 70.546875).widths.count, 5, "1/64 wider, \"لا Toyota\" fits")
    }
}
