/// When and how a transition moves: a delay, then one spring (see ``Spring`` for the physics)
/// or one timing curve carrying every property from its start to its end value.
public struct AnimationTiming: Sendable, Hashable {
    /// The motion's shape: UIKit's spring, or one of UIView's animation curves
    /// (`UIView.AnimationOptions.curveEaseInOut`, …) as Core Animation's standard timing
    /// functions, running exactly `duration` seconds.
    public enum Curve: String, Sendable, Hashable, CaseIterable {
        case spring, easeInOut, easeIn, easeOut, linear

        /// The Bézier control points (`kCAMediaTimingFunctionEaseInEaseOut` 0.42, 0, 0.58, 1;
        /// `EaseIn` 0.42, 0, 1, 1; `EaseOut` 0, 0, 0.58, 1; `Linear` 0, 0, 1, 1); nil for the spring.
        public var controlPoints: TimingCurve? {
            switch self {
            case .spring: nil
            case .easeInOut: TimingCurve(0.42, 0, 0.58, 1)
            case .easeIn: TimingCurve(0.42, 0, 1, 1)
            case .easeOut: TimingCurve(0, 0, 0.58, 1)
            case .linear: TimingCurve(0, 0, 1, 1)
            }
        }
    }

    /// The spring's response in seconds (> 0): the period of its undamped oscillation.
    public var duration: Double
    /// Seconds before the motion starts (≥ 0).
    public var delay: Double
    /// The damping ratio, in (0, 1]: 1 is critically damped (no overshoot).
    public var damping: Double
    /// The starting speed, in distances (the whole change) per second, as UIKit's
    /// `initialSpringVelocity`.
    public var initialVelocity: Double
    /// `spring` (default): `damping` and `initialVelocity` shape the motion and `duration` is
    /// the spring's response. Any other curve takes exactly `duration`, and the spring's
    /// members are kept but unused.
    public var curve: Curve

    public init(duration: Double, delay: Double = 0, damping: Double, initialVelocity: Double = 0, curve: Curve = .spring) {
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
        if !damping.isFinite || damping <= 0 || damping > 1 { return ("damping", "must be in (0, 1], got \(Self.text(damping))") }
        if !initialVelocity.isFinite || abs(initialVelocity) > 1000 {
            return ("initialVelocity", "must be within ±1000, got \(Self.text(initialVelocity))")
        }
        // A damping near the smallest doubles (2e-309) makes ζω₀ so small that the settle time
        // overflows to infinity; 1e-300 still settles (in ~10³⁰⁰ s, refused when sampled).
        if curve == .spring, !spring.settleTime.isFinite {
            return ("damping", "is too small for the spring ever to settle (its settle time overflows), got \(Self.text(damping))")
        }
        return nil
    }

    /// The shortest duration accepted, in seconds (a millisecond).
    public static let minimumDuration = 0.001

    /// The spring this timing describes.
    public var spring: Spring { Spring(response: duration, dampingRatio: damping, initialVelocity: initialVelocity) }

    /// When the motion has come to rest, counted from the start (delay included): the
    /// spring's settle time, or a curve's duration.
    public var restTime: Double { delay + (curve == .spring ? spring.settleTime : duration) }

    /// The progress (0 → 1) at each of `times` (seconds after the delay, ascending): the
    /// spring's, or the curve's at `time / duration`. O(times).
    public func progress(at times: [Double]) -> [Double] {
        guard let points = curve.controlPoints else { return spring.progress(at: times) }
        return times.map { points.progress($0 / duration) }
    }

    /// A number as a client wrote it: `0`, not `0.0`.
    static func text(_ value: Double) -> String {
        value.isFinite && value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }
}
