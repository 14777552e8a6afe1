/// Where a content node sits inside a fit row, and where its children (or, for text, its
/// line boxes) sit: the tree mirrors the content description, node for node.
public struct ContentFrame: Sendable, Hashable {
    /// The node's border box, in the coordinates the frames were asked in.
    public var frame: Rect
    /// The frames of a group's children, in order; empty for other nodes.
    public var children: [ContentFrame]
    /// The box of each shown text line, in order; empty for other nodes.
    public var lines: [Rect]
    /// The characters of each shown line (parallel to `lines`), when the text engine tells them.
    public var ranges: [TextRange]
    /// Whether `maxLines` hid lines of this text.
    public var truncated: Bool
    /// The box of the ellipsis ending the last shown line, when there is one.
    public var ellipsis: Rect?
    /// The characters of this text its font has no glyph for (`TextLines.missingGlyphs`).
    public var missingGlyphs: [String]

    public init(frame: Rect, children: [ContentFrame] = [], lines: [Rect] = [], ranges: [TextRange] = [], truncated: Bool = false,
                ellipsis: Rect? = nil, missingGlyphs: [String] = []) {
        self.frame = frame
        self.children = children
        self.lines = lines
        self.ranges = ranges
        self.truncated = truncated
        self.ellipsis = ellipsis
        self.missingGlyphs = missingGlyphs
    }

    /// The same tree moved by `dx`, `dy`. O(nodes + lines).
    public func offsetBy(dx: Double, dy: Double) -> ContentFrame {
        func move(_ r: Rect) -> Rect { Rect(x: r.origin.x + dx, y: r.origin.y + dy, width: r.size.width, height: r.size.height) }
        return ContentFrame(frame: move(frame), children: children.map { $0.offsetBy(dx: dx, dy: dy) }, lines: lines.map(move),
                            ranges: ranges, truncated: truncated, ellipsis: ellipsis.map(move), missingGlyphs: missingGlyphs)
    }
}
