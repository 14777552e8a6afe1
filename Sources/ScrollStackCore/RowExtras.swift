/// The parts of a row most rows leave at their defaults, boxed so that a row without any of
/// them costs one nil reference in `RowStore`.
final class RowExtras: Sendable {
    let contentDescription: ContentDescription?
    let insets: EdgeInsets?
    let separator: SeparatorOverride
    let tappable: Bool
    let highlightable: Bool
    let title: RowTitle?
    let transition: RowTransition?
    let style: RowStyle?
    let stack: String?

    /// The extras of `row`, or nil when every one of them is at its default.
    init?(_ row: Row) {
        if row.contentDescription == nil, row.insets == nil, row.separator == .none, !row.tappable, !row.highlightable,
           row.title == nil, row.transition == nil, row.style == nil, row.stack == nil {
            return nil
        }
        contentDescription = row.contentDescription
        insets = row.insets
        separator = row.separator
        tappable = row.tappable
        highlightable = row.highlightable
        title = row.title
        transition = row.transition
        style = row.style
        stack = row.stack
    }
}
