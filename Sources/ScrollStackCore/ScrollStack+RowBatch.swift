extension ScrollStack {
    /// Inserts the rows of `batch` as one block at `location`, in order: what
    /// `insert(batch.rows, at: location)` does (the same checks, errors, events and
    /// resulting stack), without a `Row` value per plain row. The batch is checked in bulk
    /// (`batchIsValid`, or while the index is built afresh when the stack is the smaller);
    /// only when that finds a fault are its rows checked one by one, to name the first
    /// error as `insert(_: [Row], at:)` does.
    ///
    /// - Throws: what `insert(_: [Row], at:)` throws.
    /// - Complexity: O(k + min(k, n) + log n) expected for k rows into n, plus measuring
    ///   `fit` rows and the O(C) splice of chunks (`RowTree.insert(handles:at:)`).
    @discardableResult
    public mutating func insert(_ batch: RowBatch, at location: InsertLocation = .bottom) throws(StackError) -> OperationResult {
        guard !batch.isEmpty else { throw StackError(.emptyBatch, "must hold at least one row", field: "rows") }
        // Into a smaller stack with no freed handle, the ids are checked for repeats as the
        // stack's index is built afresh over stack and batch, one hash per id; otherwise in
        // bulk first (`batchIsValid`), then the batch's ids join the index.
        let buildsIndex = tree.store.isDense && tree.count < batch.count
        if buildsIndex {
            if batch.wholeRows.contains(where: { (try? $0.validate(prefix: "")) == nil }) {
                try Self.validateNewRows(batch.rows, field: "rows", existing: tree)
            }
        } else if !batchIsValid(batch) {
            try Self.validateNewRows(batch.rows, field: "rows", existing: tree)
        }
        let index: Int
        do throws(StackError) {
            // Only rows kept whole can have a title or a content description.
            let positions = batch.wholePositions
            try checkTitles(batch.wholeRows, field: { "rows[\(positions[$0])].title.width" })
            for (k, row) in batch.wholeRows.enumerated() {
                guard let description = row.contentDescription else { continue }
                try measurer.check(description, field: "rows[\(positions[k])].content")
            }
            index = try insertionIndex(location)
        } catch {
            // A repeated id, not yet ruled out when the index is to be built, comes first.
            if buildsIndex { try Self.validateNewRows(batch.rows, field: "rows", existing: tree) }
            throw error
        }
        let before = self.before
        let stored = tree.store.ids.count
        if tree.count == 0 { tree.store.reserve(batch.count) }
        let axis = settings.axis
        let insets = settings.rowInsets.total(axis)
        var handles: [RowTree.NodeID] = []
        if batch.isAllPlain && batch.count >= Self.columnBatchMinimum && tree.store.isDense {
            handles = Array(tree.store.appendPlain(batch, axis: axis, insets: insets))
        } else {
            handles.reserveCapacity(batch.count)
            if batch.wholeRows.count > 1 { prepareMeasuring(batch.wholeRows) }
            batch.ids.withUnsafeBufferPointer { ids in
                batch.fields.withUnsafeBufferPointer { fields in
                    // Each field read in place: a copy of a row's `Fields` cost more than storing it.
                    for i in 0..<ids.count {
                        let whole = fields[i].whole
                        if whole >= 0 {
                            let row = batch.wholeRows[Int(whole)]
                            handles.append(tree.store.add(row, length: naturalLength(of: row), indexed: false))
                        } else {
                            // A plain row's size is fixed on both axes (`RowBatch`).
                            let size = fields[i].size
                            let length = axis == .vertical ? size.vertical : size.horizontal
                            handles.append(tree.store.add(id: ids[i], content: batch.contents[Int(fields[i].content)], size: size,
                                                          hidden: fields[i].hidden, extras: nil, frameStyle: nil,
                                                          length: insets + length, indexed: false))
                        }
                    }
                }
            }
        }
        if !buildsIndex {
            tree.store.index(handles)
        } else if !tree.store.reindexAll() {
            tree.store.removeUnindexed(from: stored)
            try Self.validateNewRows(batch.rows, field: "rows", existing: tree)
            preconditionFailure("two rows have one id, which row-by-row validation does not find")
        }
        tree.insert(handles: handles, at: index)
        var result = OperationResult(reserving: batch.count + 3)
        result.changed.reserveCapacity(batch.count)
        for (offset, id) in batch.ids.enumerated() {
            result.events.append(.rowAdded(id: id, index: index + offset))
            result.changed.append(id)
        }
        finish(&result, since: before)
        return result
    }

    /// The fewest rows a batch stores column by column (`RowStore.appendPlain`); a smaller
    /// one is stored row by row, where the column path's tables would cost more than they save.
    static var columnBatchMinimum: Int { 64 }

    /// Whether `validateNewRows(batch.rows, …, existing: tree)` would accept the batch,
    /// checked in bulk: the rows kept whole on their own (plain rows are valid by
    /// construction), the batch's ids against each other (`IDIndex.build`, in slot order),
    /// then against the stack's: the batch's ids looked up in the stack, or the stack's in
    /// the batch's index when the stack is the smaller.
    ///
    /// - Complexity: O(k + min(k, n)) expected for k rows into n.
    func batchIsValid(_ batch: RowBatch) -> Bool {
        for row in batch.wholeRows where (try? row.validate(prefix: "")) == nil { return false }
        let ids = batch.ids
        guard ids.count > 1 else { return tree.node(id: ids[0]) == nil }
        var seen = IDIndex()
        guard seen.build(keys: ids) else { return false }
        guard tree.count > 0 else { return true }
        if tree.count < ids.count {
            // Removed rows' slots hold "", which no batch id is.
            for id in tree.store.ids where seen.find(id, keys: ids) != nil { return false }
            return true
        }
        for id in ids where tree.node(id: id) != nil { return false }
        return true
    }
}
