extension ScrollStack {
    /// Every row's layout in order, handed to `body` one at a time instead of gathered in
    /// an array: the same values as `layout(offset:).rows`, for callers that encode or
    /// reduce them as they come.
    ///
    /// - Complexity: O(n), one pass over the rows' columns; rows at their defaults (no own
    ///   insets or separator) skip every per-row lookup but their length and hidden flag.
    public func forEachRowLayout(offset: Point? = nil, _ body: (RowLayout) -> Void) {
        let viewport = Rect(origin: offset ?? settings.offset, size: settings.viewport)
        let lastShown = tree.lastShown()
        let defaultInsets = settings.rowInsets
        let defaultStyle = settings.separator.applying(.none)
        let store = tree.store
        var prefix = RowTree.Prefix()
        store.lengths.withReader { lengths in
            store.hidden.withReader { hidden in
                store.extras.withReader { extras in
                    tree.forEachInOrder { n in
                        let i = Int(n)
                        let node = RowTree.Node(length: lengths[i], hidden: hidden[i])
                        let layout: RowLayout
                        if let extra = extras[i] {
                            layout = rowLayout(n, node: node, insets: extra.insets ?? defaultInsets, style: settings.separator.applying(extra.separator),
                                               prefix: prefix, lastShown: lastShown, viewport: viewport)
                        } else {
                            layout = rowLayout(n, node: node, insets: defaultInsets, style: defaultStyle,
                                               prefix: prefix, lastShown: lastShown, viewport: viewport)
                        }
                        body(layout)
                        prefix.count += 1
                        prefix.length += node.hidden ? 0 : node.length
                        prefix.shown += node.hidden ? 0 : 1
                    }
                }
            }
        }
    }
}
