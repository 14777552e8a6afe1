/// Builds a stack from rows given one at a time into the stack's columns (plain rows a few
/// thousand at a time, column by column): no array of rows is kept, and each id is hashed
/// once. `ScrollStack(settings:rows:…)` is this
/// builder over an array; decoders that produce rows one by one (a snapshot's) append them
/// as they come. The id index is built once at the end, in slot order (`IDIndex.build`).
///
/// Every rule of `ScrollStack(settings:rows:…)` holds, with the same errors in the same
/// order: `append` checks a row on its own (fields `rows[i]…`), reporting instead a repeated
/// id among the rows before it if there is one; `build` checks that the ids are unique, then
/// titles and measurable contents in row order, measures `fit` rows and lays the stack out.
/// A failed `append` adds nothing.
///
/// - Complexity: O(1) per `append` (plus the size of the row's content description; O(i)
///   for a failing one); `build` O(n) expected plus measuring the rows that need it.
public struct ScrollStackBuilder: Sendable {
    private var stack: ScrollStack
    /// Handles (= positions) of rows with a title, with a content description, and with a
    /// `fit` length along the scroll axis: the checks and measurements `build` makes.
    private var titled: [Int32] = []
    private var described: [Int32] = []
    private var fitted: [Int32] = []
    /// Plain rows appended since the last flush, stored column by column a batch at a time
    /// (`RowStore.appendPlain`): cheaper than a row at a time into the paged columns.
    private var pending = RowBatch()
    /// The most plain rows kept pending.
    static let pendingLimit = 4096

    /// A builder of a stack with `settings`, room made for `capacity` rows.
    ///
    /// - Throws: what `ScrollStack(settings:rows:…)` throws for the settings and menu fonts.
    public init(settings: StackSettings = StackSettings(), measurer: any ContentMeasuring = FlexMeasurer(),
                titleMeasurer: (any TitleMeasuring)? = nil, capacity: Int = 0) throws(StackError) {
        stack = try ScrollStack(settings: settings, measurer: measurer, titleMeasurer: titleMeasurer)
        stack.tree.store.reserve(capacity)
    }

    /// Rows appended so far.
    public var count: Int { stack.tree.store.ids.count + pending.count }

    /// Appends `row` after the rows before it. O(1) expected.
    ///
    /// - Throws: the row's own rule errors under `rows[i]`, or `duplicateID` naming
    ///   `rows[i].id` when an earlier row has its id.
    public mutating func append(_ row: Row) throws(StackError) {
        flushPending()
        let i = count
        do { try row.validate(prefix: "") } catch {
            // A repeated id among the rows before comes first, as in row-by-row validation.
            throw firstDuplicate(before: i) ?? error.nested(under: "rows[\(i)]")
        }
        let fits = row.size[stack.settings.axis] == .fit
        let h = stack.tree.store.add(row, length: fits ? 0 : stack.naturalLength(of: row), indexed: false)
        if row.title != nil { titled.append(h) }
        if row.contentDescription != nil { described.append(h) }
        if fits { fitted.append(h) }
    }

    /// Appends a row given by its fields, for a row with none of the rarely set ones (no
    /// content description, insets, separator override, title or transition; neither
    /// tappable nor highlightable): `append(Row(id:content:size:hidden:))` without the `Row`
    /// value. Decoders call this for such rows and `append(_:)` for the others. O(1) expected.
    ///
    /// - Throws: what `append(_:)` throws for that row.
    public mutating func append(id: String, content: RowContent, size: SizeRule, hidden: Bool = false) throws(StackError) {
        let axis = stack.settings.axis
        // A valid fixed size on both axes needs no measuring; anything else takes the
        // general path, which checks the row and names its error.
        guard !id.isEmpty, !content.typeName.isEmpty, case .fixed(let length) = size[axis],
              case .fixed(let cross) = size[axis.cross], Check.isLength(length), Check.isLength(cross) else {
            return try append(Row(id: id, content: content, size: size, hidden: hidden))
        }
        pending.append(id: id, content: content, size: size, hidden: hidden)
        if pending.count == Self.pendingLimit { flushPending() }
    }

    /// Stores the pending plain rows, in order, after the rows stored before them.
    private mutating func flushPending() {
        guard !pending.isEmpty else { return }
        let axis = stack.settings.axis
        _ = stack.tree.store.appendPlain(pending, axis: axis, insets: stack.settings.rowInsets.total(axis))
        pending.removeAll()
    }

    /// The ids appended so far, in order.
    public var ids: [String] { Array(stack.tree.store.ids) + pending.ids }

    /// The stack of the rows appended, in order; its initial visibility is recorded without
    /// events. O(n) plus measuring `fit` rows.
    ///
    /// - Throws: a title or content error of the first row (in order) that has one.
    public consuming func build() throws(StackError) -> ScrollStack {
        flushPending()
        if !stack.tree.store.indexAll() { throw firstDuplicate(before: count)! }
        for h in titled {
            try stack.checkTitles([stack.tree.row(h)], field: { _ in "rows[\(h)].title.width" })
        }
        for h in described {
            try stack.measurer.check(stack.tree.row(h).contentDescription!, field: "rows[\(h)].content")
        }
        if fitted.count > 1 && stack.measurer.prepares {
            stack.measurer.prepare(fitted.compactMap { stack.tree.store.fitContent($0) })
        }
        for h in fitted { stack.tree.store.setLength(stack.naturalLength(of: stack.tree.row(h)), of: h) }
        stack.tree.adoptStoredRows()
        stack.visibleStates = stack.currentVisibleStates()
        return stack
    }

    /// The error for the first row among the first `limit` whose id an earlier row has, if
    /// any. O(limit) expected; only on an error path.
    private func firstDuplicate(before limit: Int) -> StackError? {
        let ids = stack.tree.store.ids
        var seen = IDIndex()
        for i in 0..<limit {
            if let first = seen.insertIfAbsent(ids[i], handle: Int32(i), keys: ids) {
                return StackError(.duplicateID, "the id \"\(ids[i])\" is used by rows[\(first)] too", field: "rows[\(i)].id")
            }
        }
        return nil
    }
}
