extension ScrollStack {
    /// Checks, in debug builds only, every invariant the model keeps: tree links, heap
    /// order, aggregates and id map; each row's stored length against a fresh measurement;
    /// the rows' own rules; the recorded visibility states against a fresh window.
    /// Traps on the first violation. Does nothing in release builds.
    ///
    /// - Complexity: O(n).
    public func checkInvariants() {
        #if DEBUG
        tree.checkInvariants()
        tree.forEachInOrder { n in
            let row = tree.row(n)
            precondition((try? row.validate(prefix: "")) != nil, "row \(row.id) breaks a row rule")
            precondition(tree[n].length == naturalLength(of: row), "row \(row.id): stale length")
        }
        precondition(visibleStates == currentVisibleStates(), "recorded visibility differs from the window")
        #endif
    }
}
