import ScrollStackCore

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
