import ScrollStackCore
import ScrollStackText
import XCTest

/// Text measured with Debian's Inter and DejaVu Sans. Expected widths either come from the
/// same engine on simpler input (stated in each test) or, where marked, from Chromium 156
/// measuring the same font file (Docs/Semantics.md, "Text").
final class TextEngineTests: XCTestCase {
    static let engine = TextEngine(catalog: FontCatalog(directories: FontCatalog.defaultDirectories))
    var engine: TextEngine { Self.engine }

    func text(_ s: String, _ family: String = "Inter", size: Double = 16, lineHeight: Double? = nil,
              letterSpacing: Double = 0, maxLines: Int? = nil) -> TextContent {
        TextContent(s, font: FontRequest(family: family, size: size), lineHeight: lineHeight, letterSpacing: letterSpacing, maxLines: maxLines)
    }

    func widths(_ t: TextContent, at width: Double? = nil) -> [Double] { engine.lines(of: t, width: width).widths }
    func width(_ s: String, _ family: String = "Inter", size: Double = 16, letterSpacing: Double = 0) -> Double {
        widths(text(s, family, size: size, letterSpacing: letterSpacing)).first ?? 0
    }

    func testWidthsAndLineHeightsAsChromiumMeasuresThem() {
        // Chromium 156: a nowrap span in Inter-Regular.otf at 16px is 86.390625 wide.
        XCTAssertEqual(width("Hello World"), 86.390625)
        // Chromium 156: 60.03125 at 10px; HarfBuzz's own advances would give 60.015625 —
        // FreeType's linear advances (rounded x_scale) are what Chromium adds up.
        XCTAssertEqual(width("1234567890", size: 10), 60.03125)
        // line-height: normal = round(ascent) + round(descent) + round(gap); Inter: hhea 2728 / −680 / 0 over 2816.
        XCTAssertEqual(engine.lines(of: text("x", size: 10), width: nil).lineHeight, 12)   // 9.69 → 10, 2.41 → 2
        XCTAssertEqual(engine.lines(of: text("x", size: 16), width: nil).lineHeight, 20)   // 15.5 → 16, 3.86 → 4
        // DejaVu Sans: 1901 / −483 / 0 over 2048 at 16: 14.85 → 15, 3.77 → 4.
        XCTAssertEqual(engine.lines(of: text("x", "DejaVu Sans"), width: nil).lineHeight, 19)
        XCTAssertEqual(engine.lines(of: text("x", lineHeight: 23.3), width: nil).lineHeight, 23.296875, "a given line height, in 1/64")
    }

    func testEmptyTextHasNoLines() {
        XCTAssertEqual(widths(text("")), [])
        XCTAssertEqual(widths(text("   \t ")), [], "white space alone collapses away")
        XCTAssertEqual(widths(text("\n")), [0], "a forced break makes one empty line")
        XCTAssertEqual(engine.lines(of: text(""), width: 100).height, 0)
    }

    func testExplicitNewlines() {
        XCTAssertEqual(widths(text("ab\ncd\n\nef"), at: 500).count, 4, "an empty line between two breaks")
        XCTAssertEqual(widths(text("ab\n"), at: 500).count, 1, "a final break starts no line")
        XCTAssertEqual(widths(text("ab\r\ncd\rx")).count, 3, "CR LF and CR break too")
        XCTAssertEqual(widths(text("ab\ncd")), [width("ab"), width("cd")], "no wrapping still breaks at newlines")
    }

    func testSpacesCollapseAndHangAtLineEnds() {
        XCTAssertEqual(width("a    b"), width("a b"))
        XCTAssertEqual(width("  a b  "), width("a b"), "leading and trailing spaces go")
        // Wrapping exactly at the width of "lorem": the space after it hangs, "ipsum" moves down.
        let lorem = width("lorem")
        XCTAssertEqual(widths(text("lorem ipsum"), at: lorem), [lorem, width("ipsum")])
        XCTAssertEqual(widths(text("lorem ipsum"), at: lorem - 1.0 / 64), [lorem, width("ipsum")], "each word overflows alone")
        XCTAssertEqual(widths(text("lorem ipsum"), at: width("lorem ipsum")), [width("lorem ipsum")])
    }

