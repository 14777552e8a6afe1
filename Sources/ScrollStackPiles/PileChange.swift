import ScrollStackCore
import ScrollStackTransitions

/// What a pile operation did: its events and the motion of the views it moved.
public struct PileChange: Sendable, Hashable {
    public var events: [PileEvent] = []
    public var motions: [PileMotion] = []
}
