extension ScrollStack {
    /// Replaces a row in place: the new row takes the same index. The caller decides the new
    /// row's id; it may keep the old one.
    ///
    /// Emits `rowRemoved(old)` then `rowAdded(new)`, both at the row's index; the new row's
    /// visibility starts afresh (so it gets `becameVisible` if it shows).
    ///
    /// - Throws: `unknownRow` (`row`); the new row's own rules (`size.fixed`, …);
    ///   `duplicateID` (`id`) if the new id belongs to another row.
    /// - Complexity: O(log n).
    @discardableResult
    public mutating func replace(_ reference: RowReference, with row: Row) throws(StackError) -> OperationResult {
        let n = try node(for: reference, field: "row")
        try row.validate(prefix: "")
        try checkTitles([row], field: { _ in "title.width" })
        try checkMeasurable([row], field: nil)
        let old = tree.row(n)
        if row.id != old.id, tree.node(id: row.id) != nil {
            throw StackError(.duplicateID, "a row with the id \"\(row.id)\" already exists", field: "id")
        }
        let index = tree.index(of: n)
        let before = self.before
        tree.setRow(row, length: naturalLength(of: row), of: n)
        visibleStates.removeAll { $0.id == old.id }
        var result = OperationResult()
        result.events = [.rowRemoved(id: old.id, index: index), .rowAdded(id: row.id, index: index)]
        result.changed = [row.id]
        result.removed = [(old, index)]
        finish(&result, since: before)
        return result
    }

    /// Moves a row so that it ends at index `destination`; its hidden state is kept (the
    /// original un-hides moved rows).
    ///
    /// Emits `rowMoved(from, to)` unless the row is already there.
    ///
    /// - Throws: `unknownRow` (`row`); `indexOutOfRange` (`to`, 0…count−1).
    /// - Complexity: O(log n).
    @discardableResult
    public mutating func move(_ reference: RowReference, to destination: Int) throws(StackError) -> OperationResult {
        guard let (n, from, cursor) = target(of: reference) else { throw .unknownRow(reference, field: "row") }
        guard destination >= 0 && destination < count else {
            throw .indexOutOfRange(destination, 0...(count - 1), field: "to")
        }
        let before = self.before
        var result = OperationResult(reserving: 4)
        if from != destination {
            tree.move(from: cursor, to: destination)
            result.events.append(.rowMoved(id: tree.id(n), from: from, to: destination))
        }
        result.changed = [tree.id(n)]
        finish(&result, since: before)
        return result
    }

    /// Applies `change` to every referenced row, then re-measures each of them (so an empty
    /// change is a reload). Each resulting row must keep the row rules.
    ///
    /// Emits per row, in the order given: `rowHidden`/`rowShown` if its hidden state changed,
    /// then `rowResized` if its length changed.
    ///
    /// - Throws: `emptyBatch` (`rows`); `unknownRow` or a repeated row (`rows[i]`); a rule the
    ///   changed row breaks (`rows[i].…`).
    /// - Complexity: O(k log n) for k rows, plus measuring fit rows.
    @discardableResult
    public mutating func update(_ references: [RowReference], with change: RowChange) throws(StackError) -> OperationResult {
        let targets = try resolveBatch(references, field: "rows")
        return try apply(change, to: targets, errorPrefix: { "rows[\($0)]" })
    }

    /// Applies `change` to one row, as `update(_:with:)` does, with errors naming the
    /// change's own fields (`size.fixed`, `insets.top`).
    ///
    /// - Throws: `unknownRow` (`row`); a rule the changed row breaks.
    /// - Complexity: O(log n), plus measuring a fit row.
    @discardableResult
    public mutating func update(_ reference: RowReference, with change: RowChange) throws(StackError) -> OperationResult {
        guard let target = target(of: reference) else { throw .unknownRow(reference, field: "row") }
        return try apply(change, to: [target], errorPrefix: { _ in nil })
    }

