import ScrollStackCore

/// One sampled moment of a row transition: the spring's progress and every planned row's
/// frame, opacity and look at that time.
public struct Keyframe: Sendable, Hashable {
    public struct RowSample: Sendable, Hashable {
        public var id: String
        public var frame: Rect
        public var alpha: Double
        public var translate: Point
        public var scale: Double
    }

    /// Seconds since the transition started (the delay included).
    public var time: Double
    /// The spring's progress: 0 at the start, 1 at rest; it overshoots when under-damped.
    public var progress: Double
    public var offset: Point
    public var rows: [RowSample]
}
