/// Rows to insert as one block (`ScrollStack.insert(_: RowBatch, at:)`), kept as their fields
/// rather than as `Row` values: a row that sets none of the rarely set fields (content
/// description, insets, separator override, title, transition, style, tappable, highlightable) and
/// whose id, type and fixed sizes are valid is stored as its id, content, size and hidden
/// flag; any other row (one that breaks a rule included) is kept whole, so that the insert
/// names its error exactly as `insert(_: [Row], at:)` does. Decoders append rows as they
/// read them, with no array of `Row` in between.
///
/// - Complexity: `append` O(1) amortized; `rows` O(k).
public struct RowBatch: Sendable {
    /// The ids in order: the keys of the batch's bulk id checks.
    public private(set) var ids: [String] = []
    /// Everything but the id, per row, in order: plain old data, so that inserting a batch
    /// copies a row's fields column by column without retaining or releasing anything.
    private(set) var fields: [Fields] = []
    /// The contents of the plain rows, a run of equal ones stored once (`Fields.content`
    /// names an entry): a batch of a million cells of one type holds one copy of it.
    private(set) var contents: [RowContent] = []
    /// The rows kept whole, in order, and their positions in the batch.
    private(set) var wholeRows: [Row] = []
    private(set) var wholePositions: [Int] = []

    /// A row's fields besides its id. For a plain row, `content` names its entry in
    /// `contents` and `size` holds its two fixed lengths; `whole` ≥ 0 names a row kept whole
    /// in `wholeRows` (the other fields are then unused).
    struct Fields: Sendable {
        var content: Int32
        var size: RowStore.PackedSize
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

    /// Whether every row is plain (none kept whole): the batch can then be stored column by
    /// column (`RowStore.appendPlain`).
    public var isAllPlain: Bool { wholeRows.isEmpty }

    /// Appends the row `Row(id:content:size:hidden:)` without making it. O(1) amortized
    /// (one comparison of `content` with the previous plain row's).
    public mutating func append(id: String, content: RowContent, size: SizeRule, hidden: Bool = false) {
        // The checks of `Row.validate` for a row with only these fields, both lengths fixed
        // (nothing to measure); a row that fails one is kept whole, to name its error.
        guard !id.isEmpty, !content.typeName.isEmpty, case .fixed(let vertical) = size.vertical,
              case .fixed(let horizontal) = size.horizontal, Check.isLength(vertical), Check.isLength(horizontal) else {
            return appendWhole(Row(id: id, content: content, size: size, hidden: hidden))
        }
        if contents.isEmpty || contents[contents.count - 1] != content { contents.append(content) }
        ids.append(id)
        fields.append(Fields(content: Int32(contents.count - 1), size: RowStore.PackedSize(vertical: vertical, horizontal: horizontal),
                             hidden: hidden, whole: -1))
    }

    /// Removes every row, keeping the room made for them.
    mutating func removeAll() {
        ids.removeAll(keepingCapacity: true)
        fields.removeAll(keepingCapacity: true)
        contents.removeAll(keepingCapacity: true)
        wholeRows.removeAll(keepingCapacity: true)
        wholePositions.removeAll(keepingCapacity: true)
    }

    /// Appends `row`, by its fields when it has none of the rarely set ones. O(1) amortized.
    public mutating func append(_ row: Row) {
        let rare = row.contentDescription != nil || row.insets != nil || !row.separator.isEmpty || row.tappable
            || row.highlightable || row.title != nil || row.transition != nil || row.style != nil || row.stack != nil
        if rare { appendWhole(row) } else { append(id: row.id, content: row.content, size: row.size, hidden: row.hidden) }
    }

    private mutating func appendWhole(_ row: Row) {
        ids.append(row.id)
        fields.append(Fields(content: -1, size: RowStore.PackedSize(vertical: 0, horizontal: 0), hidden: row.hidden,
                             whole: Int32(wholeRows.count)))
        wholePositions.append(ids.count - 1)
        wholeRows.append(row)
    }

    /// The row at `i`. O(1).
    public subscript(i: Int) -> Element {
        let f = fields[i]
        return f.whole >= 0
            ? .whole(wholeRows[Int(f.whole)])
            : .plain(id: ids[i], content: contents[Int(f.content)], size: f.size.rule, hidden: f.hidden)
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
