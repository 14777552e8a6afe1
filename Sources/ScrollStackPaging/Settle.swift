import ScrollStackCore

/// Where a released drag comes to rest, how long it takes and the path it follows.
public struct Settle: Sendable, Hashable {
    /// How the motion is animated.
    public enum Motion: String, Sendable, Hashable {
        /// UIScrollView's deceleration (no paging).
        case deceleration
        /// A critically damped spring onto a page stop (paging).
        case spring
    }

    /// One sample of the offset curve: `offset` along the scroll axis `t` seconds after release.
    public struct Sample: Sendable, Hashable {
        public var t: Double
        public var offset: Double
    }

    /// A flick at least this fast (points per second) moves to the next page in its
    /// direction; a slower one settles on the stop nearest the release point.
    public static let pagingVelocityThreshold = 500.0
    /// The longest curve answered.
    public static let maxSamples = 10_000

    public var motion: Motion
    /// The resting offset along the scroll axis, rounded to 10⁻⁶: the offset the stack is
    /// given, exactly as answers show it.
    public var target: Double
    /// The target stop's index (nil without paging).
    public var page: Int?
    /// Seconds from release to rest.
    public var duration: Double
    private let offsetAt: @Sendable (Double) -> Double

    public static func == (a: Settle, b: Settle) -> Bool {
        a.motion == b.motion && a.target == b.target && a.page == b.page && a.duration == b.duration
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(motion)
        hasher.combine(target)
        hasher.combine(page)
        hasher.combine(duration)
    }

    /// The offset `t` seconds after release (the target from `duration` on).
    public func offset(at t: Double) -> Double {
        t >= duration ? target : offsetAt(t)
    }

    /// The number of samples `curve(fps:)` gives: one per frame from 0 while before the
    /// duration, and the resting point at the duration.
    public func sampleCount(fps: Double) -> Int {
        let frames = (duration * fps).rounded(.up)
        return frames > Double(Self.maxSamples) ? Self.maxSamples + 1 : Int(frames) + 1
    }

    /// The curve sampled at `fps` frames per second; the last sample is the target at `duration`.
    ///
    /// - Complexity: O(duration · fps).
    public func curve(fps: Double) -> [Sample] {
        let frames = sampleCount(fps: fps) - 1
        var samples = (0..<frames).map { i in Sample(t: Double(i) / fps, offset: offset(at: Double(i) / fps)) }
        samples.append(Sample(t: duration, offset: target))
        return samples
    }

    /// Deceleration from `release` at `velocity` with `rate`, the rest clamped to `range` (a
    /// release outside it starts at its nearer end). Hitting an end stops the motion there.
    public static func decelerate(release: Double, velocity: Double, rate: Double, range: ClosedRange<Double>) -> Settle {
        let start = Swift.min(Swift.max(release, range.lowerBound), range.upperBound)
        let motion = Deceleration(start: start, velocity: velocity, rate: rate)
        let rest = motion.restingPoint
        let clamped = Swift.min(Swift.max(rest, range.lowerBound), range.upperBound)
        let duration = clamped == rest ? motion.duration : Swift.min(motion.duration, motion.time(reaching: clamped))
        return Settle(motion: .deceleration, target: clamped.roundedToMicro, page: nil, duration: duration) { t in
            Swift.min(Swift.max(motion.offset(at: t), range.lowerBound), range.upperBound)
        }
    }

    /// The paging rule: a flick at least `pagingVelocityThreshold` fast goes to the first stop
    /// beyond the release point in its direction, but at most one stop from `startPage` (the
    /// page the drag began on); a slower one to the stop nearest the release point. The snap
    /// is a `CriticalSpring` from the release point and velocity; its path is clamped to the
    /// range (widened to the release point when that lies outside).
    ///
    /// - Complexity: O(log stops + duration in ms).
    public static func page(release: Double, velocity: Double, startPage: Int, stops: PageStops) -> Settle {
        guard stops.count > 0 else {
            return Settle(motion: .spring, target: stops.low, page: nil, duration: 0) { _ in stops.low }
        }
        var page: Int
        if abs(velocity) >= pagingVelocityThreshold {
            let floor = stops.floorIndex(release)
            if velocity > 0 {
                page = release < stops[0] - PageStops.tolerance ? 0 : Swift.min(stops.count - 1, floor + 1)
            } else {
                page = abs(stops[floor] - release) <= PageStops.tolerance ? Swift.max(0, floor - 1) : floor
            }
            page = Swift.min(Swift.max(page, startPage - 1), startPage + 1)
            page = Swift.min(Swift.max(page, 0), stops.count - 1)
        } else {
            page = stops.nearestIndex(release)
        }
        let target = stops[page].roundedToMicro
        let spring = CriticalSpring(start: release, target: target, velocity: velocity)
        // No rubber band: the snap never shows beyond the range's ends.
        let (low, high) = (Swift.min(stops.low, release), Swift.max(stops.high, release))
        return Settle(motion: .spring, target: target, page: page, duration: spring.duration) { t in
            Swift.min(Swift.max(spring.offset(at: t), low), high)
        }
    }

    init(motion: Motion, target: Double, page: Int?, duration: Double, offsetAt: @escaping @Sendable (Double) -> Double) {
        self.motion = motion
        self.target = target
        self.page = page
        self.duration = duration
        self.offsetAt = offsetAt
    }
}
