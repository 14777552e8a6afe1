extension ScrollStack {
    /// Removes the referenced rows. Every reference is resolved against the state before the
    /// call, so indexes do not drift as rows go (the original's removeRows drifts).
    ///
    /// Emits `rowRemoved` with each row's former index, in the order given. Removed rows emit
    /// no visibility event.
    ///
    /// - Throws: `emptyBatch` (`rows`); `unknownRow` or a repeated row (`rows[i]`).
    /// - Complexity: O(k log n) for k rows.
    @discardableResult
    public mutating func remove(_ references: [RowReference]) throws(StackError) -> OperationResult {
        let targets = try resolveBatch(references, field: "rows")
        let before = self.before
        var result = OperationResult(reserving: targets.count + 3)
        for (node, index, _) in targets {
            let row = tree.row(node)
            result.events.append(.rowRemoved(id: row.id, index: index))
            result.removed.append((row, index))
        }
        if targets.count == 1 {
            // Its cursor is still valid: no row has moved yet.
            tree.remove(at: targets[0].cursor)
        } else {
            for index in targets.map(\.index).sorted(by: >) {
                tree.remove(at: index)
            }
        }
        finish(&result, since: before)
        return result
    }

    /// Removes every row, emitting `rowRemoved` for each in order.
    ///
    /// - Complexity: O(n).
    @discardableResult
    public mutating func removeAll() -> OperationResult {
        let before = self.before
        var result = OperationResult()
        for (index, row) in rows.enumerated() {
            result.events.append(.rowRemoved(id: row.id, index: index))
            result.removed.append((row, index))
        }
        tree.removeAll()
        finish(&result, since: before)
        return result
    }
}
