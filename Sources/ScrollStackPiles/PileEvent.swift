import ScrollStackCore
import ScrollStackTransitions

/// Something a pile operation did.
public enum PileEvent: Sendable, Hashable {
    case viewPushed(id: String, index: Int)
    case viewPopped(id: String, index: Int)
    case viewsSet(count: Int)
    case viewUpdated(id: String, index: Int)
    /// The view on top changed (nil: the pile is empty).
    case activeChanged(from: String?, to: String?)
}
