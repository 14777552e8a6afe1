import ScrollStackCore

/// Builds the plan of one change from the capture taken before it and the stack after it.
///
/// Rules (Docs/Semantics.md, "Transition plans"): an insert fades in at its final frame
/// while the others slide; hide collapses the row to its collapse point (the end of the
/// previous shown row) and show grows it back, each with the row's own looks; remove
/// collapses the row to where it stood and it leaves at the end; move slides; replace
/// cross-fades the old row out and the new one in at the new frame; scroll moves only the
/// offset; setting changes (axis, viewport, …) move every visible row from its old layout to
/// its new one.
public enum TransitionPlanner {
    /// The plan of the change that `result` reports, from `capture` (taken before it) to
    /// `stack` (after it).
    ///
    /// - Complexity: O((v + k) log n + k log k) for v rows visible at either end and k rows
    ///   the change names, inserts or removes; never O(n) in derived mode.
    public static func plan(from capture: TransitionCapture, to stack: ScrollStack, result: OperationResult,
                            timing: AnimationTiming, animated: Bool) -> TransitionPlan {
        var added: Set<String> = [], removed: [String: Int] = [:], moved: Set<String> = []
        var hidden: Set<String> = [], shown: Set<String> = []
        var replaced: [String: String] = [:]  // old id → new id
        var replacing: Set<String> = []
        var previous: StackEvent?
        for event in result.events {
            switch event {
            case .rowAdded(let id, let index):
                added.insert(id)
                if case .rowRemoved(let old, let oldIndex)? = previous, oldIndex == index {
                    replaced[old] = id
                    replacing.insert(id)
                }
            case .rowRemoved(let id, let index): removed[id] = index
            case .rowMoved(let id, _, _): moved.insert(id)
            case .rowHidden(let id, _): hidden.insert(id)
            case .rowShown(let id, _): shown.insert(id)
            default: break
            }
            previous = event
        }

        let after = stack.visibleLayout().rows
        var afterLayouts: [String: RowLayout] = [:]
        for layout in after { afterLayouts[layout.id] = layout }
        func afterLayout(_ id: String) -> RowLayout? {
            afterLayouts[id] ?? (try? stack.layout(of: .id(id)))
        }

        // Candidates, each once, in a stable order: rows visible before, the rows named or
        // changed, the rows removed, rows visible after.
        var seen: Set<String> = []
        var candidates: [String] = []
        func consider(_ id: String) { if seen.insert(id).inserted { candidates.append(id) } }
        capture.visible.forEach(consider)
        capture.targets?.forEach(consider)
        result.changed.forEach(consider)
        // Removed rows: named ones (all of them without targets), when their layout before is known.
        let named = Set(capture.targets ?? [])
        // Looked up once per candidate: as arrays, a change of k rows cost O(k²) here.
        let changed = Set(result.changed)
        for (id, _) in removed.sorted(by: { $0.value < $1.value }) where capture.snapshot != nil || named.contains(id) { consider(id) }
        after.forEach { consider($0.id) }

        let shift = capture.snapshot == nil
            ? ShiftModel(capture: capture, stack: stack, added: added, removed: removed, afterLayout: afterLayout)
            : nil
        let settingsChanged = capture.settings.axis != stack.settings.axis || capture.settings.viewport != stack.settings.viewport
            || capture.settings.rowInsets != stack.settings.rowInsets || capture.settings.spacing != stack.settings.spacing
            || capture.settings.separator != stack.settings.separator
            || capture.settings.autoHideLastRowSeparator != stack.settings.autoHideLastRowSeparator

        var entries: [RowTransitionEntry] = []
        for id in candidates {
            let now = afterLayout(id)
            let nowRow = now.map { stack.row(at: $0.index) }
            if let new = replaced[id], let old = capture.before(id), let target = afterLayout(new) {
                var to = RowState(target, hidden: false, look: .identity)
                to.alpha = 0
                to.index = nil
                entries.append(RowTransitionEntry(id: id, change: .replace, exit: true, from: state(old.layout, old.row), to: to))
            }
            if let now, let nowRow, added.contains(id) {
                let resting = state(now, nowRow)
                var from = resting
                from.alpha = 0
                entries.append(RowTransitionEntry(id: id, change: replacing.contains(id) ? .replace : .insert, enter: true, from: from, to: resting))
                continue
            }
            if replaced[id] != nil { continue }
            let before = capture.before(id) ?? now.flatMap { layout in shift?.derive(layout, nowRow!) }
            switch (before, now) {
            case (let before?, nil):
                // Left the stack: collapses where it stood, then leaves.
                var to = state(before.layout, before.row)
                let start = shift?.collapsePoint(of: id, before.layout, before.row) ?? ownCollapsePoint(before.layout, capture.settings)
                to.frame = collapsed(before.layout.frame, at: start, capture.settings.axis)
                to.contentFrame = collapsed(before.layout.contentFrame, at: start, capture.settings.axis)
                to.separatorFrame = nil
                to.hidden = true
                to.index = nil
                entries.append(RowTransitionEntry(id: id, change: .remove, exit: true, from: state(before.layout, before.row), to: to))
            case (nil, let now?):
                // Came in without an insert (a revert): fades in.
                let resting = state(now, nowRow!)
                var from = resting
                from.alpha = 0
                entries.append(RowTransitionEntry(id: id, change: .insert, enter: true, from: from, to: resting))
            case (let before?, let now?):
                let from = state(before.layout, before.row), to = state(now, nowRow!)
                guard !from.looksLike(to) else { continue }
                let change: RowTransitionEntry.Change =
                    hidden.contains(id) ? .hide : shown.contains(id) ? .show : moved.contains(id) ? .move
                    : changed.contains(id) || named.contains(id) ? .update
                    : settingsChanged ? .layout : .slide
                entries.append(RowTransitionEntry(id: id, change: change, from: from, to: to))
            case (nil, nil):
                continue
            }
        }
        entries.sort { a, b in
            if a.exit != b.exit { return !a.exit }
            return (a.exit ? a.from.index ?? 0 : a.to.index ?? 0) < (b.exit ? b.from.index ?? 0 : b.to.index ?? 0)
        }
        return TransitionPlan(
            animated: animated, timing: timing,
            axis: (capture.settings.axis, stack.settings.axis),
            viewport: (capture.settings.viewport, stack.settings.viewport),
            contentSize: (capture.contentSize, stack.contentSize),
            offset: (capture.settings.offset, stack.settings.offset),
            rows: entries
        )
    }

    /// A row's state at rest: shown rows wear their `show` look, hidden ones their `hide` look.
    static func state(_ layout: RowLayout, _ row: Row) -> RowState {
        let look = (row.hidden ? row.transition?.hide : row.transition?.show) ?? .identity
        return RowState(layout, hidden: row.hidden, look: look)
    }

    /// Without targets (snapshot mode), a removed row collapses to the end of the shown row
    /// before it in the layout before the change.
    static func ownCollapsePoint(_ layout: RowLayout, _ settings: StackSettings) -> Double {
        let start = layout.frame.min(settings.axis)
        return start > 0 && layout.frame.size[settings.axis] > 0 ? Swift.max(0, start - settings.spacing) : start
    }

    /// `rect` with no length along `axis`, starting at `start`.
    static func collapsed(_ rect: Rect, at start: Double, _ axis: Axis) -> Rect {
        Rect(axis: axis, mainOrigin: start, mainLength: 0, crossOrigin: rect.min(axis.cross), crossLength: rect.size[axis.cross])
    }
}
