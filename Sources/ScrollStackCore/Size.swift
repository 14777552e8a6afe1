/// A width and a height, in points.
public struct Size: Sendable, Hashable, CustomStringConvertible {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public static let zero = Size(width: 0, height: 0)

    /// The extent along `axis`: the height for `.vertical`, the width for `.horizontal`.
    @inlinable public subscript(axis: Axis) -> Double {
        get { axis == .vertical ? height : width }
        set { if axis == .vertical { height = newValue } else { width = newValue } }
    }

    public var description: String { "\(width)×\(height)" }
}
