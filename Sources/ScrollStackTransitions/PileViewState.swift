import ScrollStackCore

/// How a pile's view is drawn at one moment.
public struct PileViewState: Sendable, Hashable {
    public var frame: Rect
    public var alpha: Double
    public var translate: Point
    public var scale: Double

    public init(frame: Rect, alpha: Double, translate: Point, scale: Double) {
        self.frame = frame
        self.alpha = alpha
        self.translate = translate
        self.scale = scale
    }
}
