/// A point in content coordinates, in points.
public struct Point: Sendable, Hashable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = Point(x: 0, y: 0)

    /// The coordinate along `axis`.
    @inlinable public subscript(axis: Axis) -> Double {
        get { axis == .vertical ? y : x }
        set { if axis == .vertical { y = newValue } else { x = newValue } }
    }

    public var description: String { "(\(x), \(y))" }
}
