import RealModule

/// UIScrollView's deceleration without paging: the velocity is multiplied by the rate `d`
/// every millisecond, so after n ms the offset has moved (v/1000)·d·(1 − dⁿ)/(1 − d) and it
/// comes to rest at offset + (v/1000)·d/(1 − d). n is taken as real between milliseconds.
public struct Deceleration: Sendable, Hashable {
    /// UIScrollView.DecelerationRate.normal.
    public static let normal = 0.998
    /// UIScrollView.DecelerationRate.fast.
    public static let fast = 0.99
    /// The motion ends when the distance left to travel is under this many points.
    public static let restThreshold = 0.5

    public var start: Double
    /// Points per second, positive towards larger offsets.
    public var velocity: Double
    /// The rate per millisecond, in (0, 1).
    public var rate: Double

    public init(start: Double, velocity: Double, rate: Double) {
        self.start = start
        self.velocity = velocity
        self.rate = rate
    }

    /// Where the motion would rest without a clamp.
    public var restingPoint: Double { start + velocity / 1000 * rate / (1 - rate) }

    /// The offset after `t` seconds.
    public func offset(at t: Double) -> Double {
        start + velocity / 1000 * rate * (1 - Double.pow(rate, t * 1000)) / (1 - rate)
    }

    /// The time in seconds until the distance left is under `restThreshold`; 0 when it
    /// already is.
    public var duration: Double {
        let left = abs(velocity) / 1000 * rate / (1 - rate)
        guard left >= Self.restThreshold else { return 0 }
        // left·dⁿ < threshold  ⇔  n > ln(threshold / left) / ln d
        return Double.log(Self.restThreshold / left) / Double.log(rate) / 1000
    }

    /// The time in seconds at which the motion reaches `bound` (which must lie between the
    /// start and the resting point).
    public func time(reaching bound: Double) -> Double {
        let fraction = 1 - (bound - start) * (1 - rate) / (velocity / 1000 * rate)
        guard fraction > 0 else { return duration }
        return Swift.max(0, Double.log(fraction) / Double.log(rate) / 1000)
    }
}
