/// How a transition's progress runs from 0 to 1: the spring (``Spring``), or one of the timing
/// curves of `UIView.AnimationCurve`, each the cubic Bézier of the `CAMediaTimingFunction`
/// UIKit gives it, over a fixed duration.
public enum AnimationCurve: String, Sendable, Hashable, CaseIterable {
    case spring, linear, easeIn, easeOut, easeInOut

    /// The Bézier of a timing curve; nil for the spring.
    public var bezier: CubicBezierTiming? {
        switch self {
        case .spring: nil
        case .linear: CubicBezierTiming(x1: 0, y1: 0, x2: 1, y2: 1)
        case .easeIn: CubicBezierTiming(x1: 0.42, y1: 0, x2: 1, y2: 1)
        case .easeOut: CubicBezierTiming(x1: 0, y1: 0, x2: 0.58, y2: 1)
        case .easeInOut: CubicBezierTiming(x1: 0.42, y1: 0, x2: 0.58, y2: 1)
        }
    }
}

/// A timing function as `CAMediaTimingFunction` defines one: the cubic Bézier from (0, 0) to
/// (1, 1) with control points (x1, y1) and (x2, y2), x the fraction of the duration elapsed
/// and y the progress.
public struct CubicBezierTiming: Sendable, Hashable {
    public var x1: Double
    public var y1: Double
    public var x2: Double
    public var y2: Double

    /// Control x values must lie in 0…1 (so x rises with the curve's parameter).
    public init(x1: Double, y1: Double, x2: Double, y2: Double) {
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
    }

    /// B(s) = 3(1−s)²s·p1 + 3(1−s)s²·p2 + s³ for one coordinate.
    static func coordinate(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        let r = 1 - s
        return 3 * r * r * s * p1 + 3 * r * s * s * p2 + s * s * s
    }

    /// The progress after `fraction` of the duration: the curve's parameter s with x(s) =
    /// fraction is found by bisection (x rises monotonically on 0…1 when x1 and x2 are in
    /// 0…1), to the last bit a double can tell apart, and y(s) is answered. 0 at or before
    /// the start, exactly 1 at or after the end; the identity curve (linear) answers the
    /// fraction itself.
    ///
    /// - Complexity: O(1): at most 1,100 halvings (a double interval within 0…1 cannot be
    ///   halved more often before its midpoint equals an end), in practice about 55.
    public func progress(atFraction fraction: Double) -> Double {
        guard fraction > 0 else { return 0 }
        guard fraction < 1 else { return 1 }
        if x1 == y1 && x2 == y2 { return fraction }
        var low = 0.0, high = 1.0
        while true {
            let mid = (low + high) / 2
            guard mid > low && mid < high else { break }
            let x = Self.coordinate(mid, x1, x2)
            if x == fraction { low = mid; high = mid; break }
            if x < fraction { low = mid } else { high = mid }
        }
        // The nearer end: both bracket the solution within one ulp.
        let s = abs(Self.coordinate(low, x1, x2) - fraction) <= abs(Self.coordinate(high, x1, x2) - fraction) ? low : high
        return Self.coordinate(s, y1, y2)
    }
}
