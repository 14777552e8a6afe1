/// Everything about a stack except its rows.
public struct StackSettings: Sendable, Hashable {
    public var axis: Axis
    /// The visible size of the scroll view; rows span its cross extent.
    public var viewport: Size
    /// Extra scrollable room before and after the content (UIKit's `contentInset`): it widens
    /// the range scrolling is clamped to, and never moves rows or shrinks the viewport.
    public var contentInsets: EdgeInsets
    /// The content offset: the viewport's origin in content coordinates.
    public var offset: Point
    /// Space between two consecutive shown rows; never next to a hidden row.
    public var spacing: Double
    /// Insets of every row that does not set its own.
    public var rowInsets: EdgeInsets
    /// The separator of every row, field by field, unless the row overrides that field.
    public var separator: SeparatorStyle
    /// Whether the last shown row draws no separator.
    public var autoHideLastRowSeparator: Bool
    /// Paging (off when nil); see `PagingSettings`.
    public var paging: PagingSettings? = nil
    /// The page indicator (off when nil); needs `paging`.
    public var pageIndicator: PageIndicatorSettings? = nil
    /// The paging menu (off when nil); needs `paging`. A horizontal strip on either axis.
    public var menu: MenuSettings? = nil
    /// The content's length across the scroll axis, which every row spans (a grid's width
    /// for a vertical stack); nil: the viewport's, so that nothing scrolls across. Longer
    /// than the viewport, the stack scrolls, and with `paging` pages, along both axes.
    public var crossLength: Double? = nil

    /// The rows' extent across the scroll axis: `crossLength`, else the viewport's. O(1).
    @inlinable public var crossExtent: Double { crossLength ?? viewport[axis.cross] }

    /// The default stack: vertical, 375×667, no content insets, offset zero, spacing 0,
    /// row insets (12, 16, 12, 16), the standard separator, last separator hidden.
    public init(
        axis: Axis = .vertical,
        viewport: Size = Size(width: 375, height: 667),
        contentInsets: EdgeInsets = .zero,
        offset: Point = .zero,
        spacing: Double = 0,
        rowInsets: EdgeInsets = EdgeInsets(top: 12, left: 16, bottom: 12, right: 16),
        separator: SeparatorStyle = .standard,
        autoHideLastRowSeparator: Bool = true
    ) {
        self.axis = axis
        self.viewport = viewport
        self.contentInsets = contentInsets
        self.offset = offset
        self.spacing = spacing
        self.rowInsets = rowInsets
        self.separator = separator
        self.autoHideLastRowSeparator = autoHideLastRowSeparator
    }

    func validate() throws(StackError) {
        try Check.size(viewport, "viewport")
        try Check.insets(contentInsets, "contentInsets")
        try Check.point(offset, "offset")
        try Check.length(spacing, "spacing")
        try Check.insets(rowInsets, "rowInsets")
        try separator.validate("separator")
        try paging?.validate("paging")
        if let crossLength { try Check.length(crossLength, "crossLength") }
        if let pageIndicator {
            guard paging != nil else { throw .invalid("needs paging: set \"paging\" as well", field: "pageIndicator") }
            try pageIndicator.validate("pageIndicator")
        }
        if let menu {
            // Either axis: the menu is a horizontal strip over pages along x or y (Parchment's
            // `contentNavigationOrientation`).
            guard paging != nil else { throw .invalid("needs paging: set \"paging\" as well", field: "menu") }
            try menu.validate("menu")
        }
    }
}

/// A change of stack settings: the fields that are set are applied together, or none is.
public struct SettingsChange: Sendable, Hashable {
    public var axis: Axis?
    public var viewport: Size?
    public var contentInsets: EdgeInsets?
    public var offset: Point?
    public var spacing: Double?
    public var rowInsets: EdgeInsets?
    public var separator: SeparatorStyle?
    public var autoHideLastRowSeparator: Bool?
    /// `.some(nil)` turns paging off.
    public var paging: PagingSettings?? = nil
    /// `.some(nil)` turns the page indicator off.
    public var pageIndicator: PageIndicatorSettings?? = nil
    /// `.some(nil)` turns the menu off.
    public var menu: MenuSettings?? = nil
    /// `.some(nil)` makes the rows span the viewport again.
    public var crossLength: Double?? = nil

    public init(
        axis: Axis? = nil, viewport: Size? = nil, contentInsets: EdgeInsets? = nil, offset: Point? = nil,
        spacing: Double? = nil, rowInsets: EdgeInsets? = nil, separator: SeparatorStyle? = nil,
        autoHideLastRowSeparator: Bool? = nil
    ) {
        self.axis = axis
        self.viewport = viewport
        self.contentInsets = contentInsets
        self.offset = offset
        self.spacing = spacing
        self.rowInsets = rowInsets
        self.separator = separator
        self.autoHideLastRowSeparator = autoHideLastRowSeparator
    }

    /// `settings` with this change applied.
    func applied(to settings: StackSettings) -> StackSettings {
        var s = settings
        if let axis { s.axis = axis }
        if let viewport { s.viewport = viewport }
        if let contentInsets { s.contentInsets = contentInsets }
        if let offset { s.offset = offset }
        if let spacing { s.spacing = spacing }
        if let rowInsets { s.rowInsets = rowInsets }
        if let separator { s.separator = separator }
        if let autoHideLastRowSeparator { s.autoHideLastRowSeparator = autoHideLastRowSeparator }
        if let paging { s.paging = paging }
        if let pageIndicator { s.pageIndicator = pageIndicator }
        if let menu { s.menu = menu }
        if let crossLength { s.crossLength = crossLength }
        return s
    }
}

/// A change of one row's own settings: each field that is set replaces the row's value.
public struct RowChange: Sendable, Hashable {
    public var hidden: Bool?
    /// `.some(nil)` clears the row's insets so it follows the stack default again.
    public var insets: EdgeInsets??
    /// Replaces the row's whole separator override (`.none` clears it).
    public var separator: SeparatorOverride?
    public var size: SizeRule?
    /// `.some(nil)` removes the content description.
    public var contentDescription: ContentDescription??
    public var content: RowContent?
    public var tappable: Bool?
    public var highlightable: Bool?
    /// `.some(nil)` removes the row's title.
    public var title: RowTitle?? = nil
    /// `.some(nil)` removes the row's own transition looks.
    public var transition: RowTransition??
    /// `.some(nil)` removes the row's style.
    public var style: RowStyle?? = nil
    /// `.some(nil)` makes the row embed no stack.
    public var stack: String?? = nil

    public init(
        hidden: Bool? = nil, insets: EdgeInsets?? = nil, separator: SeparatorOverride? = nil, size: SizeRule? = nil,
        contentDescription: ContentDescription?? = nil, content: RowContent? = nil, tappable: Bool? = nil,
        highlightable: Bool? = nil, transition: RowTransition?? = nil
    ) {
        self.hidden = hidden
        self.insets = insets
        self.separator = separator
        self.size = size
        self.contentDescription = contentDescription
        self.content = content
        self.tappable = tappable
        self.highlightable = highlightable
        self.transition = transition
    }

    func applied(to row: Row) -> Row {
        var r = row
        if let hidden { r.hidden = hidden }
        if let insets { r.insets = insets }
        if let separator { r.separator = separator }
        if let size { r.size = size }
        if let contentDescription { r.contentDescription = contentDescription }
        if let content { r.content = content }
        if let tappable { r.tappable = tappable }
        if let highlightable { r.highlightable = highlightable }
        if let title { r.title = title }
        if let transition { r.transition = transition }
        if let style { r.style = style }
        if let stack { r.stack = stack }
        return r
    }
}
