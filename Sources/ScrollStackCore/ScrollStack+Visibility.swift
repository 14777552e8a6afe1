extension ScrollStack {
    /// What an operation compares against when it finishes.
    struct Before {
        var contentSize: Size
        var offset: Point
    }

    var before: Before { Before(contentSize: contentSize, offset: settings.offset) }

    /// The states of the rows that are partial or entire now, by id. O(log n + k).
    func currentVisibleStates() -> [String: Visibility] {
        var states: [String: Visibility] = [:]
        for layout in window(in: viewportRect) { states[layout.id] = layout.visibility }
        return states
    }

    /// Appends the events every operation ends with: `layoutUpdated`, `contentSizeChanged`,
    /// `didScroll`, then the visibility transitions in row order, and records the new states.
    ///
    /// Transitions that emit (the original's table, plus offscreen → entire and
    /// entire → offscreen, which it misses):
    /// - not visible (never seen, offscreen, hidden) → partial or entire: `becameVisible`;
    /// - partial → entire: `becameVisible`;
    /// - entire → partial: `becameHidden`;
    /// - partial or entire → offscreen or hidden: `becameHidden`.
    /// Removed rows emit no visibility event (their `rowRemoved` says it).
    ///
    /// - Complexity: O(log n + k) for k rows in the old and the new window.
    mutating func finish(_ result: inout OperationResult, since before: Before) {
        result.events.append(.layoutUpdated)
        let size = contentSize
        if size != before.contentSize { result.events.append(.contentSizeChanged(from: before.contentSize, to: size)) }
        if settings.offset != before.offset { result.events.append(.didScroll(from: before.offset, to: settings.offset)) }

        var transitions: [(index: Int, event: StackEvent)] = []
        var states: [String: Visibility] = [:]
        for layout in window(in: viewportRect) {
            states[layout.id] = layout.visibility
            switch (visibleStates[layout.id], layout.visibility) {
            case (nil, _), (.partial?, .entire):
                transitions.append((layout.index, .becameVisible(id: layout.id, index: layout.index, visibility: layout.visibility)))
            case (.entire?, .partial):
                transitions.append((layout.index, .becameHidden(id: layout.id, index: layout.index, visibility: layout.visibility)))
            default:
                break
            }
        }
        let leaving = visibleStates.keys.compactMap { id in states[id] == nil ? tree.node(id: id) : nil }
        for (n, index) in zip(leaving, tree.indexes(of: leaving)) {
            let row = tree.row(n)
            transitions.append((index, .becameHidden(id: row.id, index: index, visibility: row.hidden ? .hidden : .offscreen)))
        }
        transitions.sort { $0.index < $1.index }
        result.events.append(contentsOf: transitions.map(\.event))
        visibleStates = states
    }
}
