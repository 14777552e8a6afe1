import ScrollStackCore
import ScrollStackTransitions

/// A failed pile operation; nothing changed.
public struct PileError: Error, Sendable, Hashable {
    public enum Kind: Sendable, Hashable { case empty, lastView, duplicateID, unknownView }
    public var kind: Kind
    public var message: String
    public var field: String?
}
