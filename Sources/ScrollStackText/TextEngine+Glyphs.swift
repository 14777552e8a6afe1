import ScrollStackCore

/// A glyph of a drawn line: its id in the line's face and where its origin sits, from the
/// line's start (x, right) and baseline (y, down), in points.
public struct PositionedGlyph: Sendable, Hashable {
    public var id: UInt32
    public var x: Double
    public var y: Double
}

/// One line of a text node as glyphs to draw: the baseline's distance below the line box's
/// top, and the glyphs in runs of one face each (the text's own, and the fallback faces that
/// drew what it lacks), in order along the line.
public struct GlyphLine: Sendable {
    public var baseline: Double
    public var runs: [Run]

    /// Glyphs of one face at one size, with what a drawing synthesizes for the face.
    public struct Run: Sendable {
        public var face: FontFace
        public var size: Double
        public var synthesis: FontSynthesis
        public var glyphs: [PositionedGlyph]
    }

    /// The glyphs of every run. O(glyphs).
    public var glyphCount: Int { runs.reduce(0) { $0 + $1.glyphs.count } }
}

extension TextEngine {
    /// The lines `drawableLines(of:width:)` answers, as glyphs: each line the glyphs of its
    /// characters in the paragraph's shaping (so kerning and ligatures are as measured, and
    /// characters its font lacks in the fallback faces they were measured in), the first at
    /// x 0, and the ellipsis of a cut line shaped alone after its kept text. The baseline
    /// sits half the leading below the top, then the font's ascent (Chromium's placement of
    /// a line's text in its line box; with fallback fonts on a line of normal line height,
    /// the largest of theirs). Empty when the font cannot be set up.
    ///
    /// - Complexity: O(n) for n UTF-16 units: each paragraph with a shown line is shaped again
    ///   unless its glyphs are in the engine's glyph cache.
    public func glyphLines(of text: TextContent, width: Double?) -> [GlyphLine] {
        let paragraphs = Self.mappedParagraphs(text.text)
        return shard(for: text.text).state.withLock { state in
            guard let broken = Self.broken(text, width: width, paragraphs, &state) else { return [] }
            let fallbacks = state.catalog.fallbackFaces
            func face(_ k: Int) -> FontFace { k == 0 ? broken.font.face : fallbacks[k - 1].face }
            var shapedParagraph: (index: Int, drawn: DrawnParagraph, pens: [Double])?
            var out: [GlyphLine] = []
            for (number, line) in broken.lines.enumerated() {
                if shapedParagraph?.index != line.paragraph {
                    let key = GlyphKey(text: paragraphs[line.paragraph].text, font: broken.font, letterSpacing: text.letterSpacing,
                                       context: broken.contexts[line.paragraph])
                    guard let drawn = state.drawnParagraph(key) else { return [] }
                    var pens: [Double] = []
                    pens.reserveCapacity(drawn.glyphs.count)
                    var pen = 0.0
                    for glyph in drawn.glyphs {
                        pens.append(pen)
                        pen += glyph.advance
                    }
                    shapedParagraph = (line.paragraph, drawn, pens)
                }
                guard let (_, drawn, pens) = shapedParagraph else { continue }
                let glyphs = drawn.glyphs
                var runs: [GlyphLine.Run] = []
                var runFont = -1
                func place(_ glyph: Shaper.Glyph, x: Double) {
                    if glyph.font != runFont || runs.isEmpty {
                        let f = face(glyph.font)
                        runs.append(GlyphLine.Run(face: f, size: broken.font.size, synthesis: FontSynthesis(request: text.font, face: f), glyphs: []))
                        runFont = glyph.font
                    }
                    runs[runs.count - 1].glyphs.append(PositionedGlyph(id: glyph.id, x: x + glyph.dx, y: -glyph.dy))
                }
                if let levels = drawn.levels {
                    // In visual order: the line's glyphs by their characters' levels, white
                    // space at the line's end back at the paragraph's (rules L1 and L2).
                    let shown = glyphs.indices.filter { glyphs[$0].cluster >= line.start && glyphs[$0].cluster < line.end }
                    var lineLevels = shown.map { levels[glyphs[$0].cluster] }
                    var k = shown.count - 1
                    while k >= 0, Bidi.isTrailingWhitespace(drawn.units[glyphs[shown[k]].cluster]) {
                        lineLevels[k] = 0
                        k -= 1
                    }
                    var x = 0.0
                    for k in Bidi.visualOrder(lineLevels) {
                        place(glyphs[shown[k]], x: x)
                        x += glyphs[shown[k]].advance
                    }
                } else {
                    var start: Double?
                    for (k, glyph) in glyphs.enumerated() where glyph.cluster >= line.start && glyph.cluster < line.end {
                        let origin = start ?? pens[k]
                        start = origin
                        place(glyph, x: pens[k] - origin)
                    }
                }
                if number == broken.lines.count - 1, let ellipsis = broken.ellipsis {
                    let shaped = state.withChain(broken.font) { chain in
                        Shaper.shapeGlyphs([0x2026], chain: chain, context: ParagraphContext(), features: [], letterSpacing: 0).glyphs
                    }
                    for glyph in shaped ?? [] { place(glyph, x: ellipsis.offset) }
                }
                if runs.isEmpty {
                    runs.append(GlyphLine.Run(face: broken.font.face, size: broken.font.size,
                                              synthesis: FontSynthesis(request: text.font, face: broken.font.face), glyphs: []))
                }
                out.append(GlyphLine(baseline: line.baseline, runs: runs))
            }
            return out
        }
    }
}

/// A paragraph shaped for drawing: its glyphs in logical order, and its units' bidi levels
/// (nil when it is all left to right) with its units, to put each line in visual order.
struct DrawnParagraph {
    var glyphs: [Shaper.Glyph]
    var levels: [UInt8]?
    var units: [UInt16]
}

extension TextEngine.State {
    /// The paragraph `key` names, shaped for drawing (`Shaper.shapeGlyphs`), from the glyph
    /// cache or shaped now (and kept while it fits in its bytes). Nil when the font cannot be
    /// set up. O(1) besides hashing when cached; otherwise shaping, about O(n).
    mutating func drawnParagraph(_ key: GlyphKey) -> DrawnParagraph? {
        if let known = glyphs.value(for: key) { return known }
        let units = Array(key.text.utf16)
        guard let (shaped, _, levels) = withChain(key.font, { chain in
            Shaper.shapeGlyphs(units, chain: chain, context: key.context, features: Shaper.features(letterSpacing: key.letterSpacing),
                               letterSpacing: key.letterSpacing)
        }) else { return nil }
        let drawn = DrawnParagraph(glyphs: shaped, levels: levels, units: levels == nil ? [] : units)
        paragraphsShapedForDrawing += 1
        glyphs.insert(drawn, for: key, bytes: shaped.count * MemoryLayout<Shaper.Glyph>.stride + 3 * drawn.units.count
                          + key.text.utf8.count + TextEngine.entryOverhead)
        return drawn
    }
}
