import ScrollStackCore

/// Samples transitions at a frame rate: the times `0, 1/fps, 2/fps, …` before rest, then
/// the rest time itself, where every property has its end value.
public enum KeyframeSampler {
    /// The sample times of `timing` at `fps` frames per second.
    public static func times(_ timing: AnimationTiming, fps: Int) -> [Double] {
        let rest = timing.restTime
        var times: [Double] = []
        var frame = 0
        while Double(frame) / Double(fps) < rest {
            times.append(Double(frame) / Double(fps))
            frame += 1
        }
        times.append(rest)
        return times
    }

    /// How many times `times(_:fps:)` gives, without building them: a limit can be checked
    /// before sampling a spring that takes ages to rest (a damping of 1e-300). `Int.max` when
    /// that is beyond 10¹⁵.
    /// - Complexity: O(1).
    public static func frameCount(_ timing: AnimationTiming, fps: Int) -> Int {
        let rest = timing.restTime
        let estimate = (rest * Double(fps)).rounded(.up)
        guard estimate < 1e15 else { return Int.max }
        // The frames f with f / fps < rest, as `times` counts them: the estimate corrected for rounding.
        var frames = max(0, Int(estimate))
        while frames > 0 && Double(frames - 1) / Double(fps) >= rest { frames -= 1 }
        while Double(frames) / Double(fps) < rest { frames += 1 }
        return frames + 1
    }

    /// The timing's progress at each time (0 during the delay): its spring's or its curve's.
    public static func progress(_ timing: AnimationTiming, at times: [Double]) -> [Double] {
        timing.progress(at: times)
    }

    /// Every frame of `plan` at `fps`. Frames, translations and scales follow the progress
    /// linearly (overshooting with it); opacity is clamped to 0…1, as a screen draws it; the
    /// offset is clamped between its two ends, so a scroll never shows past the end it goes
    /// to (UIKit's animated scroll does not overshoot).
    ///
    /// - Complexity: O(frames × planned rows).
    public static func sample(_ plan: TransitionPlan, fps: Int) -> [Keyframe] {
        let times = times(plan.timing, fps: fps)
        return zip(times, progress(plan.timing, at: times)).map { time, p in
            Keyframe(time: time, progress: p, offset: heldLerp(plan.offset.from, plan.offset.to, p), rows: plan.rows.map { entry in
                Keyframe.RowSample(id: entry.id, frame: lerp(entry.from.frame, entry.to.frame, p),
                                   alpha: clampedLerp(entry.from.alpha, entry.to.alpha, p),
                                   translate: lerp(entry.from.translate, entry.to.translate, p),
                                   scale: lerp(entry.from.scale, entry.to.scale, p))
            })
        }
    }

    package static func lerp(_ a: Double, _ b: Double, _ p: Double) -> Double { p == 1 ? b : a + (b - a) * p }
    package static func clampedLerp(_ a: Double, _ b: Double, _ p: Double) -> Double { Swift.min(1, Swift.max(0, lerp(a, b, p))) }
    /// `lerp` held between `a` and `b`, on each axis.
    static func heldLerp(_ a: Point, _ b: Point, _ p: Double) -> Point {
        func held(_ a: Double, _ b: Double) -> Double { Swift.min(Swift.max(lerp(a, b, p), Swift.min(a, b)), Swift.max(a, b)) }
        return Point(x: held(a.x, b.x), y: held(a.y, b.y))
    }
    package static func lerp(_ a: Point, _ b: Point, _ p: Double) -> Point { Point(x: lerp(a.x, b.x, p), y: lerp(a.y, b.y, p)) }
    package static func lerp(_ a: Rect, _ b: Rect, _ p: Double) -> Rect {
        Rect(x: lerp(a.minX, b.minX, p), y: lerp(a.minY, b.minY, p), width: lerp(a.size.width, b.size.width, p),
             height: lerp(a.size.height, b.size.height, p))
    }
}
