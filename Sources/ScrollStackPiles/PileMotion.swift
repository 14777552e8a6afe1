import ScrollStackCore
import ScrollStackTransitions

/// One view's motion in a pile transition.
public struct PileMotion: Sendable, Hashable {
    public enum Role: String, Sendable { case enter, exit }
    public var id: String
    public var role: Role
    /// Whether the view left the pile (pop, set); an exiting view that stays (push) is only
    /// taken off screen.
    public var removed: Bool
    public var from: PileViewState
    public var to: PileViewState

    public init(id: String, role: Role, removed: Bool, from: PileViewState, to: PileViewState) {
        self.id = id
        self.role = role
        self.removed = removed
        self.from = from
        self.to = to
    }
}