    func testALineEndingAtAHyphenIsMeasuredWithoutWhatFollows() {
        // After "co-" the line breaks (UAX #14); the line is as wide as "co-" shaped alone,
        // whatever kerning "-o" has in the whole word.
        for family in ["Inter", "DejaVu Sans"] {
            let first = width("co-", family, size: 24)
            XCTAssertEqual(widths(text("co-operate", family, size: 24), at: first), [first, width("operate", family, size: 24)], family)
        }
    }

    func testAWordLongerThanTheWidthOverflows() {
        let word = "Supercalifragilistic"
        XCTAssertEqual(widths(text(word), at: 20), [width(word)], "overflow-wrap: normal never breaks inside a word")
        XCTAssertEqual(widths(text("a " + word + " b"), at: 20), [width("a"), width(word), width("b")])
        XCTAssertEqual(engine.lines(of: text(word), width: 0).widths.count, 1)
    }

    func testNonLatinScriptsInDejaVu() {
        let hello = "Привет мир"
        let privet = width("Привет", "DejaVu Sans")
        XCTAssertGreaterThan(privet, 30, "Cyrillic has real glyphs in DejaVu Sans")
        XCTAssertEqual(widths(text(hello, "DejaVu Sans"), at: privet), [privet, width("мир", "DejaVu Sans")])
        XCTAssertGreaterThan(width("Ξεσκεπάζω", "DejaVu Sans"), 50)
        XCTAssertGreaterThan(width("გამარჯობა", "DejaVu Sans"), 50, "Georgian")
        // A mixed paragraph is shaped as one run per script and breaks between them.
        let mir = width("мир", "DejaVu Sans")
        XCTAssertEqual(widths(text("мир world", "DejaVu Sans"), at: mir), [mir, width("world", "DejaVu Sans")])
        XCTAssertGreaterThan(width("мир world", "DejaVu Sans"), mir + width("world", "DejaVu Sans"), "plus a space")
    }

    func testLigaturesAndLetterSpacing() {
        // DejaVu Sans has an "ffi" ligature 31 units narrower than f + f + i (2011 units at 2048 per em).
        let apart = width("f", "DejaVu Sans", size: 20) * 2 + width("i", "DejaVu Sans", size: 20)
        let ligature = width("ffi", "DejaVu Sans", size: 20)
        XCTAssertEqual(ligature, LayoutUnit.ceil(1980.0 / 2048 * 20), accuracy: 1.0 / 64)
        XCTAssertLessThan(ligature, apart - 0.25)
        // Letter spacing turns ligatures off and adds after every character.
        XCTAssertEqual(width("ffi", "DejaVu Sans", size: 20, letterSpacing: 1), LayoutUnit.ceil(2011.0 / 2048 * 20) + 3, accuracy: 1.0 / 64)
        XCTAssertEqual(width("abc", letterSpacing: 2), width("abc") + 6)
        XCTAssertEqual(width("abc", letterSpacing: -0.5), width("abc") - 1.5)
    }

    func testMaxLinesTruncates() {
        let t = text("one two three four five", maxLines: 2)
        let all = engine.lines(of: text("one two three four five"), width: 40)
        XCTAssertGreaterThan(all.widths.count, 2)
        let cut = engine.lines(of: t, width: 40)
        XCTAssertEqual(cut.widths, Array(all.widths.prefix(2)))
        XCTAssertEqual(cut.height, 2 * cut.lineHeight)
        XCTAssertEqual(engine.lines(of: text("one\ntwo three", maxLines: 1), width: nil).widestLine, width("two three"),
                       "the intrinsic width counts the clamped lines, as CSS does")
    }

    func testTheShapeCacheIsBoundedAndTransparent() {
        let small = TextEngine(catalog: engine.catalog, shapeCacheBytes: 700)
        let texts = ["alpha beta", "gamma delta", "epsilon zeta", "alpha beta"]
        for s in texts {
            XCTAssertEqual(small.lines(of: text(s), width: 60), engine.lines(of: text(s), width: 60), s)
        }
    }

