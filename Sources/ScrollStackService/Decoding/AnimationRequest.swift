import ScrollStackTransitions

/// What a mutation asks of its transition: the timing when it is animated, and a frame rate
/// when it wants keyframes.
struct AnimationRequest {
    /// Nil when the change is not animated (its plan is still kept, with the defaults).
    var timing: AnimationTiming?
    /// Frames per second to sample the plan at (1…240), or nil for no keyframes.
    var fps: Int?

    /// Whether the answer carries the plan: when animated or sampled.
    var answersPlan: Bool { timing != nil || fps != nil }

    /// The most keyframes one plan may be sampled into.
    static let maxFrames = 10_000

    /// A frame count as an error message says it: `KeyframeSampler.frameCount` stops counting
    /// past 10¹⁵ (a spring that hardly rests).
    static func describe(frames: Int) -> String { frames == Int.max ? "more than 10^15" : String(frames) }
}
