import ScrollStackCore

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
