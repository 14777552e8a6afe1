import Foundation
import ScrollStackCore
import ScrollStackText
import XCTest

/// Characters a text's font lacks: measured and drawn in the fallback faces (DejaVu Sans,
/// Noto Sans CJK JP, Noto Color Emoji), lines of normal line height as tall as the fonts on
/// them need, and only what no face has reported missing. (Agreement with Chromium is the
/// Chromium layout check's.)
final class FontFallbackTests: XCTestCase {
    static let cjk = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
    static let emoji = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"
    var engine: TextEngine!

    override func setUpWithError() throws {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: Self.cjk) && FileManager.default.fileExists(atPath: Self.emoji),
                          "needs fonts-noto-cjk and fonts-noto-color-emoji (make test installs them)")
        engine = TextEngine(catalog: FontCatalog(directories: FontCatalog.defaultDirectories))
    }

    func text(_ text: String, _ family: String = "Inter", size: Double = 16, lineHeight: Double? = nil) -> TextContent {
        TextContent(text, font: FontRequest(family: family, size: size), lineHeight: lineHeight)
    }

    func testTheChainIsTheFallbackFamiliesInOrder() {
        XCTAssertEqual(engine.catalog.fallbackFaces.map(\.face.family), ["DejaVu Sans", "Noto Sans CJK JP", "Noto Color Emoji"])
        XCTAssertEqual(engine.catalog.fallbackFaces.map(\.emoji), [false, false, true])
        XCTAssertEqual(engine.catalog.fallbackFaces.map(\.face.weight), [400, 400, 400])
    }

    func testMissingCharactersMeasureAsTheFallbackFaceMeasuresThem() {
        for size in [11.0, 16, 28] {
            let cjk = engine.lines(of: text("日本語のテキスト", "Noto Sans CJK JP", size: size), width: nil).widths
            XCTAssertEqual(engine.lines(of: text("日本語のテキスト", size: size), width: nil).widths, cjk, "\(size)")
            let snowman = engine.lines(of: text("☃", "DejaVu Sans", size: size), width: nil).widths
            XCTAssertEqual(engine.lines(of: text("☃", size: size), width: nil).widths, snowman, "\(size)")
            let latin = engine.lines(of: text("abc", size: size), width: nil).widths[0]
            let mixed = engine.lines(of: text("abc日本語のテキスト", size: size), width: nil).widths[0]
            XCTAssertEqual(mixed, LayoutUnit.ceil(latin + cjk[0]), accuracy: 2 / LayoutUnit.scale, "\(size)")
        }
        let party = engine.drawableLines(of: text("Party 🎉 日本"), width: nil)
        XCTAssertEqual(party.missingGlyphs, [], "every character has a face")
        XCTAssertGreaterThan(party.widths[0], engine.lines(of: text("Party  "), width: nil).widths[0] + 30)
    }

    func testOnlyWhatNoFaceHasIsMissing() {
        // Linear B, an Egyptian hieroglyph and Thai: in none of the faces.
        let lines = engine.drawableLines(of: text("a 𐀀 日 𓀀 🎉 ภ"), width: nil)
        XCTAssertEqual(lines.missingGlyphs, ["𐀀", "𓀀", "ภ"])
    }

    func testLinesOfNormalHeightAreAsTallAsTheirFonts() throws {
        let inter = engine.lines(of: text("abc"), width: nil)
        let cjkAlone = engine.lines(of: text("日本", "Noto Sans CJK JP"), width: nil)
        XCTAssertEqual(inter.lineHeight, 20)
        XCTAssertEqual(cjkAlone.lineHeight, 24)
        // A line with CJK on it is as tall as Noto Sans CJK needs; the others keep Inter's.
        let mixed = engine.lines(of: text("abc\n日本\ndef"), width: nil)
        XCTAssertEqual(mixed.lineHeights, [20, 24, 20])
        XCTAssertEqual(mixed.height, 64)
        let drawable = engine.drawableLines(of: text("abc\n日本\ndef"), width: nil)
        XCTAssertEqual(drawable.lineHeights, [20, 24, 20])
        // Wrapped: only the lines holding CJK grow.
        let wrapped = engine.lines(of: text("one two three 日本 four five six"), width: 60)
        XCTAssertEqual(wrapped.lineHeights.count, wrapped.widths.count)
        XCTAssertEqual(Set(wrapped.lineHeights), [20, 24])
        // A given line height is every line's, whatever fonts it uses.
        let fixed = engine.lines(of: text("abc\n日本", lineHeight: 30), width: nil)
        XCTAssertEqual(fixed.lineHeights, [])
        XCTAssertEqual(fixed.height, 60)
    }

    func testGlyphRunsNameTheFaceEachCharacterIsDrawnIn() throws {
        let lines = engine.glyphLines(of: text("a日🎉b☃"), width: nil)
        let runs = try XCTUnwrap(lines.first).runs
        XCTAssertEqual(runs.map(\.face.family), ["Inter", "Noto Sans CJK JP", "Noto Color Emoji", "Inter", "DejaVu Sans"])
        XCTAssertEqual(runs.map(\.glyphs.count), [1, 1, 1, 1, 1])
        // Pens run on across the runs, as measured.
        let xs = runs.flatMap(\.glyphs).map(\.x)
        XCTAssertEqual(xs, xs.sorted())
        let width = engine.lines(of: text("a日🎉b☃"), width: nil).widths[0]
        XCTAssertLessThan(xs.last!, width)
        // The baseline of a line grown by CJK sits lower than Inter's alone.
        let plain = try XCTUnwrap(engine.glyphLines(of: text("ab"), width: nil).first)
        XCTAssertGreaterThan(try XCTUnwrap(lines.first).baseline, plain.baseline)
        // Bold text falls back to the regular CJK face, drawn with synthesized bold (as Chromium does).
        let bold = try XCTUnwrap(engine.glyphLines(of: TextContent("a日", font: FontRequest(family: "Inter", size: 16, weight: 700)), width: nil).first)
        XCTAssertEqual(bold.runs.map(\.face.family), ["Inter", "Noto Sans CJK JP"])
        XCTAssertEqual(bold.runs.map(\.synthesis), [[], [.bold]])
    }

    func testEmojiPresentationPrefersTheEmojiFace() throws {
        // U+2603 is text by default: DejaVu Sans draws it; followed by VS16 it is an emoji.
        let text = engine.glyphLines(of: text("☃"), width: nil).first?.runs.last?.face.family
        XCTAssertEqual(text, "DejaVu Sans")
        let emoji = engine.glyphLines(of: self.text("☃\u{FE0F}"), width: nil).first?.runs.last?.face.family
        XCTAssertEqual(emoji, "Noto Color Emoji")
        // A skin-toned emoji is one glyph of the emoji face.
        let toned = try XCTUnwrap(engine.glyphLines(of: self.text("👍🏽"), width: nil).first)
        XCTAssertEqual(toned.runs.map(\.face.family), ["Noto Color Emoji"])
        XCTAssertEqual(toned.runs.first?.glyphs.count, 1)
    }
}
