/// Rows to insert as one block (`ScrollStack.insert(_: RowBatch, at:)`), kept as their fields
/// rather than as `Row` values: a row that sets none of the rarely set fields (content
/// description, insets, separator override, title, transition, tappable, highlightable) and
/// whose id, type and fixed sizes are valid is stored as its id, content, size and hidden
/// flag; any other row (one that breaks a rule included) is kept whole, so that the insert
/// names its error exactly as `insert(_: [Row], at:)` does. Decoders append rows as they
/// read them, with no array of `Row` in between.
///
/// - Complexity: `append` O(1) amortized; `rows` O(k).
public struct RowBatch: Sendable {
    /// The ids in order: the keys of the batch's bulk id checks.
    public private(set) var ids: [String] = []
    /// Everything but the id, per row, in order.
    private(set) var fields: [Fields] = []
    /// The rows kept whole, in order, and their positions in the batch.
    private(set) var wholeRows: [Row] = []
    private(set) var wholePositions: [Int] = []

    /// A row's fields besides its id; `whole` ≥ 0 names its entry in `wholeRows` (its
    /// content, size and hidden flag are then unused).
    struct Fields: Sendable {
        var content: RowContent
        var size: SizeRule
        var hidden: Bool
        var whole: Int32
    }

    /// A row of the batch: its fields, or the row kept whole.
    public enum Element {
        case plain(id: String, content: RowContent, size: SizeRule, hidden: Bool)
        case whole(Row)
    }

    /// An empty batch with room for `capacity` rows.
    public init(capacity: Int = 0) {
        ids.reserveCapacity(capacity)
        fields.reserveCapacity(capacity)
    }

    /// The batch of `rows`, in order.
    public init(_ rows: [Row]) {
        self.init(capacity: rows.count)
        for row in rows { append(row) }
    }

    /// Rows in the batch.
    public var count: Int { ids.count }

    public var isEmpty: Bool { ids.isEmpty }

    /// Appends the row `Row(id:content:size:hidden:)` without making it. O(1) amortized.
    public mutating func append(id: String, content: RowContent, size: SizeRule, hidden: Bool = false) {
        guard Self.isPlainValid(id: id, content: content, size: size) else {
            return appendWhole(Row(id: id, content: content, size: size, hidden: hidden))
        }
        ids.append(id)
        fields.append(Fields(content: content, size: size, hidden: hidden, whole: -1))
    }

    /// Appends `row`, by its fields when it has none of the rarely set ones. O(1) amortized.
    public mutating func append(_ row: Row) {
        let rare = row.contentDescription != nil || row.insets != nil || !row.separator.isEmpty || row.tappable
            || row.highlightable || row.title != nil || row.transition != nil
        if rare { appendWhole(row) } else { append(id: row.id, content: row.content, size: row.size, hidden: row.hidden) }
    }

    private mutating func appendWhole(_ row: Row) {
        ids.append(row.id)
        fields.append(Fields(content: row.content, size: row.size, hidden: row.hidden, whole: Int32(wholeRows.count)))
        wholePositions.append(ids.count - 1)
        wholeRows.append(row)
    }

    /// Whether a row with only these fields keeps every rule of a row on its own: the checks
    /// of `Row.validate` for such a row, with both lengths fixed (nothing to measure).
    private static func isPlainValid(id: String, content: RowContent, size: SizeRule) -> Bool {
        guard !id.isEmpty, !content.typeName.isEmpty, case .fixed(let vertical) = size.vertical,
              case .fixed(let horizontal) = size.horizontal else { return false }
        return Check.isLength(vertical) && Check.isLength(horizontal)
    }

    /// The row at `i`. O(1).
    public subscript(i: Int) -> Element {
        let f = fields[i]
        return f.whole >= 0 ? .whole(wholeRows[Int(f.whole)]) : .plain(id: ids[i], content: f.content, size: f.size, hidden: f.hidden)
    }

    /// Every row as a `Row`, in order (for error paths and tests). O(k).
    public var rows: [Row] {
        (0..<count).map { i in
            switch self[i] {
            case .plain(let id, let content, let size, let hidden): Row(id: id, content: content, size: size, hidden: hidden)
            case .whole(let row): row
            }
        }
    }
}
