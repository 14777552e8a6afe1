/// A run of text measured with a real font: the `text` content node.
public struct TextContent: Sendable, Hashable {
    /// How lines sit inside the node's width.
    public enum Alignment: String, Sendable, Hashable, CaseIterable {
        case start, center, end
    }

    /// The characters; `\n` breaks a line. Spaces and tabs collapse and vanish at line ends
    /// as CSS `white-space: pre-line` has them.
    public var text: String
    public var font: FontRequest
    /// The height of every line; nil for the font's `normal` line height.
    public var lineHeight: Double?
    /// Extra space after every character, in points (may be negative).
    public var letterSpacing: Double
    /// The most lines shown; nil for all.
    public var maxLines: Int?
    public var alignment: Alignment
    /// Whether a text `maxLines` cuts ends its last shown line with "…" (U+2026, measured
    /// with the line's font), as Chromium's `-webkit-line-clamp` draws it: the line is cut
    /// at the last cluster boundary where its text and the ellipsis fit. Never changes the
    /// node's size.
    public var ellipsis: Bool

    public init(_ text: String, font: FontRequest, lineHeight: Double? = nil, letterSpacing: Double = 0, maxLines: Int? = nil,
                alignment: Alignment = .start, ellipsis: Bool = false) {
        self.text = text
        self.font = font
        self.lineHeight = lineHeight
        self.letterSpacing = letterSpacing
        self.maxLines = maxLines
        self.alignment = alignment
        self.ellipsis = ellipsis
    }

    /// Checks every number; `field` is the path of the node. O(1).
    func validate(_ field: String) throws(StackError) {
        try font.validate(field + ".font")
        if let lineHeight { try Check.length(lineHeight, field + ".lineHeight") }
        guard letterSpacing.isFinite, abs(letterSpacing) <= 10_000 else { throw .invalid("must be a finite number within ±10000", field: field + ".letterSpacing") }
        if let maxLines, maxLines < 1 { throw .invalid("must be at least 1", field: field + ".maxLines") }
        guard text.utf8.count <= 100_000 else { throw .invalid("is longer than 100000 bytes", field: field + ".text") }
    }
}

/// The font a text node asks for; the text engine picks the nearest face the way CSS font
/// matching does.
public struct FontRequest: Sendable, Hashable {
    public enum Style: String, Sendable, Hashable, CaseIterable {
        case normal, italic, oblique
    }

    public var family: String
    public var size: Double
    /// 1…1000, 400 normal, 700 bold.
    public var weight: Int
    public var style: Style

    public init(family: String, size: Double, weight: Int = 400, style: Style = .normal) {
        self.family = family
        self.size = size
        self.weight = weight
        self.style = style
    }
}
