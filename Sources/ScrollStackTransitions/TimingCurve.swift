/// A cubic Bézier timing curve from (0, 0) to (1, 1) through the control points (x1, y1) and
/// (x2, y2), as Core Animation's `CAMediaTimingFunction`: at a time fraction x the progress
/// is y(s) for the s with x(s) = x.
public struct TimingCurve: Sendable, Hashable {
    public var x1: Double, y1: Double, x2: Double, y2: Double

    public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        (self.x1, self.y1, self.x2, self.y2) = (x1, y1, x2, y2)
    }

    /// The progress at time fraction `x` (clamped to 0…1). Newton's method from s = x, with
    /// bisection when the slope is flat or a step leaves 0…1; precise to 10⁻¹². O(1) (at most
    /// 8 Newton steps, then at most 60 halvings).
    public func progress(_ x: Double) -> Double {
        let x = Swift.min(1, Swift.max(0, x))
        if x == 0 || x == 1 { return x }
        var s = x
        for _ in 0..<8 {
            let error = Self.bezier(s, x1, x2) - x
            if abs(error) < 1e-12 { return Self.bezier(s, y1, y2) }
            let slope = Self.slope(s, x1, x2)
            guard abs(slope) > 1e-9 else { break }
            let next = s - error / slope
            guard (0...1).contains(next) else { break }
            s = next
        }
        var lo = 0.0, hi = 1.0
        s = x
        for _ in 0..<60 {
            let value = Self.bezier(s, x1, x2)
            if abs(value - x) < 1e-12 { break }
            if value < x { lo = s } else { hi = s }
            s = (lo + hi) / 2
        }
        return Self.bezier(s, y1, y2)
    }

    /// One coordinate of the curve at parameter s: 3(1−s)²s·p1 + 3(1−s)s²·p2 + s³.
    static func bezier(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        let r = 1 - s
        return 3 * r * r * s * p1 + 3 * r * s * s * p2 + s * s * s
    }

    static func slope(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        let r = 1 - s
        return 3 * r * r * p1 + 6 * r * s * (p2 - p1) + 3 * s * s * (1 - p2)
    }
}
