/// How a row is painted in the service's pictures (SVG, PNG): data kept with the row and
/// echoed back, never read by layout. Every field is optional; a row without a style is drawn
/// as the wireframe of its visibility.
///
/// Colours are `#RRGGBBAA` in capitals (`SeparatorStyle.normalizedColor`).
public struct RowStyle: Sendable, Hashable {
    /// A line drawn along the inside of the row's frame.
    public struct Border: Sendable, Hashable {
        /// In points, 0…1000.
        public var width: Double
        public var color: String

        public init(width: Double, color: String) {
            self.width = width
            self.color = color
        }
    }

    /// A stand-in for a picture: the largest box of `aspectRatio` (width / height) centred in
    /// the row's content frame (inside its insets), filled with `fill`.
    public struct ImagePlaceholder: Sendable, Hashable {
        public var aspectRatio: Double
        public var fill: String

        public init(aspectRatio: Double, fill: String) {
            self.aspectRatio = aspectRatio
            self.fill = fill
        }
    }

    public var background: String?
    /// The radius of the row's corners (background, border and clip), 0…10000 points.
    public var cornerRadius: Double?
    public var border: Border?
    /// The colour of the row's text (its content description's text nodes).
    public var textColor: String?
    public var image: ImagePlaceholder?

    public init(background: String? = nil, cornerRadius: Double? = nil, border: Border? = nil, textColor: String? = nil,
                image: ImagePlaceholder? = nil) {
        self.background = background
        self.cornerRadius = cornerRadius
        self.border = border
        self.textColor = textColor
        self.image = image
    }

    /// The largest radius or border width a style may give.
    public static let maxRadius = 10_000.0
    public static let maxBorderWidth = 1_000.0

    /// Checks every field; `field` is the style's path. O(1).
    func validate(_ field: String) throws(StackError) {
        if let background { try SeparatorStyle.checkColor(background, field + ".background") }
        if let cornerRadius { try Self.check(cornerRadius, upTo: Self.maxRadius, field + ".cornerRadius") }
        if let border {
            try Self.check(border.width, upTo: Self.maxBorderWidth, field + ".border.width")
            try SeparatorStyle.checkColor(border.color, field + ".border.color")
        }
        if let textColor { try SeparatorStyle.checkColor(textColor, field + ".textColor") }
        if let image {
            guard image.aspectRatio.isFinite, image.aspectRatio > 0, image.aspectRatio <= 1000 else {
                throw .invalid("must be greater than 0 and at most 1000, got \(Check.text(image.aspectRatio))", field: field + ".image.aspectRatio")
            }
            try SeparatorStyle.checkColor(image.fill, field + ".image.fill")
        }
    }

    private static func check(_ value: Double, upTo limit: Double, _ field: String) throws(StackError) {
        guard value.isFinite, (0...limit).contains(value) else {
            throw .invalid("must be between 0 and \(Check.text(limit)), got \(Check.text(value))", field: field)
        }
    }
}
