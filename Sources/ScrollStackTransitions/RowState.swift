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

/// What happens to one row in a transition.
public struct RowTransitionEntry: Sendable, Hashable {
    /// Why the row moves: the operation's own change to it, or `slide` when it only makes
    /// way for others (`layout` when stack settings changed).
    public enum Change: String, Sendable, CaseIterable {
        case insert, remove, hide, show, move, replace, update, slide, layout
    }

    public var id: String
    public var change: Change
    /// The row appears during the transition (it is drawn from the start, at `from`).
    public var enter: Bool
    /// The row leaves: drawn until the end, then gone.
    public var exit: Bool
    public var from: RowState
    public var to: RowState

    public init(id: String, change: Change, enter: Bool = false, exit: Bool = false, from: RowState, to: RowState) {
        self.id = id
        self.change = change
        self.enter = enter
        self.exit = exit
        self.from = from
        self.to = to
    }
}

/// How a stack goes from one revision to the next: every row that changes and is visible at
/// either end or is named by the change, the content size and offset at both ends, and the
/// timing. Rows that do not change are not in it; nor are rows that are offscreen at both
/// ends and only slide (nobody sees them move).
public struct TransitionPlan: Sendable, Hashable {
    /// Whether the request asked for animation (a plan is kept for every change anyway).
    public var animated: Bool
    public var timing: AnimationTiming
    public var axis: (from: Axis, to: Axis)
    public var viewport: (from: Size, to: Size)
    public var contentSize: (from: Size, to: Size)
    public var offset: (from: Point, to: Point)
    /// Rows still in the stack by final index, then the rows that leave by former index.
    public var rows: [RowTransitionEntry]

    public init(animated: Bool, timing: AnimationTiming, axis: (from: Axis, to: Axis), viewport: (from: Size, to: Size),
                contentSize: (from: Size, to: Size), offset: (from: Point, to: Point), rows: [RowTransitionEntry]) {
        self.animated = animated
        self.timing = timing
        self.axis = axis
        self.viewport = viewport
        self.contentSize = contentSize
        self.offset = offset
        self.rows = rows
    }

    public static func == (a: TransitionPlan, b: TransitionPlan) -> Bool {
        a.animated == b.animated && a.timing == b.timing && a.axis == b.axis && a.viewport == b.viewport
            && a.contentSize == b.contentSize && a.offset == b.offset && a.rows == b.rows
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(rows) }
}