    func testTheShapeCacheIsBoundedInBytes() {
        let bound = 64 << 10
        let small = TextEngine(catalog: engine.catalog, shapeCacheBytes: bound)
        // 200 distinct paragraphs of about 1 KB: far more than the bound holds.
        let words = ["lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit"]
        for i in 0..<200 {
            let paragraph = (0..<150).map { words[($0 * 7 + i) % words.count] }.joined(separator: " ") + " \(i)"
            XCTAssertEqual(small.lines(of: text(paragraph), width: 300), engine.lines(of: text(paragraph), width: 300))
            XCTAssertLessThanOrEqual(small.statistics.shapeCacheBytes, bound, "after paragraph \(i)")
        }
        let held = small.statistics
        XCTAssertEqual(held.paragraphsShaped, 200)
        XCTAssertGreaterThan(held.cachedParagraphs, 0)
        XCTAssertLessThan(held.cachedParagraphs, 200, "older paragraphs were evicted")
    }

    /// What a drawing uses of glyph lines: each line's baseline, and each run's face, size,
    /// synthesis and glyphs.
    func drawn(_ lines: [GlyphLine]) -> [String] {
        lines.map { line in
            "\(line.baseline): " + line.runs.map { "\($0.face.family) \($0.size) \($0.synthesis.rawValue) \($0.glyphs)" }.joined(separator: " | ")
        }
    }

    func testDrawnGlyphsAreCachedAndTheSameAsShapedAgain() {
        let cached = TextEngine(catalog: engine.catalog)
        let uncached = TextEngine(catalog: engine.catalog, glyphCacheBytes: 0)
        var cut = text("the quick brown fox jumps over the lazy dog, twice over", maxLines: 2)
        cut.ellipsis = true
        let texts = [text("the quick brown fox jumps over the lazy dog"), text("one\ntwo three\n\nfour"),
                     text("alpha beta gamma", letterSpacing: 1.5), cut, text("Wide AVATAR", size: 28)]
        var shapedOnce = 0
        for round in 0..<3 {
            for t in texts {
                for width in [nil, 60.0, 200] {
                    let lines = cached.glyphLines(of: t, width: width)
                    XCTAssertFalse(lines.isEmpty, t.text)
                    XCTAssertEqual(drawn(lines), drawn(uncached.glyphLines(of: t, width: width)), "\(t.text) at \(String(describing: width))")
                }
            }
            if round == 0 { shapedOnce = cached.statistics.paragraphsShapedForDrawing }
        }
        XCTAssertGreaterThan(shapedOnce, 0)
        XCTAssertEqual(cached.statistics.paragraphsShapedForDrawing, shapedOnce, "drawing again shapes nothing")
        XCTAssertEqual(uncached.statistics.paragraphsShapedForDrawing, 9 * shapedOnce, "without the cache, every drawing (3 rounds, 3 widths) shapes")
        XCTAssertEqual(uncached.statistics.cachedDrawnParagraphs, 0)
        // Bounded in bytes: older paragraphs leave.
        let small = TextEngine(catalog: engine.catalog, glyphCacheBytes: 4096)
        for i in 0..<100 {
            _ = small.glyphLines(of: text("paragraph number \(i) of a hundred"), width: nil)
            XCTAssertLessThanOrEqual(small.statistics.glyphCacheBytes, 4096, "after paragraph \(i)")
        }
        XCTAssertGreaterThan(small.statistics.cachedDrawnParagraphs, 0)
        XCTAssertLessThan(small.statistics.cachedDrawnParagraphs, 100)
    }

    func testManySizesDoNotEvictShapedText() {
        // More sizes than the font cache holds: each paragraph is shaped once, and measuring
        // them all again at other widths shapes nothing (a cached paragraph needs no font).
        let sizes = (0..<300).map { 8 + Double($0) / 8 }
        let fonts = TextEngine(catalog: engine.catalog, fontCacheBytes: 1 << 20)
        for width in [200.0, 320, 480] {
            for (i, size) in sizes.enumerated() {
                let t = text("Row \(i): the quick brown fox jumps over the lazy dog", size: size)
                XCTAssertEqual(fonts.lines(of: t, width: width), engine.lines(of: t, width: width))
            }
        }
        let held = fonts.statistics
        XCTAssertEqual(held.paragraphsShaped, 300, "one shaping per paragraph and size")
        XCTAssertEqual(held.fontsMade, 300, "one font per size; line heights outlive the fonts")
        XCTAssertLessThanOrEqual(held.fontCacheBytes, 1 << 20)
        XCTAssertLessThan(held.cachedFonts, 300)
        XCTAssertEqual(held.cachedParagraphs, 300)
    }

