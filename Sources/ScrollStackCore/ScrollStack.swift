/// A scrollable stack of rows and its layout: the model behind one ScrollStack screen.
///
/// Every operation validates all of its input first and then either applies whole or
/// throws a ``StackError`` and changes nothing. Every successful operation returns the
/// ordered ``StackEvent``s it caused, visibility changes included.
///
/// Rows are kept in chunks under a segment tree of summed lengths (see `RowTree`), so id ↔
/// index lookups, offset → row, and single-row changes cost O(log n) plus a scan of one chunk
/// of at most 256 rows; the visible window costs
/// O(log n + k) for k rows in or leaving it; a full layout is O(n).
public struct ScrollStack: Sendable {
    /// The stack-level settings.
    public internal(set) var settings: StackSettings
    var tree = RowTree()
    /// The rows that were partial or entire after the last operation, in row order, with
    /// their visibility; rows not in here were offscreen, hidden or not yet seen.
    var visibleStates: [VisibleState] = []
    let measurer: any ContentMeasuring
    /// Measures menu titles (the service plugs its text engine in); without one, titled rows
    /// must give their item widths (see `checkTitles`).
    public let titleMeasurer: (any TitleMeasuring)?

    /// A stack holding `rows` in order. Initial visibility is recorded without events.
    ///
    /// - Complexity: O(n) for n rows (plus measuring fit rows), through `ScrollStackBuilder`.
    public init(settings: StackSettings = StackSettings(), rows: [Row] = [], measurer: any ContentMeasuring = FlexMeasurer(),
                titleMeasurer: (any TitleMeasuring)? = nil) throws(StackError) {
        var builder = try ScrollStackBuilder(settings: settings, measurer: measurer, titleMeasurer: titleMeasurer, capacity: rows.count)
        for i in rows.indices { try builder.append(rows[i]) }
        self = try builder.build()
    }

    /// An empty stack with `settings`, checked with the menu fonts. O(1).
    init(settings: StackSettings, measurer: any ContentMeasuring, titleMeasurer: (any TitleMeasuring)?) throws(StackError) {
        try settings.validate()
        self.settings = settings
        self.measurer = measurer
        self.titleMeasurer = titleMeasurer
        try checkMenuFonts(settings.menu)
    }

    // MARK: Basic reading

    /// The number of rows, hidden ones included. O(1).
    public var count: Int { tree.count }

    /// The ids of the stacks this stack's rows embed (`Row.stack`), each once. O(1) to get;
    /// kept up to date by every operation.
    public var embeddedStacks: Dictionary<String, Int>.Keys { tree.store.embedded.keys }

    /// How many rows embed each stack (`embeddedStacks` with counts). O(1).
    public var embeddedStackCounts: [String: Int] { tree.store.embedded }

    /// The stack each row that embeds one embeds, by the row's index. O(n): one read of each
    /// row's extras pointer, in order (cheaper than `embeddedStack(ofRow:)` for every row of a
    /// full layout); O(1) when no row embeds a stack.
    public func embeddingRows() -> [Int: String] {
        guard !tree.store.embedded.isEmpty else { return [:] }
        var rows: [Int: String] = [:]
        var index = 0
        tree.forEachInOrder { n in
            if let stack = tree.store.extras[Int(n)]?.stack { rows[index] = stack }
            index += 1
        }
        return rows
    }

    /// The stack the row with `id` embeds, if any. O(1) expected.
    public func embeddedStack(ofRow id: String) -> String? {
        tree.node(id: id).flatMap { tree.store.extras[Int($0)]?.stack }
    }

    /// Whether the stack has no rows; hidden rows count as rows. O(1).
    public var isEmpty: Bool { tree.count == 0 }

    /// The row at `index`. O(log n).
    public func row(at index: Int) -> Row { tree.row(tree.node(at: index)) }

    /// The row with `id`. O(1) expected.
    public func row(id: String) -> Row? { tree.node(id: id).map(tree.row) }

    /// The index of the row with `id`. O(log n).
    public func index(ofID id: String) -> Int? { tree.locate(id: id)?.index }

