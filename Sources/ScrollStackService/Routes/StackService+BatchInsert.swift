import ScrollStackCore

extension StackService {
    /// The rows of an insert body (`POST …/rows`), decoded straight into a `RowBatch` as
    /// they are read: a plain row goes in as its fields, with no `Row` value. Rows without an
    /// id get the next one `RowIDGenerator` makes for revision `revision` + 1 that neither
    /// the stack nor an earlier row of the body has; the set of the earlier rows' ids is made
    /// only when such a row comes. The first decoding error is thrown as it is found.
    ///
    /// - Complexity: O(k) for k rows, plus O(k) once if a row has no id.
    func insertedRows(_ rows: RowFields, into stack: ScrollStack, stackID: String, revision: Int) throws(APIError) -> RowBatch {
        var batch = RowBatch(capacity: rows.count)
        var used: Set<String>?
        var ids = RowIDGenerator(stack: stackID, revision: revision + 1)
        for i in 0..<rows.count {
            let row = try rows.row(i, maxDepth: limits.maxJSONDepth, maxTitle: limits.maxTitleCharacters, defaults: stack.settings) {
                if used == nil { used = Set(batch.ids) }
                return ids.next { used!.contains($0) || stack.row(id: $0) != nil }
            }
            used?.insert(row.id)
            switch row {
            case .plain(let id, let content, let size, let hidden): batch.append(id: id, content: content, size: size, hidden: hidden)
            case .full(let row): batch.append(row)
            }
        }
        return batch
    }
}
