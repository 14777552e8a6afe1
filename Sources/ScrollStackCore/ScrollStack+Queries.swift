extension ScrollStack {
    /// Rows whose controller has type `type`, in order, with their indexes. O(n).
    public func rows(controllerType type: String) -> [(row: Row, index: Int)] {
        var result: [(Row, Int)] = []
        var index = 0
        tree.forEachInOrder { n in
            let row = tree.row(n)
            if row.controller?.type == type { result.append((row, index)) }
            index += 1
        }
        return result
    }

    /// The first row whose controller has type `type`. O(n) worst case, stops at the first match.
    public func firstRow(controllerType type: String) -> (row: Row, index: Int)? {
        firstRow { $0.controller?.type == type }
    }

    /// The first row whose controller has the instance id `instance`. O(n) worst case.
    public func row(controllerInstance instance: String) -> (row: Row, index: Int)? {
        firstRow { $0.controller?.instance == instance }
    }

    /// The first row, in order, that satisfies `predicate`. O(n) worst case.
    public func firstRow(where predicate: (Row) -> Bool) -> (row: Row, index: Int)? {
        guard !isEmpty else { return nil }
        var found: (row: Row, index: Int)?
        var index = 0
        tree.walk(from: tree.cursor(at: 0)) { n in
            let row = tree.row(n)
            if predicate(row) { found = (row, index) }
            index += 1
            return found == nil
        }
        return found
    }
}
