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