    /// The first row, hidden or not. O(log n).
    public var firstRow: Row? { isEmpty ? nil : row(at: 0) }

    /// The last row, hidden or not. O(log n).
    public var lastRow: Row? { isEmpty ? nil : row(at: count - 1) }

    /// Calls `body` with every row in order, without gathering them into an array (what
    /// `rows` costs: one `Row` of a few hundred bytes per row, held at once). O(n).
    public func forEachRow(_ body: (Row) -> Void) {
        tree.forEachInOrder { body(tree.row($0)) }
    }

    /// Every row in order as a batch element: `.plain` (id, content, size, hidden flag) for
    /// a row that sets nothing else, read from the columns without making a `Row` (what an
    /// encoder of every row needs: a snapshot), `.whole` otherwise. O(n).
    public func forEachRowElement(_ body: (RowBatch.Element) -> Void) {
        tree.forEachInOrder { body(tree.store.element($0)) }
    }

    /// Every row in order. O(n).
    public var rows: [Row] {
        var result: [Row] = []
        result.reserveCapacity(count)
        tree.forEachInOrder { result.append(tree.row($0)) }
        return result
    }

    /// Resolves a reference to its row and index. O(log n).
    ///
    /// - Throws: `unknownRow` naming `field`.
    public func resolve(_ reference: RowReference, field: String? = nil) throws(StackError) -> (row: Row, index: Int) {
        let node = try node(for: reference, field: field)
        return (tree.row(node), tree.index(of: node))
    }

    func node(for reference: RowReference, field: String?) throws(StackError) -> RowTree.NodeID {
        switch reference {
        case .id(let id):
            guard let node = tree.node(id: id) else { throw .unknownRow(reference, field: field) }
            return node
        case .index(let index):
            guard index >= 0 && index < count else { throw .unknownRow(reference, field: field) }
            return tree.node(at: index)
        }
    }

    // MARK: Lengths

    /// The insets in force for `row`.
    func insets(of row: Row) -> EdgeInsets { row.insets ?? settings.rowInsets }

    /// The extent across the scroll axis of `row`'s content: the rows' (`crossExtent`), less the insets.
    func contentCrossExtent(of row: Row) -> Double {
        let axis = settings.axis
        return Swift.max(0, settings.crossExtent - insets(of: row).total(axis.cross))
    }

    /// The content length along the scroll axis, from the size rule.
    func contentLength(of row: Row) -> Double {
        let axis = settings.axis
        switch row.size[axis] {
        case .fixed(let length):
            return length
        case .fit:
            if let embedded = row.stack {
                // A non-scrolling section: as long as the embedded stack's content.
                let measured = measurer.embeddedLength(of: embedded, along: axis, crossExtent: contentCrossExtent(of: row)) ?? 0
                return measured.isFinite ? Swift.max(0, measured) : 0
            }
            guard let description = row.contentDescription else { return 0 }
            let measured = measurer.length(of: description, along: axis, crossExtent: contentCrossExtent(of: row))
            return measured.isFinite ? Swift.max(0, measured) : 0
        }
    }

    /// Tells the measurer the content of `rows` that `naturalLength(of:)` is about to
    /// measure (fit rows that embed no stack), so it may measure ahead
    /// (`ContentMeasuring.prepare`). O(1) unless the measurer prepares; then O(rows).
    func prepareMeasuring(_ rows: [Row]) {
        guard measurer.prepares else { return }
        let axis = settings.axis
        var contents: [ContentDescription] = []
        for i in rows.indices {
            guard case .fit = rows[i].size[axis], rows[i].stack == nil, let content = rows[i].contentDescription else { continue }
            contents.append(content)
        }
        measurer.prepare(contents)
    }

    /// The row's length along the scroll axis as if it were shown: leading inset + content + trailing inset.
    func naturalLength(of row: Row) -> Double {
        insets(of: row).total(settings.axis) + contentLength(of: row)
    }

