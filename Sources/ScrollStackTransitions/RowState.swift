import ScrollStackCore

/// One end of a row's transition: where the row is and how it looks.
public struct RowState: Sendable, Hashable {
    /// The row's index in the stack at that end; nil at the end of an exit (it has left).
    public var index: Int?
    public var frame: Rect
    public var contentFrame: Rect
    public var separatorFrame: Rect?
    public var alpha: Double
    public var hidden: Bool
    /// Translation and uniform scale (about the frame's centre), from the row's own look.
    public var translate: Point
    public var scale: Double

    public init(index: Int?, frame: Rect, contentFrame: Rect, separatorFrame: Rect?, alpha: Double, hidden: Bool,
                translate: Point = .zero, scale: Double = 1) {
        self.index = index
        self.frame = frame
        self.contentFrame = contentFrame
        self.separatorFrame = separatorFrame
        self.alpha = alpha
        self.hidden = hidden
        self.translate = translate
        self.scale = scale
    }

    /// The state of a laid-out row drawn with `look`.
    init(_ layout: RowLayout, hidden: Bool, look: RowLook) {
        self.init(index: layout.index, frame: layout.frame, contentFrame: layout.contentFrame, separatorFrame: layout.separatorFrame,
                  alpha: look.alpha, hidden: hidden, translate: look.translate, scale: look.scale)
    }

    /// Whether two states look the same on screen (the index is not drawn).
    func looksLike(_ other: RowState) -> Bool {
        frame == other.frame && contentFrame == other.contentFrame && separatorFrame == other.separatorFrame
            && alpha == other.alpha && hidden == other.hidden && translate == other.translate && scale == other.scale
    }
}
