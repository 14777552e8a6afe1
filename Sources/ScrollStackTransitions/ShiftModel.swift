import ScrollStackCore

/// Where rows that the change does not name stood before it, derived from the change alone.
///
/// Rows the change does not name (non-targets) keep their order and their own lengths, so a
/// non-target's start moved by what the targets before it contribute now minus what the
/// targets before it contributed then; a row contributes its length plus the spacing after
/// it (nothing when hidden). With `m` the number of non-targets before a row, a target came
/// before it iff fewer than or exactly `m` non-targets came before the target.
///
/// - Complexity: O(k log k) to build for k targets, O(log k) per row.
struct ShiftModel {
    private struct Entry {
        var index: Int
        /// Non-targets before it.
        var m: Int
        var contribution: Double
    }

    private let axis: Axis
    private let spacing: Double
    private let capture: TransitionCapture
    private let stack: ScrollStack
    private let old: [Entry]
    private let new: [Entry]
    private let oldSums: [Double]
    private let newSums: [Double]

    init(capture: TransitionCapture, stack: ScrollStack, added: Set<String>, removed: [String: Int], afterLayout: (String) -> RowLayout?) {
        self.capture = capture
        self.stack = stack
        axis = capture.settings.axis
        spacing = capture.settings.spacing
        var ids = added.union(removed.keys)
        ids.formUnion(capture.targets ?? [])
        var old: [Entry] = [], new: [Entry] = []
        for id in ids {
            if let layout = capture.layouts[id], let row = capture.rows[id] {
                old.append(Entry(index: layout.index, m: 0, contribution: Self.contribution(layout, row.hidden, axis, spacing)))
            }
            if let layout = afterLayout(id) {
                let row = stack.row(at: layout.index)
                new.append(Entry(index: layout.index, m: 0, contribution: Self.contribution(layout, row.hidden, axis, spacing)))
            }
        }
        (self.old, oldSums) = Self.ranked(old)
        (self.new, newSums) = Self.ranked(new)
    }

    private static func contribution(_ layout: RowLayout, _ hidden: Bool, _ axis: Axis, _ spacing: Double) -> Double {
        hidden ? 0 : layout.frame.size[axis] + spacing
    }

    /// Sorts by index, fills in `m`, and returns prefix sums of the contributions.
    private static func ranked(_ entries: [Entry]) -> ([Entry], [Double]) {
        var sorted = entries.sorted { $0.index < $1.index }
        var sums = [0.0]
        for i in sorted.indices {
            sorted[i].m = sorted[i].index - i
            sums.append(sums[i] + sorted[i].contribution)
        }
        return (sorted, sums)
    }

    /// The number of leading entries satisfying `belongs` (which holds for a prefix).
    private static func prefixCount(_ entries: [Entry], _ belongs: (Entry) -> Bool) -> Int {
        var low = 0, high = entries.count
        while low < high {
            let mid = (low + high) / 2
            if belongs(entries[mid]) { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The layout a shown non-target row had before the change, from its layout after it.
    func derive(_ layout: RowLayout, _ row: Row) -> (layout: RowLayout, row: Row)? {
        guard !row.hidden else { return nil }
        let newBefore = Self.prefixCount(new) { $0.index < layout.index }
        let m = layout.index - newBefore
        let oldBefore = Self.prefixCount(old) { $0.m <= m }
        let delta = newSums[newBefore] - oldSums[oldBefore]
        var result = layout
        result.index = m + oldBefore
        result.frame = shifted(layout.frame, by: -delta)
        result.contentFrame = shifted(layout.contentFrame, by: -delta)
        result.separatorFrame = separator(of: row, in: result.frame)
        return (result, row)
    }

    /// Where a removed row collapses: the point along the axis where it would sit, hidden,
    /// among the rows after the change.
    func collapsePoint(of id: String, _ layout: RowLayout, _ row: Row) -> Double {
        let rank = Self.prefixCount(old) { $0.index < layout.index }
        guard rank < old.count, old[rank].index == layout.index else { return layout.frame.min(axis) }
        let start = layout.frame.min(axis)
        let sumBefore = row.hidden && start > 0 ? start + spacing : start
        let nonTargets = sumBefore - oldSums[rank]
        let newBefore = Self.prefixCount(new) { $0.m <= old[rank].m }
        let sum = nonTargets + newSums[newBefore]
        return sum > 0 ? Swift.max(0, sum - spacing) : 0
    }

    private func shifted(_ rect: Rect, by delta: Double) -> Rect {
        var r = rect
        r.origin[axis] += delta
        return r
    }

    /// The separator a shown row that was not the last shown one drew in `frame`.
    private func separator(of row: Row, in frame: Rect) -> Rect? {
        let style = stack.separatorStyle(of: row)
        if style.hidden || (capture.settings.autoHideLastRowSeparator && row.id == capture.lastShown) { return nil }
        let cross = capture.settings.crossExtent
        return Rect(axis: axis, mainOrigin: frame.max(axis) - style.thickness, mainLength: style.thickness,
                    crossOrigin: style.insets.leading(axis.cross), crossLength: Swift.max(0, cross - style.insets.total(axis.cross)))
    }
}
