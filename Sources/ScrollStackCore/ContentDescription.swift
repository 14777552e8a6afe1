/// A description of a row's content that a measurer turns into a length along the scroll
/// axis. The shapes mirror a CSS flexbox tree; Docs/Semantics.md gives the exact mapping.
public struct ContentDescription: Sendable, Hashable {
    /// The shape of the content.
    public indirect enum Kind: Sendable, Hashable {
        /// A box with an optional fixed width and height (a missing one is 0 along the
        /// measured axis, and stretches across it).
        case box(width: Double?, height: Double?)
        /// A box whose width/height ratio is fixed: its measured length follows its cross extent.
        case aspectRatio(Double)
        /// Children laid out along `axis` with `spacing` between them, inside `padding`.
        case stack(axis: Axis, spacing: Double, padding: EdgeInsets, children: [ContentDescription])
        /// Text set in a real font: it wraps at its width when measured along a vertical
        /// stack, and is as wide as its widest line when measured along a horizontal one.
        case text(TextContent)
    }

    public var kind: Kind
    public var minWidth: Double?
    public var maxWidth: Double?
    public var minHeight: Double?
    public var maxHeight: Double?

    public init(_ kind: Kind, minWidth: Double? = nil, maxWidth: Double? = nil, minHeight: Double? = nil, maxHeight: Double? = nil) {
        self.kind = kind
        self.minWidth = minWidth
        self.maxWidth = maxWidth
        self.minHeight = minHeight
        self.maxHeight = maxHeight
    }

    /// A box with optional fixed width and height.
    public static func box(width: Double? = nil, height: Double? = nil) -> ContentDescription {
        ContentDescription(.box(width: width, height: height))
    }

    /// A box with a fixed width/height ratio.
    public static func aspectRatio(_ ratio: Double) -> ContentDescription {
        ContentDescription(.aspectRatio(ratio))
    }

    /// A group of children laid out along `axis`.
    public static func stack(_ axis: Axis, spacing: Double = 0, padding: EdgeInsets = .zero, _ children: [ContentDescription]) -> ContentDescription {
        ContentDescription(.stack(axis: axis, spacing: spacing, padding: padding, children: children))
    }

    /// A text node.
    public static func text(_ content: TextContent) -> ContentDescription {
        ContentDescription(.text(content))
    }

    /// The fixed extent along `axis`, if the description sets one.
    /// in layout units.
    func explicitExtent(_ axis: Axis) -> Double? {
        if case .box(let width, let height) = kind { return (axis == .vertical ? height : width).map(LayoutUnit.given) }
        return nil
    }

    /// Clamps `value` to the min/max along `axis`; a minimum wins over a smaller maximum (as in
    /// CSS), and a group's border box never gets smaller than its padding (`paddingFloor`).
    func clamp(_ value: Double, _ axis: Axis) -> Double {
        let (low, high) = axis == .vertical ? (minHeight, maxHeight) : (minWidth, maxWidth)
        var result = value
        if let high { result = Swift.min(result, LayoutUnit.given(high)) }
        if let low { result = Swift.max(result, LayoutUnit.given(low)) }
        return Swift.max(result, paddingFloor(axis))
    }

    /// The least extent along `axis` a border box can have: a group's padding along it, 0 for
    /// other nodes (CSS never makes a content box negative).
    func paddingFloor(_ axis: Axis) -> Double {
        if case .stack(_, _, let padding, _) = kind { return padding.layoutUnits.total(axis) }
        return 0
    }

    /// Checks every number of the tree; `field` is the path of this node.
    ///
    /// - Complexity: O(number of nodes).
    func validate(_ field: String, depth: Int = 0) throws(StackError) {
        guard depth < 64 else { throw .invalid("nests deeper than 64 levels", field: field) }
        for (name, value) in [("minWidth", minWidth), ("maxWidth", maxWidth), ("minHeight", minHeight), ("maxHeight", maxHeight)] {
            if let value { try Check.length(value, field + "." + name) }
        }
        switch kind {
        case .box(let width, let height):
            if let width { try Check.length(width, field + ".width") }
            if let height { try Check.length(height, field + ".height") }
        case .aspectRatio(let ratio):
            try Check.length(ratio, field + ".aspectRatio")
            guard ratio > 0 else { throw .invalid("must be greater than 0", field: field + ".aspectRatio") }
        case .stack(_, let spacing, let padding, let children):
            try Check.length(spacing, field + ".spacing")
            try Check.insets(padding, field + ".padding")
            for (i, child) in children.enumerated() {
                try child.validate(field + ".children[\(i)]", depth: depth + 1)
            }
        case .text(let content):
            try content.validate(field)
        }
    }
}

extension EdgeInsets {
    /// Each side in layout units.
    var layoutUnits: EdgeInsets {
        EdgeInsets(top: LayoutUnit.given(top), left: LayoutUnit.given(left), bottom: LayoutUnit.given(bottom), right: LayoutUnit.given(right))
    }
}
