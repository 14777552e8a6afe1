import ScrollStackCore
import ScrollStackTransitions

/// How a pile's view is drawn at one moment.
public struct PileViewState: Sendable, Hashable {
    public var frame: Rect
    public var alpha: Double
    public var translate: Point
    public var scale: Double
    /// The composed 3D transform, in piles whose metrics have one; nil otherwise.
    public var transform: Transform3D?

    public init(frame: Rect, alpha: Double, translate: Point, scale: Double, transform: Transform3D? = nil) {
        self.frame = frame
        self.alpha = alpha
        self.translate = translate
        self.scale = scale
        self.transform = transform
    }
}
