import ScrollStackCore

/// What a stack looked like just before a change, as much as a plan needs: the visible rows'
/// layouts and those of the rows the change names (its targets).
///
/// With targets (`derived` mode) it costs O(log n + visible + targets·log n) and the layouts
/// of rows that later slide into view are derived from the change. Without targets (changes
/// of stack settings, reverts, operations that name no rows) it keeps the whole stack, which
/// is O(1) until the change writes the rows (copy on write): a change that relays out every
/// row costs O(n) anyway.
public struct TransitionCapture: Sendable {
    let settings: StackSettings
    let contentSize: Size
    /// Layouts by id: the visible rows and the targets.
    let layouts: [String: RowLayout]
    /// The captured rows themselves (hidden state, looks).
    let rows: [String: Row]
    /// The rows the change names, in the order given; nil in snapshot mode.
    let targets: [String]?
    let snapshot: ScrollStack?
    let lastShown: String?
    let visible: [String]

    /// Captures `stack` before a change to `targets` (ids), or the whole stack when nil.
    public init(_ stack: ScrollStack, targets: [String]?) {
        settings = stack.settings
        contentSize = stack.contentSize
        var layouts: [String: RowLayout] = [:]
        var rows: [String: Row] = [:]
        let window = stack.visibleLayout().rows
        for layout in window {
            layouts[layout.id] = layout
            rows[layout.id] = stack.row(at: layout.index)
        }
        visible = window.map(\.id)
        lastShown = stack.lastShownRowID
        if let targets {
            for id in targets + (lastShown.map { [$0] } ?? []) where layouts[id] == nil {
                guard let layout = try? stack.layout(of: .id(id)) else { continue }
                layouts[id] = layout
                rows[id] = stack.row(at: layout.index)
            }
            snapshot = nil
        } else {
            snapshot = stack
        }
        self.targets = targets
        self.layouts = layouts
        self.rows = rows
    }

    /// The layout and row `id` had before the change, if it was captured (or is in the snapshot).
    func before(_ id: String) -> (layout: RowLayout, row: Row)? {
        if let layout = layouts[id], let row = rows[id] { return (layout, row) }
        guard let snapshot, let layout = try? snapshot.layout(of: .id(id)) else { return nil }
        return (layout, snapshot.row(at: layout.index))
    }
}
