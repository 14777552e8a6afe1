/// Names a row of a stack: by its id, or by its current index.
public enum RowReference: Sendable, Hashable, CustomStringConvertible {
    case id(String)
    case index(Int)

    public var description: String {
        switch self {
        case .id(let id): "\"\(id)\""
        case .index(let index): "#\(index)"
        }
    }
}

/// Where an insertion puts its rows. A block of several rows keeps its input order at
/// every location (the original reverses it for `after` and `index`; this model does not).
public enum InsertLocation: Sendable, Hashable {
    /// Before the first row.
    case top
    /// After the last row.
    case bottom
    /// So that the first inserted row ends at this index, 0…count.
    case index(Int)
    /// Immediately before the referenced row.
    case before(RowReference)
    /// Immediately after the referenced row.
    case after(RowReference)
}

/// Where `scroll(to:)` places a row in the viewport.
public enum ScrollPosition: String, Sendable, Hashable, CaseIterable {
    /// The row's leading (top or left) edge at the viewport's leading edge.
    case initial
    /// The row centred in the viewport, on both axes.
    case middle
    /// The row's trailing (bottom or right) edge at the viewport's trailing edge.
    case final
    /// The smallest move that shows the whole row; none if it already shows entirely.
    case automatic
}

/// What a scroll operation aims at.
public enum ScrollTarget: Sendable, Hashable {
    /// An explicit content offset, kept as given (only required to be finite).
    case offset(Point)
    /// A row, placed at a position; the result is clamped.
    case row(RowReference, ScrollPosition)
    /// The leading end: offset −(leading content inset).
    case top
    /// The trailing end, clamped.
    case bottom
}
