/// Where a row sits and how much of it shows.
public struct RowLayout: Sendable, Hashable {
    public var id: String
    public var index: Int
    /// The row in content coordinates; a hidden row has length 0 along the scroll axis.
    public var frame: Rect
    /// The content inside the row's insets.
    public var contentFrame: Rect
    /// The separator line, or nil when the row draws none.
    public var separatorFrame: Rect?
    public var visibility: Visibility
}

/// The layout of a whole stack at one offset.
public struct StackLayout: Sendable, Hashable {
    public var axis: Axis
    public var viewport: Size
    public var offset: Point
    public var contentSize: Size
    /// Every row in order, or only the visible ones for a window query.
    public var rows: [RowLayout]

    /// Ids of rows that are partial or entire, in order.
    public var visibleRows: [String] { rows.filter { $0.visibility.isVisible }.map(\.id) }
    /// Ids of rows that are entire, in order.
    public var entirelyVisibleRows: [String] { rows.filter { $0.visibility == .entire }.map(\.id) }
}
