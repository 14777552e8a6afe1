import ScrollStackCore
import ScrollStackTransitions

/// The transition of one pile change: its timing and the views that move.
public struct PilePlan: Sendable, Hashable {
    public var animated: Bool
    public var timing: AnimationTiming
    public var motions: [PileMotion]

    public init(animated: Bool, timing: AnimationTiming, motions: [PileMotion]) {
        self.animated = animated
        self.timing = timing
        self.motions = motions
    }

    /// Every frame at `fps`, as ``KeyframeSampler`` samples row plans; a 3D transform (when
    /// both ends have one) follows ``Transform3D/interpolate(_:_:_:)``.
    ///
    /// - Complexity: O(frames × motions); each motion's matrices are decomposed once.
    public func keyframes(fps: Int) -> [(time: Double, progress: Double, views: [(id: String, state: PileViewState)])] {
        let times = KeyframeSampler.times(timing, fps: fps)
        let transforms = motions.map { m -> ((Double) -> Transform3D)? in
            guard let from = m.from.transform, let to = m.to.transform else { return nil }
            return Transform3D.interpolator(from: from, to: to)
        }
        return zip(times, KeyframeSampler.progress(timing, at: times)).map { time, p in
            (time, p, zip(motions, transforms).map { m, transform in
                (m.id, PileViewState(frame: KeyframeSampler.lerp(m.from.frame, m.to.frame, p),
                                     alpha: KeyframeSampler.clampedLerp(m.from.alpha, m.to.alpha, p),
                                     translate: KeyframeSampler.lerp(m.from.translate, m.to.translate, p),
                                     scale: KeyframeSampler.lerp(m.from.scale, m.to.scale, p), transform: transform?(p)))
            })
        }
    }
}
