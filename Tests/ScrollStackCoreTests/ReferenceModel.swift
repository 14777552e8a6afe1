@testable import ScrollStackCore

/// An obviously-correct model of a stack for the randomized tests: rows in a plain array,
/// every position summed from the start, every visibility computed from scratch, events by
/// comparing whole before/after states. Slow on purpose; written from Docs/Semantics.md.
struct ReferenceModel {
    var settings: StackSettings
    var rows: [Row]
    /// States of rows that were partial or entire after the last operation.
    var visible: [String: Visibility] = [:]

    init(settings: StackSettings, rows: [Row]) {
        self.settings = settings
        self.rows = rows
        visible = visibleStates()
    }

    var axis: Axis { settings.axis }
    var cross: Double { settings.viewport[axis.cross] }

    func insets(_ row: Row) -> EdgeInsets { row.insets ?? settings.rowInsets }

    /// Only boxes and aspect-ratio boxes are generated, so measuring them is simple.
    func contentLength(_ row: Row) -> Double {
        switch row.size[axis] {
        case .fixed(let length): return length
        case .fit:
            let description = row.contentDescription!
            let crossExtent = max(0, cross - insets(row).total(axis.cross))
            switch description.kind {
            case .box(let width, let height):
                return (axis == .vertical ? height : width) ?? 0
            case .aspectRatio(let ratio):
                return axis == .vertical ? crossExtent / ratio : crossExtent * ratio
            case .stack:
                fatalError("not generated")
            }
        }
    }

    func naturalLength(_ row: Row) -> Double { insets(row).total(axis) + contentLength(row) }

    /// Main-axis (start, length) of every row.
    func spans() -> [(start: Double, length: Double)] {
        var result: [(Double, Double)] = []
        var cursor = 0.0
        var shownBefore = 0
        for row in rows {
            if row.hidden {
                result.append((cursor, 0))
            } else {
                let start = cursor + (shownBefore > 0 ? settings.spacing : 0)
                let length = naturalLength(row)
                result.append((start, length))
                cursor = start + length
                shownBefore += 1
            }
        }
        return result
    }

    var contentSize: Size {
        var size = settings.viewport
        let shown = rows.indices.filter { !rows[$0].hidden }
        let total = shown.map { naturalLength(rows[$0]) }.reduce(0, +)
        size[axis] = total + settings.spacing * Double(max(0, shown.count - 1))
        return size
    }

    func frame(_ span: (start: Double, length: Double)) -> Rect {
        axis == .vertical
            ? Rect(x: 0, y: span.start, width: cross, height: span.length)
            : Rect(x: span.start, y: 0, width: span.length, height: cross)
    }

    func visibility(of frame: Rect, hidden: Bool) -> Visibility {
        if hidden { return .hidden }
        let vx = settings.offset.x, vy = settings.offset.y
        let vw = settings.viewport.width, vh = settings.viewport.height
        let inside = frame.minX >= vx && frame.maxX <= vx + vw && frame.minY >= vy && frame.maxY <= vy + vh
        if inside { return .entire }
        let w = min(frame.maxX, vx + vw) - max(frame.minX, vx)
        let h = min(frame.maxY, vy + vh) - max(frame.minY, vy)
        if w <= 0 || h <= 0 { return .offscreen }
        return .partial(fraction: (w * h) / (frame.size.width * frame.size.height))
    }

    func layout() -> [RowLayout] {
        let spans = spans()
        let lastShown = rows.lastIndex { !$0.hidden }
        return rows.indices.map { i in
            let row = rows[i]
            let frame = frame(spans[i])
            let ins = insets(row)
            let contentFrame = axis == .vertical
                ? Rect(x: ins.left, y: row.hidden ? frame.minY : frame.minY + ins.top, width: max(0, cross - ins.left - ins.right),
                       height: row.hidden ? 0 : max(0, frame.size.height - ins.top - ins.bottom))
                : Rect(x: row.hidden ? frame.minX : frame.minX + ins.left, y: ins.top,
                       width: row.hidden ? 0 : max(0, frame.size.width - ins.left - ins.right), height: max(0, cross - ins.top - ins.bottom))
            let style = settings.separator.applying(row.separator)
            var separator: Rect?
            if !row.hidden && !style.hidden && !(settings.autoHideLastRowSeparator && i == lastShown) {
                separator = axis == .vertical
                    ? Rect(x: style.insets.left, y: frame.maxY - style.thickness, width: max(0, cross - style.insets.left - style.insets.right), height: style.thickness)
                    : Rect(x: frame.maxX - style.thickness, y: style.insets.top, width: style.thickness, height: max(0, cross - style.insets.top - style.insets.bottom))
            }
            return RowLayout(id: row.id, index: i, frame: frame, contentFrame: contentFrame, separatorFrame: separator,
                             visibility: visibility(of: frame, hidden: row.hidden))
        }
    }

    func visibleStates() -> [String: Visibility] {
        var states: [String: Visibility] = [:]
        for l in layout() where l.visibility.isVisible { states[l.id] = l.visibility }
        return states
    }

    /// The closing events of every operation, given the state before it.
    mutating func closingEvents(sizeBefore: Size, offsetBefore: Point, forget: Set<String> = []) -> [StackEvent] {
        var events: [StackEvent] = [.layoutUpdated]
        if contentSize != sizeBefore { events.append(.contentSizeChanged(from: sizeBefore, to: contentSize)) }
        if settings.offset != offsetBefore { events.append(.didScroll(from: offsetBefore, to: settings.offset)) }
        for id in forget { visible[id] = nil }
        var new: [String: Visibility] = [:]
        for l in layout() {
            let before = visible[l.id]
            let now = l.visibility
            if now.isVisible { new[l.id] = now }
            switch (before, now) {
            case (nil, .partial), (nil, .entire), (.partial?, .entire):
                events.append(.becameVisible(id: l.id, index: l.index, visibility: now))
            case (.entire?, .partial), (.entire?, .offscreen), (.entire?, .hidden), (.partial?, .offscreen), (.partial?, .hidden):
                events.append(.becameHidden(id: l.id, index: l.index, visibility: now))
            default:
                break
            }
        }
        visible = new
        return events
    }
}