    func testUnknownFamiliesAreNamed() {
        let why = engine.unavailable(FontRequest(family: "Helvetica", size: 12))
        XCTAssertNotNil(why)
        XCTAssertTrue(why!.contains("\"Inter\"") && why!.contains("\"DejaVu\""), why!)
        XCTAssertNil(engine.unavailable(FontRequest(family: "inter", size: 12)))
    }

    // MARK: In the measuring model

    func testTextInTheTreeWithClamps() throws {
        let m = FlexMeasurer(text: engine)
        let t = text("lorem ipsum dolor sit amet")
        let lineHeight = 20.0
        let one = width("lorem ipsum dolor sit amet")
        XCTAssertEqual(m.length(of: .text(t), along: .vertical, crossExtent: 1000), lineHeight)
        XCTAssertEqual(m.length(of: .text(t), along: .horizontal, crossExtent: 50), one, "no wrapping across: the widest line")
        // maxWidth makes it wrap at 60 even in a 1000 wide row; minHeight and maxHeight clamp its length.
        let narrow = ContentDescription(.text(t), maxWidth: 60)
        let lines = engine.lines(of: t, width: 60).widths.count
        XCTAssertGreaterThan(lines, 2)
        XCTAssertEqual(m.length(of: narrow, along: .vertical, crossExtent: 1000), Double(lines) * lineHeight)
        XCTAssertEqual(m.length(of: ContentDescription(.text(t), minHeight: 50), along: .vertical, crossExtent: 1000), 50)
        XCTAssertEqual(m.length(of: ContentDescription(.text(t), maxHeight: 10), along: .vertical, crossExtent: 1000), 10)
        // Frames: one box per line, centred lines start at half the room left.
        var centred = t
        centred.alignment = .center
        let frame = m.frames(of: .stack(.vertical, padding: EdgeInsets(top: 5, left: 10), [.text(centred)]), along: .vertical, crossExtent: 110)
        let node = frame.children[0]
        XCTAssertEqual(node.frame, Rect(x: 10, y: 5, width: 100, height: Double(node.lines.count) * lineHeight))
        for (i, line) in node.lines.enumerated() {
            XCTAssertEqual(line.minY, 5 + Double(i) * lineHeight)
            XCTAssertEqual(line.minX, 10 + ((100 - line.size.width) * 32).rounded(.towardZero) / 64)
        }
        // A line wider than its node starts at the node's left, whatever the alignment.
        let overflowing = m.frames(of: .text(TextContent("Supercalifragilistic", font: t.font, alignment: .end)), along: .vertical, crossExtent: 30)
        XCTAssertEqual(overflowing.lines.map(\.minX), [0])
        // A text node in a row shares the width like any flexible child.
        let row = m.frames(of: .stack(.horizontal, [.text(t), .box(width: 40, height: 10)]), along: .vertical, crossExtent: 100)
        XCTAssertEqual(row.children[0].frame.size.width, 60)
        XCTAssertEqual(row.children[0].frame.size.height, Double(engine.lines(of: t, width: 60).widths.count) * lineHeight)
    }

    func testCheckRefusesUnknownFamiliesAtTheirField() {
        let m = FlexMeasurer(text: engine)
        let tree = ContentDescription.stack(.vertical, [.box(height: 1), .text(text("x", "Comic Sans"))])
        XCTAssertThrowsError(try m.check(tree, field: "rows[0].content")) { error in
            XCTAssertEqual((error as? StackError)?.field, "rows[0].content.children[1].font.family")
        }
        XCTAssertThrowsError(try FlexMeasurer().check(.text(text("x")), field: "content"), "no text engine, no text")
        XCTAssertNoThrow(try m.check(tree.replacingText(), field: "content"))
    }
}

private extension ContentDescription {
    /// The same tree with every text node in Inter.
    func replacingText() -> ContentDescription {
        switch kind {
        case .text(var t):
            t.font.family = "Inter"
            return ContentDescription(.text(t))
        case .stack(let axis, let spacing, let padding, let children):
            return .stack(axis, spacing: spacing, padding: padding, children.map { $0.replacingText() })
        default:
            return self
        }
    }
}