    /// The indexes, in order, of the fit rows embedding `id` (any stack when nil) whose length
    /// differs from what measuring them now gives (the embedded stack changed, or was not
    /// there when they were measured): what a `reload` of them updates.
    ///
    /// - Complexity: O(n) to find the embedding rows, plus a measure of each fit one.
    public func staleFitRows(embedding id: String? = nil) -> [Int] {
        var stale: [Int] = []
        for (index, stack) in embeddingRows() where id == nil || stack == id {
            let row = self.row(at: index)
            guard case .fit = row.size[settings.axis] else { continue }
            if naturalLength(of: row) != tree[tree.node(at: index)].length { stale.append(index) }
        }
        return stale.sorted()
    }

    // MARK: Validation shared by operations

    /// Checks with the measurer that each row's content can be measured. O(nodes).
    func checkMeasurable(_ rows: [Row], field: String?) throws(StackError) {
        // By index: a `Row` copied per iteration cost more than the check.
        for i in rows.indices {
            guard let description = rows[i].contentDescription else { continue }
            try measurer.check(description, field: (field.map { "\($0)[\(i)]." } ?? "") + "content")
        }
    }

    /// Checks new rows on their own and their ids against each other and, unless nil,
    /// against `existing` (ids in the stack that are allowed to clash: none, so pass the
    /// stack). O(k) expected, each id hashed once per index.
    static func validateNewRows(_ rows: [Row], field: String, existing: RowTree?, replacing: String? = nil) throws(StackError) {
        if rows.count >= 1024, batchIsValid(rows, existing: existing, replacing: replacing) { return }
        // The batch's own ids, by position in `rows` (a lone row cannot repeat one).
        var seen = IDIndex()
        if rows.count > 1 { seen.reserve(rows.count) }
        let ids = rows.lazy.map(\.id)
        for i in rows.indices {
            // A row's path is built only for an error: for every row it cost more than the checks.
            do { try rows[i].validate(prefix: "") } catch { throw error.nested(under: "\(field)[\(i)]") }
            let id = rows[i].id
            if rows.count > 1, let first = seen.insertIfAbsent(id, handle: Int32(i), keys: ids) {
                throw StackError(.duplicateID, "the id \"\(id)\" is used by \(field)[\(first)] too", field: "\(field)[\(i)].id")
            }
            if let existing, existing.node(id: id) != nil, id != replacing {
                throw StackError(.duplicateID, "a row with the id \"\(id)\" already exists", field: "\(field)[\(i)].id")
            }
        }
    }

    /// Resolves a batch of references against the current state; rejects empty batches and
    /// two references to the same row. O(k log n).
    func resolveBatch(_ references: [RowReference], field: String) throws(StackError) -> [Target] {
        guard !references.isEmpty else { throw StackError(.emptyBatch, "must name at least one row", field: field) }
        // A lone reference cannot repeat, and its field path is built only for an error.
        if references.count == 1 {
            let reference = references[0]
            guard let target = target(of: reference) else { throw .unknownRow(reference, field: "\(field)[0]") }
            return [target]
        }
        var seen: [RowTree.NodeID: Int] = [:]
        var result: [Target] = []
        result.reserveCapacity(references.count)
        for (i, reference) in references.enumerated() {
            guard let target = target(of: reference) else { throw .unknownRow(reference, field: "\(field)[\(i)]") }
            if let first = seen[target.node] {
                throw .invalid("names the same row as \(field)[\(first)]", field: "\(field)[\(i)]")
            }
            seen[target.node] = i
            result.append(target)
        }
        return result
    }

    /// A row an operation names: its node, its index and where it sits (valid until the
    /// rows change).
    typealias Target = (node: RowTree.NodeID, index: Int, cursor: RowTree.Cursor)

    /// The row a reference names, or nil when there is no such row. O(log n): an index
    /// reference is its own index, and one descent finds its node and cursor.
    func target(of reference: RowReference) -> Target? {
        switch reference {
        case .id(let id):
            return tree.locate(id: id)
        case .index(let index):
            guard index >= 0 && index < count else { return nil }
            let cursor = tree.cursor(at: index)
            return (tree.node(at: cursor), index, cursor)
        }
    }
}
