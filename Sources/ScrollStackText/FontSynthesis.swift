import ScrollStackCore

/// What a drawing adds to a face that lacks the weight or style the text asks for, as
/// Chromium does by default (`font-synthesis: weight style`): a bold outline when the text
/// asks for 600 or more and the face matching picked is lighter than 600, and a slant when
/// the text asks for italic or oblique and the face is upright. Neither changes an advance,
/// so text measures the same with or without it (checked against Chromium).
public struct FontSynthesis: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The outline made bolder by ppem / 24 (FreeType's `FT_GlyphSlot_Embolden`, the
    /// strength Skia's fake bold uses too).
    public static let bold = FontSynthesis(rawValue: 1)
    /// The glyphs slanted by Skia's fake-italic skew: x' = x − y / 4 (y down, about the
    /// glyph's baseline origin).
    public static let oblique = FontSynthesis(rawValue: 2)

    /// The skew of `oblique`: the shift right per point above the baseline.
    public static let obliqueSkew = 0.25

    /// What a drawing of `request` in `face` (the face `FontCatalog.match` picked for it)
    /// synthesizes. O(1).
    public init(request: FontRequest, face: FontFace) {
        var synthesis: FontSynthesis = []
        if request.weight >= 600 && face.weight < 600 { synthesis.insert(.bold) }
        if request.style != .normal && face.style == .normal { synthesis.insert(.oblique) }
        self = synthesis
    }
}
