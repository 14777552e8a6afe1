extension ScrollStack {
    /// Whether `validateNewRows` would accept `rows`, checked in bulk for a large batch: each
    /// row's own rules, then the batch's ids against each other in one pass in slot order
    /// (`IDIndex.build`), then against `existing`. When it answers false,
    /// `validateNewRows` checks row by row to name the first error, so errors and their
    /// order do not depend on this shortcut.
    ///
    /// - Complexity: O(k) expected for k rows.
    static func batchIsValid(_ rows: [Row], existing: RowTree?, replacing: String?) -> Bool {
        for i in rows.indices {
            guard (try? rows[i].validate(prefix: "")) != nil else { return false }
        }
        let ids = rows.map(\.id)
        var seen = IDIndex()
        guard seen.build(keys: ids) else { return false }
        guard let existing, existing.count > 0 else { return true }
        for id in ids where existing.node(id: id) != nil && id != replacing { return false }
        return true
    }
}
