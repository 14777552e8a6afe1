/// How long a row's content is along one axis.
public enum LengthRule: Sendable, Hashable {
    /// A fixed content length in points (insets come on top).
    case fixed(Double)
    /// The length its content description measures to at the content's cross extent.
    case fit
}

/// How long a row's content is along the scroll axis. The cross extent is never a rule:
/// it is always the viewport's, less the row's insets.
///
/// A controller may give a different rule per axis, e.g. fixed 500 when the stack is
/// vertical and fixed 300 when horizontal; `SizeRule.fixed(_:)` and `.fit` use one rule
/// for both.
public struct SizeRule: Sendable, Hashable {
    /// The rule used while the stack is vertical (it sets the content height).
    public var vertical: LengthRule
    /// The rule used while the stack is horizontal (it sets the content width).
    public var horizontal: LengthRule

    public init(vertical: LengthRule, horizontal: LengthRule) {
        self.vertical = vertical
        self.horizontal = horizontal
    }

    /// The same fixed content length on both axes.
    public static func fixed(_ length: Double) -> SizeRule {
        SizeRule(vertical: .fixed(length), horizontal: .fixed(length))
    }

    /// Measure the content on both axes.
    public static let fit = SizeRule(vertical: .fit, horizontal: .fit)

    /// The rule in force for a stack scrolling along `axis`.
    @inlinable public subscript(axis: Axis) -> LengthRule {
        axis == .vertical ? vertical : horizontal
    }

    /// Whether either axis measures content.
    public var measuresContent: Bool { vertical == .fit || horizontal == .fit }

    func validate(_ field: String) throws(StackError) {
        // One rule for both axes is named `size.fixed`; two NaNs count as the same rule
        // (NaN ≠ NaN would otherwise name `fixed(.nan)` per axis).
        let uniform: Bool
        switch (vertical, horizontal) {
        case (.fixed(let a), .fixed(let b)): uniform = a == b || (a.isNaN && b.isNaN)
        default: uniform = vertical == horizontal
        }
        // The field's path is built only for an error: for every row it cost more than the check.
        if case .fixed(let length) = vertical, !Check.isLength(length) {
            try Check.length(length, uniform ? field + ".fixed" : field + ".\(Axis.vertical.rawValue).fixed")
        }
        if case .fixed(let length) = horizontal, !Check.isLength(length) {
            try Check.length(length, uniform ? field + ".fixed" : field + ".\(Axis.horizontal.rawValue).fixed")
        }
    }
}
