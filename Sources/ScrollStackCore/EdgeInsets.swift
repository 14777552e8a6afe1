/// Distances from the four edges of a rectangle, in points.
public struct EdgeInsets: Sendable, Hashable, CustomStringConvertible {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    public static let zero = EdgeInsets()

    /// The inset at the start of `axis`: top for `.vertical`, left for `.horizontal`.
    @inlinable public func leading(_ axis: Axis) -> Double { axis == .vertical ? top : left }
    /// The inset at the end of `axis`: bottom for `.vertical`, right for `.horizontal`.
    @inlinable public func trailing(_ axis: Axis) -> Double { axis == .vertical ? bottom : right }
    /// The sum of both insets along `axis`.
    @inlinable public func total(_ axis: Axis) -> Double { leading(axis) + trailing(axis) }

    public var description: String { "(top \(top), left \(left), bottom \(bottom), right \(right))" }
}
