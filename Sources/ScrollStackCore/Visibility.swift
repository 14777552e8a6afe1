/// How much of a row the viewport shows.
public enum Visibility: Sendable, Hashable, CustomStringConvertible {
    /// The row is hidden, whatever its geometry.
    case hidden
    /// The row shares no area with the viewport; touching an edge is not sharing.
    case offscreen
    /// The viewport contains the whole row (edges inclusive).
    case entire
    /// Part of the row shows: `fraction` is the visible share of its area, 0 < fraction < 1.
    case partial(fraction: Double)

    /// `partial` or `entire`.
    public var isVisible: Bool {
        switch self {
        case .partial, .entire: true
        case .hidden, .offscreen: false
        }
    }

    /// The visible share of the row's area: 1 for entire, 0 for hidden and offscreen.
    public var fraction: Double {
        switch self {
        case .entire: 1
        case .partial(let fraction): fraction
        case .hidden, .offscreen: 0
        }
    }

    /// The name used by the API: `hidden`, `offscreen`, `entire`, `partial`.
    public var name: String {
        switch self {
        case .hidden: "hidden"
        case .offscreen: "offscreen"
        case .entire: "entire"
        case .partial: "partial"
        }
    }

    public var description: String {
        if case .partial(let f) = self { return "partial(\(f))" }
        return name
    }

    /// The state of a row with frame `row` in a viewport with rect `viewport`.
    ///
    /// Rules, in order: hidden; contained with inclusive edges → entire (so a zero-length row
    /// inside or on an edge is entire); no shared area → offscreen; otherwise partial.
    public static func of(row: Rect, hidden: Bool, in viewport: Rect) -> Visibility {
        if hidden { return .hidden }
        if viewport.contains(row) { return .entire }
        let shared = row.intersectionArea(with: viewport)
        if shared <= 0 { return .offscreen }
        return .partial(fraction: Swift.min(1, shared / row.area))
    }
}
