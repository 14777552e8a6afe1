/// Where a content node sits inside a fit row, and where its children (or, for text, its
/// line boxes) sit: the tree mirrors the content description, node for node.
public struct ContentFrame: Sendable, Hashable {
    /// The node's border box, in the coordinates the frames were asked in.
    public var frame: Rect
    /// The frames of a group's children, in order; empty for other nodes.
    public var children: [ContentFrame]
    /// The box of each shown text line, in order; empty for other nodes.
    public var lines: [Rect]

    public init(frame: Rect, children: [ContentFrame] = [], lines: [Rect] = []) {
        self.frame = frame
        self.children = children
        self.lines = lines
    }

    /// The same tree moved by `dx`, `dy`. O(nodes + lines).
    public func offsetBy(dx: Double, dy: Double) -> ContentFrame {
        func move(_ r: Rect) -> Rect { Rect(x: r.origin.x + dx, y: r.origin.y + dy, width: r.size.width, height: r.size.height) }
        return ContentFrame(frame: move(frame), children: children.map { $0.offsetBy(dx: dx, dy: dy) }, lines: lines.map(move))
    }
}
