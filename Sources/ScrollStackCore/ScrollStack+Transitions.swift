extension ScrollStack {
    /// The id of the last row that is not hidden (the one `autoHideLastRowSeparator` spares a
    /// line), or nil when every row is hidden. O(log n).
    public var lastShownRowID: String? { tree.lastShown().map { tree.row($0).id } }

    /// The separator style in force for `row`: the stack's, with the row's overrides applied.
    public func separatorStyle(of row: Row) -> SeparatorStyle { settings.separator.applying(row.separator) }
}
