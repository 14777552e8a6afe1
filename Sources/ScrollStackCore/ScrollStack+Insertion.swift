extension ScrollStack {
    /// Inserts `rows` as one block at `location`, in input order.
    ///
    /// Emits `rowAdded` for each row with its final index, in input order.
    ///
    /// - Throws: `emptyBatch` (`rows`); a row's own rule (`rows[i].…`); `duplicateID`
    ///   (`rows[i].id`); `indexOutOfRange` (`at.index`); `unknownRow` (`at.before`, `at.after`).
    /// - Complexity: O(k + log n) expected for k rows, plus measuring fit rows.
    @discardableResult
    public mutating func insert(_ rows: [Row], at location: InsertLocation = .bottom) throws(StackError) -> OperationResult {
        guard !rows.isEmpty else { throw StackError(.emptyBatch, "must hold at least one row", field: "rows") }
        try Self.validateNewRows(rows, field: "rows", existing: tree)
        try checkTitles(rows, field: { "rows[\($0)].title.width" })
        try checkMeasurable(rows, field: "rows")
        let index = try insertionIndex(location)
        let before = self.before
        tree.insert(rows, lengths: naturalLengths(of: rows), at: index)
        var result = OperationResult(reserving: rows.count + 3)
        // Through the buffer: `rows[i]` copied the whole `Row` per row.
        rows.withUnsafeBufferPointer { rows in
            for offset in rows.indices {
                result.events.append(.rowAdded(id: rows[offset].id, index: index + offset))
                result.changed.append(rows[offset].id)
            }
        }
        finish(&result, since: before)
        return result
    }

    /// The index the first inserted row will have. O(log n).
    func insertionIndex(_ location: InsertLocation) throws(StackError) -> Int {
        switch location {
        case .top:
            return 0
        case .bottom:
            return count
        case .index(let index):
            guard index >= 0 && index <= count else { throw .indexOutOfRange(index, 0...count, field: "at.index") }
            return index
        case .before(let reference):
            return tree.index(of: try node(for: reference, field: "at.before"))
        case .after(let reference):
            return tree.index(of: try node(for: reference, field: "at.after")) + 1
        }
    }
}
