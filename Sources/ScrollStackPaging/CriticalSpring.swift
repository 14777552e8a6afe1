import RealModule

/// The snap of a paging settle: a critically damped spring (mass 1, stiffness ω², damping
/// 2ω) from the release point and velocity to the target stop:
/// x(t) = target + (c₁ + c₂·t)·e^(−ωt), c₁ = start − target, c₂ = v + ω·c₁.
public struct CriticalSpring: Sendable, Hashable {
    /// ω = 2π / 0.4 s: a response of 0.4 s, about UIKit's paging snap.
    public static let naturalFrequency = 2 * Double.pi / 0.4
    /// Settled once the displacement's envelope (|c₁| + |c₂|·t)·e^(−ωt) is under this many points.
    public static let restThreshold = 0.5

    public var start: Double
    public var target: Double
    /// Points per second at release.
    public var velocity: Double
    public var omega: Double

    public init(start: Double, target: Double, velocity: Double, omega: Double = naturalFrequency) {
        self.start = start
        self.target = target
        self.velocity = velocity
        self.omega = omega
    }

    var c1: Double { start - target }
    var c2: Double { velocity + omega * c1 }

    public func offset(at t: Double) -> Double {
        target + (c1 + c2 * t) * Double.exp(-omega * t)
    }

    /// The first millisecond after which the envelope stays under `restThreshold` (the
    /// envelope falls for good once t > 1/ω − |c₁|/|c₂|). At most 60 s.
    ///
    /// - Complexity: O(duration in ms).
    public var duration: Double {
        let a = abs(c1)
        let b = abs(c2)
        let peak = b > 0 ? Swift.max(0, 1 / omega - a / b) : 0
        var ms = 0
        while ms < 60_000 {
            let t = Double(ms) / 1000
            if t >= peak, (a + b * t) * Double.exp(-omega * t) < Self.restThreshold { return t }
            ms += 1
        }
        return 60
    }
}
