/// How a row's separator line looks. Separators overlay the row and take no space.
public struct SeparatorStyle: Sendable, Hashable {
    public var hidden: Bool
    /// The line's thickness in points.
    public var thickness: Double
    /// Vertical stacks use `left`/`right` (the line runs along the bottom edge); horizontal
    /// stacks use `top`/`bottom` (the line runs along the trailing edge).
    public var insets: EdgeInsets
    /// `#RRGGBBAA`, upper case.
    public var color: String

    public init(hidden: Bool = false, thickness: Double = 1, insets: EdgeInsets = EdgeInsets(left: 16), color: String = "#3C3C4349") {
        self.hidden = hidden
        self.thickness = thickness
        self.insets = insets
        self.color = color
    }

    /// The stack default: shown, 1 pt, left inset 16, UIKit's separator grey.
    public static let standard = SeparatorStyle()

    /// This style with the fields `override` sets replaced.
    public func applying(_ override: SeparatorOverride) -> SeparatorStyle {
        SeparatorStyle(
            hidden: override.hidden ?? hidden,
            thickness: override.thickness ?? thickness,
            insets: override.insets ?? insets,
            color: override.color ?? color
        )
    }

    func validate(_ field: String) throws(StackError) {
        try Check.length(thickness, field + ".thickness")
        try Check.insets(insets, field + ".insets")
        try SeparatorStyle.checkColor(color, field + ".color")
    }

    /// Accepts `#RRGGBB` or `#RRGGBBAA` and returns `#RRGGBBAA` in upper case.
    public static func normalizedColor(_ text: String) -> String? {
        let digits = text.utf8.dropFirst()
        guard text.utf8.first == UInt8(ascii: "#"), digits.count == 6 || digits.count == 8,
              digits.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 70) || ($0 >= 97 && $0 <= 102) })
        else { return nil }
        let upper = text.uppercased()
        return digits.count == 6 ? upper + "FF" : upper
    }

    static func checkColor(_ color: String, _ field: String) throws(StackError) {
        guard normalizedColor(color) == color else {
            throw .invalid("must be a colour written #RRGGBB or #RRGGBBAA, got \"\(color)\"", field: field)
        }
    }
}

/// A row's own separator settings: each field set here overrides the stack default; a
/// field left nil follows the stack, including later changes of the default.
public struct SeparatorOverride: Sendable, Hashable {
    public var hidden: Bool?
    public var thickness: Double?
    public var insets: EdgeInsets?
    public var color: String?

    public init(hidden: Bool? = nil, thickness: Double? = nil, insets: EdgeInsets? = nil, color: String? = nil) {
        self.hidden = hidden
        self.thickness = thickness
        self.insets = insets
        self.color = color
    }

    /// No override: the row follows the stack.
    public static let none = SeparatorOverride()

    public var isEmpty: Bool { self == .none }

    func validate(_ field: String) throws(StackError) {
        if let thickness { try Check.length(thickness, field + ".thickness") }
        if let insets { try Check.insets(insets, field + ".insets") }
        if let color { try SeparatorStyle.checkColor(color, field + ".color") }
    }
}
