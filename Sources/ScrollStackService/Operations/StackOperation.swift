import ScrollStackCore

/// One change to a stack, as decoding a request resolves it against the stack's state:
/// generated row ids, a PATCH merged into the whole row or the whole settings, a settle or
/// a menu selection turned into its offset. Applying it is what the request did; the journal
/// keeps it (`OperationRecord`) and a replay applies it again, with no request in sight.
enum StackOperation: Sendable {
    case insert([Row], at: InsertLocation)
    /// `POST …/rows`: the rows as decoded, without a `Row` per plain row. Journaled as the
    /// `insert` of the same rows (the same bytes; a replay reads back `insert`).
    case insertBatch(RowBatch, at: InsertLocation)
    /// `PUT …/rows/{row}`: the row at `index` becomes `row`.
    case replace(index: Int, row: Row)
    /// `PATCH …/rows/{row}`: `change` applied to the row at `index`. Journaled as `setRow`
    /// (`journaled(after:)`): the merge rules stay the decoder's and the model's.
    case update(index: Int, RowChange)
    /// The row at `index` becomes `row` (its id unchanged), as an update does it.
    case setRow(index: Int, row: Row)
    case remove([RowReference])
    case removeAll
    case move(index: Int, to: Int)
    case setHidden([RowReference], Bool)
    case setInsets([RowReference], EdgeInsets?)
    case reload([RowReference])
    /// `PATCH /v1/stacks/{stack}`: the settings as they become.
    case settings(StackSettings)
    case scroll(ScrollTarget)
    /// `revert`: the settings and rows of revision `to`, taken over whole.
    case revert(to: Int, ScrollStack)
    /// `PUT /v1/stacks/{stack}` on a stack that exists: the settings and rows of the body,
    /// taken over whole.
    case replaceWhole(ScrollStack)

    /// Applies the change; on a throw the stack is as it was.
    ///
    /// - Complexity: the model operation's (`ScrollStack`'s doc comments).
    func apply(to stack: inout ScrollStack) throws(StackError) -> OperationResult {
        switch self {
        case .insert(let rows, let location): try stack.insert(rows, at: location)
        case .insertBatch(let batch, let location): try stack.insert(batch, at: location)
        case .replace(let index, let row): try stack.replace(.index(index), with: row)
        case .update(let index, let change): try stack.update(.index(index), with: change)
        case .setRow(let index, let row): try stack.update(.index(index), with: Self.wholeChange(to: row))
        case .remove(let references): try stack.remove(references)
        case .removeAll: stack.removeAll()
        case .move(let index, let to): try stack.move(.index(index), to: to)
        case .setHidden(let references, let hidden): try stack.setHidden(references, hidden)
        case .setInsets(let references, let insets): try stack.setInsets(references, insets)
        case .reload(let references): try stack.reload(references)
        case .settings(let s): try stack.update(Self.wholeChange(to: s))
        case .scroll(let target): try stack.scroll(to: target)
        case .revert(_, let past): stack.replaceContents(with: past)
        case .replaceWhole(let document): stack.replaceContents(with: document)
        }
    }

    /// The stacks the rows this operation writes embed, each with the JSON path of the
    /// request that named it (a PUT or revert names the document's rows, a PATCH `stack`).
    /// O(rows written).
    var embeddingRequests: [Embeddings.Request] {
        func requests(_ rows: some Sequence<Row>, _ field: String) -> [Embeddings.Request] {
            rows.enumerated().compactMap { i, row in row.stack.map { Embeddings.Request(stack: $0, field: "\(field)[\(i)].stack") } }
        }
        switch self {
        case .insert(let rows, _): return requests(rows, "rows")
        case .insertBatch(let batch, _):
            guard !batch.isAllPlain else { return [] }
            return (0..<batch.count).compactMap { i in
                guard case .whole(let row) = batch[i], let stack = row.stack else { return nil }
                return Embeddings.Request(stack: stack, field: "rows[\(i)].stack")
            }
        case .replace(_, let row), .setRow(_, let row): return row.stack.map { [Embeddings.Request(stack: $0, field: "stack")] } ?? []
        case .update(_, let change):
            guard case .some(.some(let stack)) = change.stack else { return [] }
            return [Embeddings.Request(stack: stack, field: "stack")]
        case .revert(_, let past): return past.embeddedStacks.sorted().map { Embeddings.Request(stack: $0, field: "to") }
        case .replaceWhole(let document):
            return document.embeddedStacks.isEmpty ? [] : requests(document.rows, "rows")
        case .remove, .removeAll, .move, .setHidden, .setInsets, .reload, .settings, .scroll: return []
        }
    }

    /// The form the journal keeps, given the stack just after the change: an `update` becomes
    /// the `setRow` of the row it made; every other case is kept as it is.
    func journaled(after stack: ScrollStack) -> StackOperation {
        guard case .update(let index, _) = self else { return self }
        return .setRow(index: index, row: stack.row(at: index))
    }

    /// The row change that makes any row with `row`'s id into `row`.
    static func wholeChange(to row: Row) -> RowChange {
        var change = RowChange(hidden: row.hidden, insets: .some(row.insets), separator: row.separator, size: row.size,
                               contentDescription: .some(row.contentDescription), content: row.content, tappable: row.tappable,
                               highlightable: row.highlightable, transition: .some(row.transition))
        change.title = .some(row.title)
        change.style = .some(row.style)
        change.stack = .some(row.stack)
        return change
    }

    /// The settings change that makes any settings into `s`.
    static func wholeChange(to s: StackSettings) -> SettingsChange {
        var change = SettingsChange(
            axis: s.axis, viewport: s.viewport, contentInsets: s.contentInsets, offset: s.offset, spacing: s.spacing,
            rowInsets: s.rowInsets, separator: s.separator, autoHideLastRowSeparator: s.autoHideLastRowSeparator
        )
        change.paging = .some(s.paging)
        change.pageIndicator = .some(s.pageIndicator)
        change.menu = .some(s.menu)
        change.crossLength = .some(s.crossLength)
        return change
    }
}
