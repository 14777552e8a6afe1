/// An axis-aligned rectangle in content coordinates.
public struct Rect: Sendable, Hashable, CustomStringConvertible {
    public var origin: Point
    public var size: Size

    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    /// Builds a rectangle from its extents along the main and the cross axis of `axis`.
    @inlinable public init(axis: Axis, mainOrigin: Double, mainLength: Double, crossOrigin: Double, crossLength: Double) {
        if axis == .vertical {
            self.init(x: crossOrigin, y: mainOrigin, width: crossLength, height: mainLength)
        } else {
            self.init(x: mainOrigin, y: crossOrigin, width: mainLength, height: crossLength)
        }
    }

    public var minX: Double { origin.x }
    public var minY: Double { origin.y }
    public var maxX: Double { origin.x + size.width }
    public var maxY: Double { origin.y + size.height }
    public var area: Double { size.width * size.height }

    /// The start of the rectangle along `axis`.
    @inlinable public func min(_ axis: Axis) -> Double { origin[axis] }
    /// The end of the rectangle along `axis`.
    @inlinable public func max(_ axis: Axis) -> Double { origin[axis] + size[axis] }

    /// Whether `other` lies inside this rectangle; edges are inclusive, so a degenerate
    /// rectangle on the boundary is contained.
    public func contains(_ other: Rect) -> Bool {
        other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
    }

    /// The area both rectangles cover; 0 when they only touch or are apart.
    public func intersectionArea(with other: Rect) -> Double {
        let w = Swift.min(maxX, other.maxX) - Swift.max(minX, other.minX)
        let h = Swift.min(maxY, other.maxY) - Swift.max(minY, other.minY)
        return w > 0 && h > 0 ? w * h : 0
    }

    public var description: String { "(\(origin.x), \(origin.y), \(size.width), \(size.height))" }
}
