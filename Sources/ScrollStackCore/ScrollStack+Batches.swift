extension ScrollStack {
    /// Whether `validateNewRows` would accept `rows`, checked in bulk for a large batch: each
    /// row's own rules, then the batch's ids against each other in one pass in slot order
    /// (`IDIndex.build`), then against `existing`. When it answers false,
    /// `validateNewRows` checks row by row to name the first error, so errors and their
    /// order do not depend on this shortcut.
    ///
    /// - Complexity: O(k) expected for k rows.
    static func batchIsValid(_ rows: [Row], existing: RowTree?, replacing: String?) -> Bool {
        // Through the buffer: `rows[i]` copied the whole `Row` per row.
        let ids = rows.withUnsafeBufferPointer { rows in
            var ids: [String] = []
            ids.reserveCapacity(rows.count)
            for i in rows.indices {
                guard (try? rows[i].validate(prefix: "")) != nil else { return nil as [String]? }
                ids.append(rows[i].id)
            }
            return ids
        }
        guard let ids else { return false }
        var seen = IDIndex()
        guard seen.build(keys: ids) else { return false }
        guard let existing, existing.count > 0 else { return true }
        for id in ids where existing.node(id: id) != nil && id != replacing { return false }
        return true
    }

    /// The natural length of each of `rows`, in one call: a closure per row that reads the
    /// stack copied the whole `ScrollStack` value (about twenty references) for every row.
    /// O(k) plus measuring `fit` rows.
    func naturalLengths(of rows: [Row]) -> [Double] {
        var lengths: [Double] = []
        lengths.reserveCapacity(rows.count)
        if rows.count > 1 { prepareMeasuring(rows) }
        rows.withUnsafeBufferPointer { rows in
            for i in rows.indices { lengths.append(naturalLength(of: rows[i])) }
        }
        return lengths
    }
}
