/// Breaks text into lines with real fonts; `FlexMeasurer` asks it for every text node.
/// Implementations must be pure (same input, same answer) and safe to call from any thread.
public protocol TextMeasuring: Sendable {
    /// The lines of `text` when it wraps at `width` (nil: it never wraps; only `\n` breaks),
    /// already cut to `maxLines`.
    func lines(of text: TextContent, width: Double?) -> TextLines

    /// Why `font` cannot be measured (e.g. an unknown family, listing the known ones), or nil.
    func unavailable(_ font: FontRequest) -> String?
}

/// What a text node measures to.
public struct TextLines: Sendable, Hashable {
    /// Every line's height, in layout units.
    public var lineHeight: Double
    /// Each shown line's advance width, in layout units, trailing spaces excluded.
    public var widths: [Double]
    /// The widest line, counting the lines `maxLines` cut too (as CSS line clamping does not
    /// change a box's intrinsic width); 0 without lines.
    public var widestLine: Double

    public init(lineHeight: Double, widths: [Double], widestLine: Double? = nil) {
        self.lineHeight = lineHeight
        self.widths = widths
        self.widestLine = widestLine ?? widths.max() ?? 0
    }

    /// shown lines × line height.
    public var height: Double { lineHeight * Double(widths.count) }
}
