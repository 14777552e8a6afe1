/// A row's entry in a paging menu: its title and, optionally, the item's widths.
public struct RowTitle: Sendable, Hashable {
    /// The label's text.
    public var text: String?
    /// The item's width, overriding the menu's item size (Parchment's `widthForPagingItem`
    /// with `isSelected` false). Required for a titled row while the menu sizes items to
    /// their titles and no title measurer exists.
    public var width: Double?
    /// The item's width while selected (`isSelected` true); its normal width when nil.
    public var selectedWidth: Double?

    public init(text: String? = nil, width: Double? = nil, selectedWidth: Double? = nil) {
        self.text = text
        self.width = width
        self.selectedWidth = selectedWidth
    }

    func validate(_ field: String) throws(StackError) {
        if let width { try Check.length(width, field + ".width") }
        if let selectedWidth { try Check.length(selectedWidth, field + ".selectedWidth") }
    }
}
