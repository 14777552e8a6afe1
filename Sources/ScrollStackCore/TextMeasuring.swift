/// Breaks text into lines with real fonts; `FlexMeasurer` asks it for every text node.
/// Implementations must be pure (same input, same answer) and safe to call from any thread.
public protocol TextMeasuring: Sendable {
    /// The lines of `text` when it wraps at `width` (nil: it never wraps; only `\n` breaks),
    /// already cut to `maxLines`.
    func lines(of text: TextContent, width: Double?) -> TextLines

    /// `lines(of:width:)` with what drawing the lines needs besides: the characters of each
    /// line (`TextLines.ranges`), whether `maxLines` cut the text, and the tail ellipsis when
    /// the text asks for one. Implementations that cannot tell the ranges answer `lines`.
    func drawableLines(of text: TextContent, width: Double?) -> TextLines

    /// Why `font` cannot be measured (e.g. an unknown family, listing the known ones), or nil.
    func unavailable(_ font: FontRequest) -> String?

    /// How many texts the engine can measure at once; `prepare` is worth calling only when
    /// this is more than 1.
    var parallelism: Int { get }

    /// A hint that `texts` are about to be measured: the engine may do the work ahead, on
    /// several threads. It never changes what measuring answers.
    func prepare(_ texts: [TextContent])
}

extension TextMeasuring {
    public func drawableLines(of text: TextContent, width: Double?) -> TextLines { lines(of: text, width: width) }

    /// An engine that measures one text at a time.
    public var parallelism: Int { 1 }

    /// Nothing to do ahead for an engine that measures one text at a time.
    public func prepare(_ texts: [TextContent]) {}
}

/// The characters of one line: half-open ranges into the node's `text` as given, in UTF-16
/// code units and in Unicode scalars. From the line's first character to the end of its
/// last one, spaces that hang at its end left out (runs of spaces inside stay as given; they
/// draw as one space, `white-space: pre-line`). An empty line is an empty range where it is.
public struct TextRange: Sendable, Hashable {
    public var utf16: Range<Int>
    public var scalars: Range<Int>

    public init(utf16: Range<Int>, scalars: Range<Int>) {
        self.utf16 = utf16
        self.scalars = scalars
    }
}

/// The ellipsis ending a cut text's last shown line: where it starts after the line's start
/// (the width of the text kept before it) and its width, in layout units.
public struct TextEllipsis: Sendable, Hashable {
    public var offset: Double
    public var width: Double

    public init(offset: Double, width: Double) {
        self.offset = offset
        self.width = width
    }
}

/// What a text node measures to.
public struct TextLines: Sendable, Hashable {
    /// Every line's height, in layout units, unless `lineHeights` says otherwise.
    public var lineHeight: Double
    /// Each shown line's height where some differ from `lineHeight` (a text of normal line
    /// height whose lines use fallback fonts of other heights); empty when every line is
    /// `lineHeight` tall.
    public var lineHeights: [Double]
    /// Each shown line's advance width, in layout units, trailing spaces excluded.
    public var widths: [Double]
    /// The widest line, counting the lines `maxLines` cut too (as CSS line clamping does not
    /// change a box's intrinsic width); 0 without lines.
    public var widestLine: Double

    /// Each shown line's characters, for `drawableLines` (empty from `lines`).
    public var ranges: [TextRange]
    /// Whether `maxLines` hid lines.
    public var truncated: Bool
    /// The last shown line's ellipsis, when the text is cut and asks for one; that line's
    /// width then counts it.
    public var ellipsis: TextEllipsis?
    /// For `drawableLines`: the characters the font has no glyph for (drawn as `.notdef`
    /// boxes), each once, in the order they first appear; empty from `lines`.
    public var missingGlyphs: [String]

    public init(lineHeight: Double, widths: [Double], widestLine: Double? = nil, ranges: [TextRange] = [], truncated: Bool = false,
                ellipsis: TextEllipsis? = nil, missingGlyphs: [String] = [], lineHeights: [Double] = []) {
        self.lineHeight = lineHeight
        self.lineHeights = lineHeights.count == widths.count && lineHeights.contains(where: { $0 != lineHeight }) ? lineHeights : []
        self.widths = widths
        self.widestLine = widestLine ?? widths.max() ?? 0
        self.ranges = ranges
        self.truncated = truncated
        self.ellipsis = ellipsis
        self.missingGlyphs = missingGlyphs
    }

    /// The height of shown line `i`. O(1).
    public func height(ofLine i: Int) -> Double { lineHeights.isEmpty ? lineHeight : lineHeights[i] }

    /// The shown lines' heights added up. O(lines) when they differ, O(1) otherwise.
    public var height: Double { lineHeights.isEmpty ? lineHeight * Double(widths.count) : lineHeights.reduce(0, +) }
}
