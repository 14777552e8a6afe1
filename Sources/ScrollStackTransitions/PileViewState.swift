import ScrollStackCore

/// How a pile's view is drawn at one moment.
public struct PileViewState: Sendable, Hashable {
    public var frame: Rect
    public var alpha: Double
    public var translate: Point
    public var scale: Double
    /// The perspective and rotation after the scale and translation (identity by default).
    public var transform: Transform3D

    public init(frame: Rect, alpha: Double, translate: Point, scale: Double, transform: Transform3D = .identity) {
        self.frame = frame
        self.alpha = alpha
        self.translate = translate
        self.scale = scale
        self.transform = transform
    }

    /// The view's whole layer transform, row by row: scale, translate, then `transform`.
    public var matrix: [Double] { transform.layerMatrix(scale: scale, translate: (translate.x, translate.y)) }
}