    private mutating func apply(
        _ change: RowChange, to targets: [Target], errorPrefix: (Int) -> String?
    ) throws(StackError) -> OperationResult {
        if targets.count == 1, let plain = plainChange(change, of: targets[0].node) {
            let (node, index, _) = targets[0]
            let before = self.before
            let old = tree[node]
            tree.setHidden(plain.hidden, size: plain.size, length: plain.length, of: node)
            var result = OperationResult(reserving: 4)
            report(tree.id(node), at: index, from: old, to: tree[node], into: &result)
            finish(&result, since: before)
            return result
        }
        var updated: [Row] = []
        updated.reserveCapacity(targets.count)
        for (i, target) in targets.enumerated() {
            let row = change.applied(to: tree.row(target.node))
            do throws(StackError) {
                try row.validate(prefix: "")
                try checkTitles([row], field: { _ in "title.width" })
                try checkMeasurable([row], field: nil)
            } catch {
                throw errorPrefix(i).map(error.nested(under:)) ?? error
            }
            updated.append(row)
        }
        let before = self.before
        var result = OperationResult()
        for ((node, index, _), row) in zip(targets, updated) {
            let old = tree[node]
            tree.setRow(row, length: naturalLength(of: row), of: node)
            report(row.id, at: index, from: old, to: tree[node], into: &result)
        }
        finish(&result, since: before)
        return result
    }

    /// What a change that sets only `hidden` and `size` leaves the row in `node` with, when
    /// the row has no content description and no title: then no other rule of the row can
    /// change, nothing is measured, and the row is changed in its columns without being
    /// rebuilt. Nil otherwise, and when the new size breaks a rule (the general path then
    /// reports it). O(1).
    private func plainChange(_ change: RowChange, of node: RowTree.NodeID) -> (hidden: Bool, size: SizeRule, length: Double)? {
        // Every field of `RowChange` but `hidden` and `size` must be left alone.
        guard change.insets == nil, change.separator == nil, change.contentDescription == nil, change.content == nil,
              change.tappable == nil, change.highlightable == nil, change.title == nil, change.transition == nil, change.style == nil, change.stack == nil else { return nil }
        let extras = tree.store.extras[Int(node)]
        guard extras?.contentDescription == nil, extras?.title == nil else { return nil }
        let size = change.size ?? tree.store.size(node)
        guard case .fixed(let length) = size[settings.axis], !size.measuresContent, (try? size.validate("size")) != nil else { return nil }
        // `naturalLength(of:)` of the changed row: its insets in force, then its fixed length.
        return (change.hidden ?? tree[node].hidden, size, (extras?.insets ?? settings.rowInsets).total(settings.axis) + length)
    }

    /// Appends the events of one row's change (its hidden state, then its length) and names
    /// it among the changed rows.
    private func report(_ id: String, at index: Int, from old: RowTree.Node, to new: RowTree.Node, into result: inout OperationResult) {
        if old.hidden != new.hidden {
            result.events.append(new.hidden ? .rowHidden(id: id, index: index) : .rowShown(id: id, index: index))
        }
        if old.length != new.length {
            result.events.append(.rowResized(id: id, index: index, from: old.length, to: new.length))
        }
        result.changed.append(id)
    }

    /// Hides or shows rows. O(k log n).
    @discardableResult
    public mutating func setHidden(_ references: [RowReference], _ hidden: Bool) throws(StackError) -> OperationResult {
        try update(references, with: RowChange(hidden: hidden))
    }

    /// Sets the rows' own insets, or clears them with nil so they follow the stack. O(k log n).
    @discardableResult
    public mutating func setInsets(_ references: [RowReference], _ insets: EdgeInsets?) throws(StackError) -> OperationResult {
        try update(references, with: RowChange(insets: .some(insets)))
    }

    /// Re-measures rows (after their content changed outside the model). O(k log n).
    @discardableResult
    public mutating func reload(_ references: [RowReference]) throws(StackError) -> OperationResult {
        try update(references, with: RowChange())
    }
}
