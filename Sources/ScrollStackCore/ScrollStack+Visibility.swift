extension ScrollStack {
    /// What an operation compares against when it finishes.
    struct Before {
        var contentSize: Size
        var offset: Point
    }

    var before: Before { Before(contentSize: contentSize, offset: settings.offset) }

    /// A row that is partial or entire, by id, and how much of it shows.
    struct VisibleState: Sendable, Equatable {
        var id: String
        var visibility: Visibility
    }

    /// The states of the rows that are partial or entire now, in row order. O(log n + k).
    func currentVisibleStates() -> [VisibleState] { visibleRows(in: viewportRect).states }

    /// The rows that are partial or entire against `viewport`, in row order, with their
    /// indexes: `window(in:)`'s rows and visibilities, without building their layouts
    /// (no insets, separator or content frame). O(log n + k).
    func visibleRows(in viewport: Rect) -> (states: [VisibleState], indexes: [Int]) {
        // Sized like the last window, so that they do not grow row by row as they fill.
        var states: [VisibleState] = []
        var indexes: [Int] = []
        states.reserveCapacity(visibleStates.count + 2)
        indexes.reserveCapacity(visibleStates.count + 2)
        forEachVisibleRow(in: viewport) { n, index, visibility in
            states.append(VisibleState(id: tree.id(n), visibility: visibility))
            indexes.append(index)
            return true
        }
        return (states, indexes)
    }

    /// Whether the rows partial or entire against the viewport now are the recorded ones
    /// (`visibleStates`), in order and with the same visibilities: `visibleRows(in:
    /// viewportRect).states == visibleStates`, without building either array (what most
    /// edits find: a row inserted or removed outside the window leaves it as it was).
    /// O(log n + k).
    func visibleRowsAreRecorded() -> Bool {
        var matched = 0
        var same = true
        forEachVisibleRow(in: viewportRect) { n, _, visibility in
            guard matched < visibleStates.count, visibleStates[matched].visibility == visibility,
                  visibleStates[matched].id == tree.id(n) else {
                same = false
                return false
            }
            matched += 1
            return true
        }
        return same && matched == visibleStates.count
    }

    /// Calls `body` with the handle, index and visibility of each row that is partial or
    /// entire against `viewport`, in row order, until it returns false. O(log n + k).
    private func forEachVisibleRow(in viewport: Rect, _ body: (RowTree.NodeID, Int, Visibility) -> Bool) {
        let axis = settings.axis
        let low = viewport.min(axis)
        let high = viewport.max(axis)
        let cross = settings.crossExtent
        guard let (start, startPrefix) = tree.firstCursor(where: { prefix, node in mainEnd(prefix, node) >= low }) else { return }
        var prefix = startPrefix
        tree.walk(from: start) { n in
            let node = tree[n]
            let start = mainStart(prefix, hidden: node.hidden)
            if start > high { return false }
            let frame = Rect(axis: axis, mainOrigin: start, mainLength: node.effectiveLength, crossOrigin: 0, crossLength: cross)
            let visibility = Visibility.of(row: frame, hidden: node.hidden, in: viewport)
            if visibility.isVisible, !body(n, prefix.count, visibility) { return false }
            advance(&prefix, past: node)
            return true
        }
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
    /// The new window is compared with the recorded one first, in order; only when they
    /// differ are the recorded states put in a dictionary by id.
    ///
    /// - Complexity: O(log n + k) for k rows in the old and the new window.
    mutating func finish(_ result: inout OperationResult, since before: Before) {
        result.events.append(.layoutUpdated)
        let size = contentSize
        if size != before.contentSize { result.events.append(.contentSizeChanged(from: before.contentSize, to: size)) }
        if settings.offset != before.offset { result.events.append(.didScroll(from: before.offset, to: settings.offset)) }

        // Most edits leave the window as it was: then no row changes state.
        if visibleRowsAreRecorded() { return }
        let (states, indexes) = visibleRows(in: viewportRect)
        var previous: [String: Visibility] = [:]
        previous.reserveCapacity(visibleStates.count)
        for state in visibleStates { previous[state.id] = state.visibility }
        var transitions: [(index: Int, event: StackEvent)] = []
        for (state, index) in zip(states, indexes) {
            switch (previous.removeValue(forKey: state.id), state.visibility) {
            case (nil, _), (.partial?, .entire):
                transitions.append((index, .becameVisible(id: state.id, index: index, visibility: state.visibility)))
            case (.entire?, .partial):
                transitions.append((index, .becameHidden(id: state.id, index: index, visibility: state.visibility)))
            default:
                break
            }
        }
        // What is left of `previous` was visible and is not now.
        let leaving = previous.keys.compactMap { id in tree.node(id: id) }
        for (n, index) in zip(leaving, tree.indexes(of: leaving)) {
            let row = tree.row(n)
            transitions.append((index, .becameHidden(id: row.id, index: index, visibility: row.hidden ? .hidden : .offscreen)))
        }
        transitions.sort { $0.index < $1.index }
        result.events.append(contentsOf: transitions.map(\.event))
        visibleStates = states
    }
}
