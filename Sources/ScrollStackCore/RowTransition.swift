/// How a row looks in one state of a show/hide transition: its opacity, a translation and a
/// uniform scale about its centre. The identity look is `alpha 1, translate (0, 0), scale 1`.
public struct RowLook: Sendable, Hashable {
    public var alpha: Double
    public var translate: Point
    public var scale: Double

    public init(alpha: Double = 1, translate: Point = .zero, scale: Double = 1) {
        self.alpha = alpha
        self.translate = translate
        self.scale = scale
    }

    public static let identity = RowLook()

    /// Throws unless alpha is in 0…1, the translation finite (±1e15) and the scale in 0…1e9.
    func validate(_ field: String) throws(StackError) {
        guard alpha.isFinite, (0...1).contains(alpha) else {
            throw .invalid("must be between 0 and 1, got \(Check.text(alpha))", field: field + ".alpha")
        }
        try Check.finite(translate.x, field + ".translate.x")
        try Check.finite(translate.y, field + ".translate.y")
        try Check.length(scale, field + ".scale")
    }
}

/// A row's own show/hide transition, as data (the original's `ScrollStackRowAnimatable`):
/// `hide` is the look the row takes as it hides (the end of a hide, the start of a show),
/// `show` the look it takes as it shows. A missing look is the identity. Insertions, removals
/// and moves never use it, as in the original.
public struct RowTransition: Sendable, Hashable {
    public var hide: RowLook?
    public var show: RowLook?

    public init(hide: RowLook? = nil, show: RowLook? = nil) {
        self.hide = hide
        self.show = show
    }

    func validate(_ field: String) throws(StackError) {
        try hide?.validate(field + ".hide")
        try show?.validate(field + ".show")
    }
}
