/// When and how a transition moves: a delay, then one spring (see ``Spring`` for the physics)
/// or one timing curve (``AnimationCurve``) carrying every property from its start to its end
/// value.
public struct AnimationTiming: Sendable, Hashable {
    /// The spring's response in seconds (> 0): the period of its undamped oscillation; for a
    /// timing curve, the time from the start of the motion to its end.
    public var duration: Double
    /// Seconds before the motion starts (≥ 0).
    public var delay: Double
    /// The damping ratio, in (0, 1]: 1 is critically damped (no overshoot).
    public var damping: Double
    /// The starting speed, in distances (the whole change) per second, as UIKit's
    /// `initialSpringVelocity`.
    public var initialVelocity: Double
    /// The spring (default), or a timing curve over `duration`, which then ignores `damping`
    /// and `initialVelocity`.
    public var curve: AnimationCurve

    public init(duration: Double, delay: Double = 0, damping: Double, initialVelocity: Double = 0, curve: AnimationCurve = .spring) {
        self.duration = duration
        self.delay = delay
        self.damping = damping
        self.initialVelocity = initialVelocity
        self.curve = curve
    }

    /// `ScrollStackAnimationInfo`'s defaults: 0.25 s, no delay, damping 0.8.
    public static let rows = AnimationTiming(duration: 0.25, damping: 0.8)
    /// Pile's `DefaultAnimationMetric`: 0.6 s, no delay, damping 0.6, velocity 0.
    public static let pile = AnimationTiming(duration: 0.6, damping: 0.6)

    /// The first rule the timing breaks, as (member, message), or nil when it is valid.
    /// Durations and delays are bounded to an hour, the velocity to ±1000.
    public var violation: (member: String, message: String)? {
        // At least a millisecond: shorter than any frame, and far from the ~1e-154 s below
        // which the spring's stiffness (2π / duration)² overflows to infinity.
        if !duration.isFinite || duration < Self.minimumDuration || duration > 3600 {
            return ("duration", "must be between 0.001 and 3600 seconds, got \(Self.text(duration))")
        }
        if !delay.isFinite || delay < 0 || delay > 3600 { return ("delay", "must be between 0 and 3600 seconds, got \(Self.text(delay))") }
        guard curve == .spring else { return nil }
        if !damping.isFinite || damping <= 0 || damping > 1 { return ("damping", "must be in (0, 1], got \(Self.text(damping))") }
        if !initialVelocity.isFinite || abs(initialVelocity) > 1000 {
            return ("initialVelocity", "must be within ±1000, got \(Self.text(initialVelocity))")
        }
        // A damping near the smallest doubles (2e-309) makes ζω₀ so small that the settle time
        // overflows to infinity; 1e-300 still settles (in ~10³⁰⁰ s, refused when sampled).
        if !spring.settleTime.isFinite {
            return ("damping", "is too small for the spring ever to settle (its settle time overflows), got \(Self.text(damping))")
        }
        return nil
    }

    /// The shortest duration accepted, in seconds (a millisecond).
    public static let minimumDuration = 0.001

    /// The spring this timing describes.
    public var spring: Spring { Spring(response: duration, dampingRatio: damping, initialVelocity: initialVelocity) }

    /// When the motion has come to rest, counted from the start (delay included): the
    /// spring's settle time, or a curve's duration, after the delay.
    public var restTime: Double { delay + (curve == .spring ? spring.settleTime : duration) }

    /// The progress at each of `times` (seconds since the start, delay included): 0 during the
    /// delay, then the spring's (``Spring/progress(at:)``) or the curve's at the elapsed
    /// fraction of `duration` (``CubicBezierTiming/progress(atFraction:)``); exactly 1 from
    /// ``restTime`` on.
    ///
    /// - Complexity: O(times).
    public func progress(at times: [Double]) -> [Double] {
        guard let bezier = curve.bezier else {
            let moving = times.filter { $0 >= delay }.map { $0 - delay }
            let sampled = spring.progress(at: moving)
            return Array(repeating: 0, count: times.count - moving.count) + sampled
        }
        let rest = restTime
        return times.map { time in
            time <= delay ? 0 : time >= rest ? 1 : bezier.progress(atFraction: (time - delay) / duration)
        }
    }

    /// A number as a client wrote it: `0`, not `0.0`.
    package static func text(_ value: Double) -> String {
        value.isFinite && value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }
}
