import ScrollStackCore

/// One face of a font file: what CSS font matching looks at.
public struct FontFace: Sendable, Hashable {
    /// The font file, and the face's index in it (collections hold several).
    public var path: String
    public var index: Int
    /// The family name as the font gives it (FreeType's `family_name`).
    public var family: String
    /// OS/2 `usWeightClass` (400 when the font has no OS/2 table).
    public var weight: Int
    /// Italic when FreeType flags the face italic (oblique faces included).
    public var style: FontRequest.Style
    /// OS/2 `usWidthClass`, 1…9 (5 is normal).
    public var widthClass: Int
}
