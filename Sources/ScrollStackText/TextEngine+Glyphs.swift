import ScrollStackCore

/// A glyph of a drawn line: its id in the line's face and where its origin sits, from the
/// line's start (x, right) and baseline (y, down), in points.
public struct PositionedGlyph: Sendable, Hashable {
    public var id: UInt32
    public var x: Double
    public var y: Double
}

/// One line of a text node as glyphs to draw: the face and size they are shaped in, what a
/// drawing synthesizes for the face, the baseline's distance below the line box's top, and
/// the glyphs.
public struct GlyphLine: Sendable {
    public var face: FontFace
    public var size: Double
    public var synthesis: FontSynthesis
    public var baseline: Double
    public var glyphs: [PositionedGlyph]
}

extension TextEngine {
    /// The lines `drawableLines(of:width:)` answers, as glyphs: each line the glyphs of its
    /// characters in the paragraph's shaping (so kerning and ligatures are as measured), the
    /// first at x 0, and the ellipsis of a cut line shaped alone after its kept text. The
    /// baseline sits half the leading below the top, then the font's ascent (Chromium's
    /// placement of a line's text in its line box). Empty when the font cannot be set up.
    ///
    /// - Complexity: O(n) for n UTF-16 units: each paragraph with a shown line is shaped again.
    public func glyphLines(of text: TextContent, width: Double?) -> [GlyphLine] {
        let paragraphs = Self.mappedParagraphs(text.text)
        return state.withLock { state in
            guard let broken = Self.broken(text, width: width, paragraphs, &state),
                  let font = state.font(broken.font) else { return [] }
            let features = Shaper.features(letterSpacing: text.letterSpacing)
            let baseline = ((broken.lineHeight - font.ascent - font.descent) / 2).rounded(.down) + font.ascent
            var shapedParagraph: (index: Int, glyphs: [Shaper.Glyph], pens: [Double])?
            var out: [GlyphLine] = []
            for (number, line) in broken.lines.enumerated() {
                if shapedParagraph?.index != line.paragraph {
                    let glyphs = Shaper.shapeGlyphs(Array(paragraphs[line.paragraph].text.utf16), font: font, features: features,
                                                    letterSpacing: text.letterSpacing)
                    var pens: [Double] = []
                    var pen = 0.0
                    for glyph in glyphs {
                        pens.append(pen)
                        pen += glyph.advance
                    }
                    shapedParagraph = (line.paragraph, glyphs, pens)
                }
                guard let (_, glyphs, pens) = shapedParagraph else { continue }
                var placed: [PositionedGlyph] = []
                var start: Double?
                for (k, glyph) in glyphs.enumerated() where glyph.cluster >= line.start && glyph.cluster < line.end {
                    let origin = start ?? pens[k]
                    start = origin
                    placed.append(PositionedGlyph(id: glyph.id, x: pens[k] - origin + glyph.dx, y: -glyph.dy))
                }
                if number == broken.lines.count - 1, let ellipsis = broken.ellipsis {
                    for glyph in Shaper.shapeGlyphs([0x2026], font: font, features: [], letterSpacing: 0) {
                        placed.append(PositionedGlyph(id: glyph.id, x: ellipsis.offset + glyph.dx, y: -glyph.dy))
                    }
                }
                out.append(GlyphLine(face: broken.font.face, size: broken.font.size, synthesis: FontSynthesis(request: text.font, face: broken.font.face),
                                     baseline: baseline, glyphs: placed))
            }
            return out
        }
    }
}
