/// The direction a stack scrolls in: rows are laid out one after another along it.
public enum Axis: String, Sendable, Hashable, CaseIterable {
    /// Rows run top to bottom; the main axis is y.
    case vertical
    /// Rows run leading to trailing (left to right); the main axis is x.
    case horizontal

    /// The other axis.
    @inlinable public var cross: Axis { self == .vertical ? .horizontal : .vertical }
}
