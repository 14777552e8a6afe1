extension ScrollStack {
    /// The layout of the rows at `indexes` (clamped to the rows there are), against the
    /// viewport placed at `offset` (default: the current one): one page of `layout(offset:)`.
    ///
    /// - Complexity: O(log n + B + k) for k rows in the page (B the chunk size of `RowTree`):
    ///   one descent to the first row, its prefix, then a walk in order.
    public func layout(offset: Point? = nil, rows indexes: Range<Int>) -> StackLayout {
        let viewport = Rect(origin: offset ?? settings.offset, size: settings.viewport)
        let range = indexes.clamped(to: 0..<count)
        var rows: [RowLayout] = []
        rows.reserveCapacity(range.count)
        if !range.isEmpty {
            let lastShown = tree.lastShown()
            let first = tree.cursor(at: range.lowerBound)
            var prefix = tree.prefix(before: tree.node(at: first))
            tree.walk(from: first) { n in
                rows.append(rowLayout(n, prefix: prefix, lastShown: lastShown, viewport: viewport))
                advance(&prefix, past: tree[n])
                return rows.count < range.count
            }
        }
        return StackLayout(axis: settings.axis, viewport: settings.viewport, offset: viewport.origin, contentSize: contentSize, rows: rows)
    }
}
