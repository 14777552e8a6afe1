import ScrollStackCore
import ScrollStackTransitions

/// What a mutation asks of its transition: the timing when it is animated, and a frame rate
/// when it wants keyframes.
struct AnimationRequest {
    /// Nil when the change is not animated (its plan is still kept, with the defaults).
    var timing: AnimationTiming?
    /// Frames per second to sample the plan at (1…240), or nil for no keyframes.
    var fps: Int?
    /// Whether the body's `animation` object gave its own `damping`. Without one, hiding or
    /// showing rows that bring no `transition` of their own springs with damping 1
    /// (ScrollStackController's `ScrollStackRowAnimator`); see `timing(for:in:)`.
    var dampingGiven = false

    /// Whether the answer carries the plan: when animated or sampled.
    var answersPlan: Bool { timing != nil || fps != nil }

    /// The most keyframes one plan may be sampled into.
    static let maxFrames = 10_000

    /// The most row samples one sampled plan may carry: its keyframes times its rows. Each
    /// costs about 3 µs to sample and encode and 70 bytes of the answer, so a sampled plan
    /// stays near 0.3 s of CPU and 7 MB however long its spring or big its change (the frame
    /// limit alone let 10,000 keyframes of 300 rows cost 9 s and 215 MB).
    static let maxRowSamples = 100_000

    /// The 422 for sampling `plan` at `fps` when that gives more than `maxRowSamples` row
    /// samples (its frames within `maxFrames`, checked first), else nil. O(1).
    static func rowSampleViolation(_ plan: TransitionPlan, fps: Int) -> APIError? {
        let frames = KeyframeSampler.frameCount(plan.timing, fps: fps)
        let rows = plan.rows.count
        guard frames <= maxFrames, rows > 0, frames * rows > maxRowSamples else { return nil }
        return .invalid("fps", "sampling this plan at \(fps) fps gives \(frames) keyframes of \(rows) rows, \(frames * rows) row samples, "
                        + "more than \(maxRowSamples): lower fps, shorten the spring, or change fewer rows at once")
    }

    /// The 422 for sampling a past plan at `fps` (`GET …/transitions/{revision}?fps=`): more
    /// than `maxFrames` keyframes, or more than `maxRowSamples` row samples; else nil. O(1).
    static func keyframeViolation(_ plan: TransitionPlan, fps: Int) -> APIError? {
        let frames = KeyframeSampler.frameCount(plan.timing, fps: fps)
        guard frames <= maxFrames else {
            return .invalid("fps", "sampling this spring at \(fps) fps gives \(describe(frames: frames)) keyframes, more than \(maxFrames)")
        }
        return rowSampleViolation(plan, fps: fps)
    }

    /// The message of the 422 for `frames` keyframes of `timing` at `fps`, more than `maxFrames`.
    static func frameLimitMessage(_ timing: AnimationTiming, fps: Int, frames: Int) -> String {
        timing.curve == .spring
            ? "sampling this spring at \(fps) fps gives \(describe(frames: frames)) keyframes, more than \(maxFrames): lower fps or raise the damping"
            : "sampling this \(timing.curve.rawValue) curve at \(fps) fps gives \(describe(frames: frames)) keyframes, more than \(maxFrames): lower fps or shorten the duration or delay"
    }

    /// A frame count as an error message says it: `KeyframeSampler.frameCount` stops counting
    /// past 10¹⁵ (a spring that hardly rests).
    static func describe(frames: Int) -> String { frames == Int.max ? "more than 10^15" : String(frames) }
}

extension AnimationRequest {
    /// The timing of `operation` on `stack` (before it): the one asked for, else the rows'
    /// default (`ScrollStackAnimationInfo`'s 0.25 s, damping 0.8). Hiding or showing rows
    /// (a row patch giving `hidden`, a `hide`/`show` batch) when none of them brings its own
    /// `transition` and no `damping` was given springs with damping 1: ScrollStackController's
    /// `ScrollStackRowAnimator` uses `springDamping` only from rows that animate themselves
    /// (`ScrollStackRowAnimatable`, whose default is 0.8) and 1 for every other row.
    ///
    /// - Complexity: O(log n) for a row patch, O(k log n) for k referenced rows, O(1) otherwise.
    func timing(for operation: StackOperation, in stack: ScrollStack) -> AnimationTiming {
        var timing = self.timing ?? .rows
        guard !dampingGiven else { return timing }
        let plain: Bool
        switch operation {
        case .update(let index, let change):
            plain = change.hidden != nil && index >= 0 && index < stack.count && stack.row(at: index).transition == nil
                && (change.transition ?? nil) == nil
        case .setHidden(let references, _):
            plain = references.allSatisfy { reference in
                guard let row = try? stack.resolve(reference).row else { return true }
                return row.transition == nil
            }
        default:
            plain = false
        }
        if plain { timing.damping = 1 }
        return timing
    }
}
