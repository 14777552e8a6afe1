import ScrollStackCore
import ScrollStackTransitions

/// Where and how a pile's view is drawn in one of the three positions (leading, active,
/// trailing), relative to the pile's bounds: Pile's `PileMetric`, with the transform limited to
/// a translation and a uniform scale.
public struct PileMetric: Sendable, Hashable {
    public var alpha: Double
    /// Taken off the bounds first.
    public var insets: EdgeInsets
    /// Then a shift in points…
    public var offset: Point
    /// …plus a shift in multiples of the bounds' size (`y: -1` is one bounds height up).
    public var relativeOffset: Point
    /// The transform: a uniform scale about the frame's centre, then a translation in points.
    public var scale: Double
    public var translate: Point
    /// Then a 3D transform about the frame's centre, its operations applied in order (the
    /// first to the view first); empty for none.
    public var transform: [PileTransformOperation]

    public init(alpha: Double = 1, insets: EdgeInsets = .zero, offset: Point = .zero, relativeOffset: Point = .zero,
                scale: Double = 1, translate: Point = .zero, transform: [PileTransformOperation] = []) {
        self.alpha = alpha
        self.insets = insets
        self.offset = offset
        self.relativeOffset = relativeOffset
        self.scale = scale
        self.translate = translate
        self.transform = transform
    }

    /// The 3D `transform` composed into one matrix (the identity when empty).
    public var matrix: Transform3D { PileTransformOperation.compose(transform) }

    /// Pile's `DefaultActiveMetric`: the bounds, opaque.
    public static let active = PileMetric()
    /// Pile's `DefaultLeadingMetric`: the bounds shifted up by their height, transparent.
    public static let leading = PileMetric(alpha: 0, relativeOffset: Point(x: 0, y: -1))
    /// Pile's `DefaultTrailingMetric`: the bounds shifted down by their height, transparent.
    public static let trailing = PileMetric(alpha: 0, relativeOffset: Point(x: 0, y: 1))

    /// The frame of a view in this position within `bounds`.
    public func frame(in bounds: Rect) -> Rect {
        Rect(x: bounds.minX + insets.left + offset.x + relativeOffset.x * bounds.size.width,
             y: bounds.minY + insets.top + offset.y + relativeOffset.y * bounds.size.height,
             width: bounds.size.width - insets.left - insets.right,
             height: bounds.size.height - insets.top - insets.bottom)
    }

    /// The view's state in this position within `bounds`; with `matrix`, it carries the
    /// composed 3D transform (a pile gives every state one when any of its metrics has a transform).
    public func state(in bounds: Rect, matrix: Bool = false) -> PileViewState {
        PileViewState(frame: frame(in: bounds), alpha: alpha, translate: translate, scale: scale, transform: matrix ? self.matrix : nil)
    }

    /// The first rule the metric breaks within `bounds`, as (member path, message), or nil.
    public func violation(in bounds: Rect) -> (member: String, message: String)? {
        guard alpha.isFinite, (0...1).contains(alpha) else { return ("alpha", "must be between 0 and 1, got \(AnimationTiming.text(alpha))") }
        guard scale.isFinite, scale >= 0, scale <= 1e9 else { return ("scale", "must be between 0 and 1000000000, got \(AnimationTiming.text(scale))") }
        for (name, value) in [("insets.top", insets.top), ("insets.left", insets.left), ("insets.bottom", insets.bottom), ("insets.right", insets.right),
                              ("offset.x", offset.x), ("offset.y", offset.y), ("relativeOffset.x", relativeOffset.x),
                              ("relativeOffset.y", relativeOffset.y), ("translate.x", translate.x), ("translate.y", translate.y)]
        where !value.isFinite || abs(value) > 1e9 {
            return (name, "must be a finite number within ±1000000000, got \(AnimationTiming.text(value))")
        }
        for (i, operation) in transform.enumerated() {
            if let (member, message) = operation.violation() { return ("transform[\(i)].\(member)", message) }
        }
        if !transform.isEmpty, !matrix.m.allSatisfy(\.isFinite) {
            return ("transform", "composes to a matrix with numbers beyond a double's range")
        }
        let frame = frame(in: bounds)
        if frame.size.width < 0 { return ("insets", "leave a negative width (\(frame.size.width)) in bounds \(bounds.size.width) wide") }
        if frame.size.height < 0 { return ("insets", "leave a negative height (\(frame.size.height)) in bounds \(bounds.size.height) high") }
        return nil
    }
}
