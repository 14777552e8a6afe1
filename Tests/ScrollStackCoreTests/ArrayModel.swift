import ScrollStackCore

/// The reference model of `DifferentialTests`: a plain array of rows, written from
/// Docs/Semantics.md alone. Every derived value is recomputed from scratch with a simple
/// loop (positions, visibility, events by comparing the full before/after state of every
/// row), so it is slow (O(n) per step) and, one hopes, obviously right.
///
/// It measures only the simple content descriptions the differential test generates:
/// boxes, aspect-ratio boxes, and one level of groups whose children carry no min/max
/// across the group's direction (see `measure`).
struct ArrayModel {
    /// An error as the model predicts it: the code and the path of the offending input.
    struct Failure: Error, Equatable, CustomStringConvertible {
        var code: StackError.Code
        var field: String?
        var description: String { "\(code.rawValue) @ \(field ?? "nil")" }
    }

    /// What a successful operation returns.
    struct Outcome {
        var events: [StackEvent] = []
        var changed: [String] = []
        var removed: [(row: Row, index: Int)] = []
    }

    /// One row's layout as the model derives it.
    struct Item: Equatable {
        var id: String
        var index: Int
        var frame: Rect
        var contentFrame: Rect
        var separatorFrame: Rect?
        var visibility: Visibility
    }

    private(set) var settings: StackSettings
    private(set) var rows: [Row]
    /// The layout at the current offset (recomputed after every successful operation).
    private(set) var items: [Item] = []
    private(set) var contentSize = Size.zero
    /// Every row's visibility after the last operation, by id.
    private var recorded: [String: Visibility] = [:]

    init(settings: StackSettings, rows: [Row]) throws(Failure) {
        try Self.validate(settings)
        var seen = Set<String>()
        for (i, row) in rows.enumerated() {
            try Self.validate(row, prefix: "rows[\(i)].")
            if seen.contains(row.id) { throw Failure(code: .duplicateID, field: "rows[\(i)].id") }
            seen.insert(row.id)
        }
        self.settings = settings
        self.rows = rows
        refresh()
        recorded = Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0.visibility) })
    }

    // MARK: - Lengths

    private var axis: Axis { settings.axis }
    /// The viewport's extent across the main axis.
    private var crossExtent: Double { axis == .vertical ? settings.viewport.width : settings.viewport.height }
    private var mainExtent: Double { axis == .vertical ? settings.viewport.height : settings.viewport.width }

    func insets(of row: Row) -> EdgeInsets { row.insets ?? settings.rowInsets }

    /// (leading, trailing) insets along the main axis, (leading, trailing) across it.
    private func mainInsets(_ i: EdgeInsets) -> (Double, Double) { axis == .vertical ? (i.top, i.bottom) : (i.left, i.right) }
    private func crossInsets(_ i: EdgeInsets) -> (Double, Double) { axis == .vertical ? (i.left, i.right) : (i.top, i.bottom) }

    /// The content length along the main axis, from the size rule of the current axis.
    func contentLength(of row: Row) -> Double {
        let rule = axis == .vertical ? row.size.vertical : row.size.horizontal
        switch rule {
        case .fixed(let length):
            return length
        case .fit:
            guard let description = row.contentDescription else { return 0 }
            let (a, b) = crossInsets(insets(of: row))
            let available = max(0, crossExtent - a - b)
            return Self.measure(description, along: axis, available: available)
        }
    }

    /// Leading inset + content + trailing inset, as if the row were shown.
    func naturalLength(of row: Row) -> Double {
        let (a, b) = mainInsets(insets(of: row))
        return a + contentLength(of: row) + b
    }

    // MARK: - Measuring (the simple shapes only)

    private static func explicitExtent(_ d: ContentDescription, _ axis: Axis) -> Double? {
        if case .box(let width, let height) = d.kind { return axis == .vertical ? height : width }
        return nil
    }

    /// Min/max along `axis`; a minimum wins over a smaller maximum; a group never gets
    /// smaller than its padding.
    private static func clamp(_ value: Double, _ d: ContentDescription, _ axis: Axis) -> Double {
        let low = axis == .vertical ? d.minHeight : d.minWidth
        let high = axis == .vertical ? d.maxHeight : d.maxWidth
        var v = value
        if let high, v > high { v = high }
        if let low, v < low { v = low }
        if case .stack(_, _, let p, _) = d.kind { v = max(v, axis == .vertical ? p.top + p.bottom : p.left + p.right) }
        return v
    }

    /// The root's length along `axis` when the row's content frame is `available` across.
    static func measure(_ d: ContentDescription, along axis: Axis, available: Double) -> Double {
        let cross = clamp(explicitExtent(d, axis.cross) ?? available, d, axis.cross)
        return length(d, along: axis, cross: cross)
    }

    /// A node's length along `axis` once its extent across is `cross`.
    private static func length(_ d: ContentDescription, along axis: Axis, cross: Double) -> Double {
        var raw: Double
        switch d.kind {
        case .box:
            raw = explicitExtent(d, axis) ?? 0
        case .text:
            preconditionFailure("ArrayModel does not model text (the differential test generates none)")
        case .aspectRatio(let ratio):
            // ratio = width / height, floored to Chromium's 1/64 layout unit, at most 10⁹
            raw = min(1e9, ((axis == .vertical ? cross / ratio : cross * ratio) * 64 + 1e-7).rounded(.down) / 64)
        case .stack(let direction, let spacing, let padding, let children):
            let padMain = axis == .vertical ? padding.top + padding.bottom : padding.left + padding.right
            let padCross = axis == .vertical ? padding.left + padding.right : padding.top + padding.bottom
            let inner = max(0, cross - padCross)
            let gaps = children.isEmpty ? 0 : spacing * Double(children.count - 1)
            if direction == axis {
                // A column when measuring heights: children stacked, each stretched across.
                var total = 0.0
                for child in children {
                    let childCross = clamp(explicitExtent(child, axis.cross) ?? inner, child, axis.cross)
                    total += length(child, along: axis, cross: childCross)
                }
                raw = padMain + total + gaps
            } else {
                // A row when measuring heights: fixed children keep their extent, the others
                // start from their padding across and share the rest (the generator never
                // gives those min/max across): from the last, each takes the free space left
                // divided by its place among them, rounded to 1/64; the first takes the rest.
                var free = inner - gaps
                var flexible: [Int] = []
                var extents = [Double](repeating: 0, count: children.count)
                for (i, child) in children.enumerated() {
                    if let fixed = explicitExtent(child, axis.cross) {
                        extents[i] = clamp(fixed, child, axis.cross)
                    } else {
                        precondition(clamp(1, child, axis.cross) == 1 && clamp(1e300, child, axis.cross) == 1e300,
                                     "ArrayModel does not model min/max on flexible children")
                        if case .stack(_, _, let p, _) = child.kind { extents[i] = axis == .vertical ? p.left + p.right : p.top + p.bottom }
                        flexible.append(i)
                    }
                    free -= extents[i]
                }
                for (k, i) in flexible.enumerated().reversed() where free > 0 {
                    let share = k == 0 ? free : (free / Double(k + 1) * 64).rounded(.toNearestOrAwayFromZero) / 64
                    extents[i] += share
                    free -= share
                }
                var longest = 0.0
                for (child, childCross) in zip(children, extents) {
                    longest = max(longest, length(child, along: axis, cross: childCross))
                }
                raw = padMain + longest
            }
        }
        return clamp(raw, d, axis)
    }

    // MARK: - Layout

    /// Every row's layout and the content size with the viewport at `offset`.
    func computeLayout(offset: Point) -> (items: [Item], contentSize: Size) {
        let width = settings.viewport.width
        let height = settings.viewport.height
        let vertical = axis == .vertical
        let lastShown = rows.lastIndex(where: { !$0.hidden })
        var result: [Item] = []
        result.reserveCapacity(rows.count)
        var cursor = 0.0          // where the last shown row ends
        var anyShown = false
        for (index, row) in rows.enumerated() {
            let ins = insets(of: row)
            let start: Double
            let length: Double
            if row.hidden {
                start = cursor
                length = 0
            } else {
                start = anyShown ? cursor + settings.spacing : cursor
                length = naturalLength(of: row)
                cursor = start + length
                anyShown = true
            }
            let frame = vertical
                ? Rect(x: 0, y: start, width: width, height: length)
                : Rect(x: start, y: 0, width: length, height: height)
            // The content frame: the frame less the insets. A hidden row's has length 0; the
            // spec does not say where along the axis: like the engine, at the collapse point
            // (not pushed in by the leading inset).
            let contentMain = row.hidden ? 0 : contentLength(of: row)
            let contentFrame = vertical
                ? Rect(x: ins.left, y: row.hidden ? start : start + ins.top,
                       width: max(0, width - ins.left - ins.right), height: contentMain)
                : Rect(x: row.hidden ? start : start + ins.left, y: ins.top,
                       width: contentMain, height: max(0, height - ins.top - ins.bottom))
            let o = row.separator
            let d = settings.separator
            let sepHidden = o.hidden ?? d.hidden
            let thickness = o.thickness ?? d.thickness
            let sepInsets = o.insets ?? d.insets
            var separator: Rect?
            if !row.hidden && !sepHidden && !(settings.autoHideLastRowSeparator && index == lastShown) {
                separator = vertical
                    ? Rect(x: sepInsets.left, y: frame.origin.y + frame.size.height - thickness,
                           width: max(0, width - sepInsets.right - sepInsets.left), height: thickness)
                    : Rect(x: frame.origin.x + frame.size.width - thickness, y: sepInsets.top,
                           width: thickness, height: max(0, height - sepInsets.bottom - sepInsets.top))
            }
            let visibility = Self.visibility(of: frame, hidden: row.hidden, viewport: Rect(origin: offset, size: settings.viewport))
            result.append(Item(id: row.id, index: index, frame: frame, contentFrame: contentFrame,
                               separatorFrame: separator, visibility: visibility))
        }
        let along = cursor
        let size = vertical ? Size(width: width, height: along) : Size(width: along, height: height)
        return (result, size)
    }

    /// Direct rectangle maths: hidden; contained (edges inclusive) → entire; no shared area →
    /// offscreen; otherwise partial with shared area / row area.
    static func visibility(of f: Rect, hidden: Bool, viewport v: Rect) -> Visibility {
        if hidden { return .hidden }
        let fx0 = f.origin.x, fx1 = f.origin.x + f.size.width, fy0 = f.origin.y, fy1 = f.origin.y + f.size.height
        let vx0 = v.origin.x, vx1 = v.origin.x + v.size.width, vy0 = v.origin.y, vy1 = v.origin.y + v.size.height
        if fx0 >= vx0 && fx1 <= vx1 && fy0 >= vy0 && fy1 <= vy1 { return .entire }
        let w = min(fx1, vx1) - max(fx0, vx0)
        let h = min(fy1, vy1) - max(fy0, vy0)
        if w <= 0 || h <= 0 { return .offscreen }
        return .partial(fraction: (w * h) / (f.size.width * f.size.height))
    }

    private mutating func refresh() {
        (items, contentSize) = computeLayout(offset: settings.offset)
    }

    var visibleIDs: [String] { items.filter { $0.visibility.isVisible }.map(\.id) }
    var entireIDs: [String] { items.filter { $0.visibility == .entire }.map(\.id) }

    /// [−leading content inset, max(that, content length + trailing content inset − viewport length)].
    var scrollRange: ClosedRange<Double> {
        let ci = settings.contentInsets
        let low = -(axis == .vertical ? ci.top : ci.left)
        let contentLength = axis == .vertical ? contentSize.height : contentSize.width
        let high = contentLength + (axis == .vertical ? ci.bottom : ci.right) - mainExtent
        return low...max(low, high)
    }

    /// The row under a point in viewport coordinates: a shown row whose frame holds the
    /// point (leading edges inclusive, trailing exclusive), or nil.
    func hitTest(_ p: Point) -> Item? {
        guard p.x >= 0, p.y >= 0, p.x < settings.viewport.width, p.y < settings.viewport.height else { return nil }
        let cx = settings.offset.x + p.x, cy = settings.offset.y + p.y
        let along = axis == .vertical ? cy : cx
        for item in items where item.visibility != .hidden {
            let f = item.frame
            if (axis == .vertical ? f.origin.y : f.origin.x) > along { break }   // rows only go further
            if cx >= f.origin.x && cx < f.origin.x + f.size.width && cy >= f.origin.y && cy < f.origin.y + f.size.height {
                return item
            }
        }
        return nil
    }

    // MARK: - Validation

    private static func length(_ v: Double, _ field: String) throws(Failure) {
        guard v.isFinite, v >= 0, v <= 1e9 else { throw Failure(code: .invalidValue, field: field) }
    }

    private static func offsetValue(_ v: Double, _ field: String) throws(Failure) {
        guard v.isFinite, abs(v) <= 1e15 else { throw Failure(code: .invalidValue, field: field) }
    }

    private static func insets(_ i: EdgeInsets, _ field: String) throws(Failure) {
        try length(i.top, field + ".top")
        try length(i.left, field + ".left")
        try length(i.bottom, field + ".bottom")
        try length(i.right, field + ".right")
    }

    /// The core takes colours already normalized: `#RRGGBBAA`, upper case (see the report).
    private static func color(_ c: String, _ field: String) throws(Failure) {
        let chars = Array(c)
        let ok = chars.count == 9 && chars[0] == "#" && chars.dropFirst().allSatisfy { "0123456789ABCDEF".contains($0) }
        if !ok { throw Failure(code: .invalidValue, field: field) }
    }

    static func validate(_ s: StackSettings) throws(Failure) {
        try length(s.viewport.width, "viewport.width")
        try length(s.viewport.height, "viewport.height")
        try insets(s.contentInsets, "contentInsets")
        try offsetValue(s.offset.x, "offset.x")
        try offsetValue(s.offset.y, "offset.y")
        try length(s.spacing, "spacing")
        try insets(s.rowInsets, "rowInsets")
        try length(s.separator.thickness, "separator.thickness")
        try insets(s.separator.insets, "separator.insets")
        try color(s.separator.color, "separator.color")
    }

    private static func validate(_ d: ContentDescription, _ field: String, depth: Int) throws(Failure) {
        if depth >= 64 { throw Failure(code: .invalidValue, field: field) }
        if let v = d.minWidth { try length(v, field + ".minWidth") }
        if let v = d.maxWidth { try length(v, field + ".maxWidth") }
        if let v = d.minHeight { try length(v, field + ".minHeight") }
        if let v = d.maxHeight { try length(v, field + ".maxHeight") }
        switch d.kind {
        case .box(let w, let h):
            if let w { try length(w, field + ".width") }
            if let h { try length(h, field + ".height") }
        case .aspectRatio(let r):
            try length(r, field + ".aspectRatio")
            if !(r > 0) { throw Failure(code: .invalidValue, field: field + ".aspectRatio") }
        case .stack(_, let spacing, let padding, let children):
            try length(spacing, field + ".spacing")
            try insets(padding, field + ".padding")
            for (i, child) in children.enumerated() { try validate(child, field + ".children[\(i)]", depth: depth + 1) }
        case .text:
            preconditionFailure("ArrayModel does not model text (the differential test generates none)")
        }
    }

    static func validate(_ row: Row, prefix: String) throws(Failure) {
        if row.id.isEmpty { throw Failure(code: .invalidValue, field: prefix + "id") }
        switch row.content {
        case .controller(let c): if c.type.isEmpty { throw Failure(code: .invalidValue, field: prefix + "controller.type") }
        case .view(let v): if v.type.isEmpty { throw Failure(code: .invalidValue, field: prefix + "view.type") }
        }
        var uniform = row.size.vertical == row.size.horizontal
        if case .fixed(let a) = row.size.vertical, case .fixed(let b) = row.size.horizontal, a.isNaN, b.isNaN { uniform = true }
        if uniform {
            if case .fixed(let l) = row.size.vertical { try length(l, prefix + "size.fixed") }
        } else {
            if case .fixed(let l) = row.size.vertical { try length(l, prefix + "size.vertical.fixed") }
            if case .fixed(let l) = row.size.horizontal { try length(l, prefix + "size.horizontal.fixed") }
        }
        if let d = row.contentDescription {
            try validate(d, prefix + "content", depth: 0)
        } else if row.size.vertical == .fit || row.size.horizontal == .fit {
            throw Failure(code: .invalidValue, field: prefix + "content")
        }
        if let i = row.insets { try insets(i, prefix + "insets") }
        if let t = row.separator.thickness { try length(t, prefix + "separator.thickness") }
        if let i = row.separator.insets { try insets(i, prefix + "separator.insets") }
        if let c = row.separator.color { try color(c, prefix + "separator.color") }
    }

    // MARK: - Operations

    /// The index a reference names now, or nil.
    func resolve(_ ref: RowReference) -> Int? {
        switch ref {
        case .id(let id): return rows.firstIndex { $0.id == id }
        case .index(let i): return i >= 0 && i < rows.count ? i : nil
        }
    }

    /// Resolves a batch against the current state: non-empty, known rows, no row twice.
    private func resolveBatch(_ refs: [RowReference]) throws(Failure) -> [Int] {
        if refs.isEmpty { throw Failure(code: .emptyBatch, field: "rows") }
        var result: [Int] = []
        for (i, ref) in refs.enumerated() {
            guard let index = resolve(ref) else { throw Failure(code: .unknownRow, field: "rows[\(i)]") }
            if result.contains(index) { throw Failure(code: .invalidValue, field: "rows[\(i)]") }
            result.append(index)
        }
        return result
    }

    /// Appends the common tail of every successful operation and records the new state.
    /// `fresh` names a row whose visibility starts afresh (a replaced row).
    private mutating func finish(_ rowEvents: [StackEvent], oldSize: Size, oldOffset: Point, fresh: String? = nil) -> [StackEvent] {
        refresh()
        var events = rowEvents
        events.append(.layoutUpdated)
        if contentSize != oldSize { events.append(.contentSizeChanged(from: oldSize, to: contentSize)) }
        if settings.offset != oldOffset { events.append(.didScroll(from: oldOffset, to: settings.offset)) }
        var before = recorded
        if let fresh { before[fresh] = nil }
        var now: [String: Visibility] = [:]
        for item in items {
            now[item.id] = item.visibility
            let was = before[item.id]
            let wasVisible = was?.isVisible ?? false
            let isVisible = item.visibility.isVisible
            var wasPartial = false
            if case .partial? = was { wasPartial = true }
            var isPartial = false
            if case .partial = item.visibility { isPartial = true }
            if isVisible && !wasVisible {
                events.append(.becameVisible(id: item.id, index: item.index, visibility: item.visibility))
            } else if wasPartial && item.visibility == .entire {
                events.append(.becameVisible(id: item.id, index: item.index, visibility: item.visibility))
            } else if was == .entire && isPartial {
                events.append(.becameHidden(id: item.id, index: item.index, visibility: item.visibility))
            } else if wasVisible && !isVisible {
                events.append(.becameHidden(id: item.id, index: item.index, visibility: item.visibility))
            }
        }
        recorded = now
        return events
    }

    mutating func insert(_ new: [Row], at location: InsertLocation) throws(Failure) -> Outcome {
        if new.isEmpty { throw Failure(code: .emptyBatch, field: "rows") }
        let existing = Set(rows.map(\.id))
        var batch = Set<String>()
        for (i, row) in new.enumerated() {
            try Self.validate(row, prefix: "rows[\(i)].")
            if existing.contains(row.id) || batch.contains(row.id) { throw Failure(code: .duplicateID, field: "rows[\(i)].id") }
            batch.insert(row.id)
        }
        let at: Int
        switch location {
        case .top: at = 0
        case .bottom: at = rows.count
        case .index(let i):
            guard i >= 0 && i <= rows.count else { throw Failure(code: .indexOutOfRange, field: "at.index") }
            at = i
        case .before(let ref):
            guard let i = resolve(ref) else { throw Failure(code: .unknownRow, field: "at.before") }
            at = i
        case .after(let ref):
            guard let i = resolve(ref) else { throw Failure(code: .unknownRow, field: "at.after") }
            at = i + 1
        }
        let oldSize = contentSize, oldOffset = settings.offset
        rows.insert(contentsOf: new, at: at)
        var out = Outcome()
        let rowEvents = new.enumerated().map { StackEvent.rowAdded(id: $1.id, index: at + $0) }
        out.changed = new.map(\.id)
        out.events = finish(rowEvents, oldSize: oldSize, oldOffset: oldOffset)
        return out
    }

    mutating func remove(_ refs: [RowReference]) throws(Failure) -> Outcome {
        let targets = try resolveBatch(refs)
        let oldSize = contentSize, oldOffset = settings.offset
        var out = Outcome()
        var rowEvents: [StackEvent] = []
        for i in targets {
            rowEvents.append(.rowRemoved(id: rows[i].id, index: i))
            out.removed.append((rows[i], i))
        }
        let gone = Set(targets)
        rows = rows.enumerated().filter { !gone.contains($0.offset) }.map(\.element)
        out.events = finish(rowEvents, oldSize: oldSize, oldOffset: oldOffset)
        return out
    }

    mutating func removeAll() -> Outcome {
        let oldSize = contentSize, oldOffset = settings.offset
        var out = Outcome()
        let rowEvents = rows.enumerated().map { StackEvent.rowRemoved(id: $1.id, index: $0) }
        out.removed = rows.enumerated().map { ($1, $0) }
        rows = []
        out.events = finish(rowEvents, oldSize: oldSize, oldOffset: oldOffset)
        return out
    }

    mutating func replace(_ ref: RowReference, with row: Row) throws(Failure) -> Outcome {
        guard let i = resolve(ref) else { throw Failure(code: .unknownRow, field: "row") }
        try Self.validate(row, prefix: "")
        let old = rows[i]
        if row.id != old.id && rows.contains(where: { $0.id == row.id }) { throw Failure(code: .duplicateID, field: "id") }
        let oldSize = contentSize, oldOffset = settings.offset
        rows[i] = row
        var out = Outcome()
        out.changed = [row.id]
        out.removed = [(old, i)]
        out.events = finish([.rowRemoved(id: old.id, index: i), .rowAdded(id: row.id, index: i)],
                            oldSize: oldSize, oldOffset: oldOffset, fresh: row.id)
        return out
    }

    mutating func move(_ ref: RowReference, to destination: Int) throws(Failure) -> Outcome {
        guard let from = resolve(ref) else { throw Failure(code: .unknownRow, field: "row") }
        guard destination >= 0 && destination < rows.count else { throw Failure(code: .indexOutOfRange, field: "to") }
        let oldSize = contentSize, oldOffset = settings.offset
        let row = rows.remove(at: from)
        rows.insert(row, at: destination)
        var out = Outcome()
        out.changed = [row.id]
        out.events = finish(from == destination ? [] : [.rowMoved(id: row.id, from: from, to: destination)],
                            oldSize: oldSize, oldOffset: oldOffset)
        return out
    }

    static func applying(_ c: RowChange, to row: Row) -> Row {
        var r = row
        if let v = c.hidden { r.hidden = v }
        if let v = c.insets { r.insets = v }
        if let v = c.separator { r.separator = v }
        if let v = c.size { r.size = v }
        if let v = c.contentDescription { r.contentDescription = v }
        if let v = c.content { r.content = v }
        if let v = c.tappable { r.tappable = v }
        if let v = c.highlightable { r.highlightable = v }
        return r
    }

    private mutating func apply(_ change: RowChange, to targets: [Int], prefix: (Int) -> String) throws(Failure) -> Outcome {
        var updated: [Row] = []
        for (k, i) in targets.enumerated() {
            let row = Self.applying(change, to: rows[i])
            try Self.validate(row, prefix: prefix(k))
            updated.append(row)
        }
        let oldSize = contentSize, oldOffset = settings.offset
        var out = Outcome()
        var rowEvents: [StackEvent] = []
        for (i, row) in zip(targets, updated) {
            let old = rows[i]
            let oldLength = naturalLength(of: old)
            let newLength = naturalLength(of: row)
            rows[i] = row
            if old.hidden != row.hidden {
                rowEvents.append(row.hidden ? .rowHidden(id: row.id, index: i) : .rowShown(id: row.id, index: i))
            }
            if oldLength != newLength { rowEvents.append(.rowResized(id: row.id, index: i, from: oldLength, to: newLength)) }
            out.changed.append(row.id)
        }
        out.events = finish(rowEvents, oldSize: oldSize, oldOffset: oldOffset)
        return out
    }

    mutating func update(_ refs: [RowReference], with change: RowChange) throws(Failure) -> Outcome {
        let targets = try resolveBatch(refs)
        return try apply(change, to: targets, prefix: { "rows[\($0)]." })
    }

    mutating func update(_ ref: RowReference, with change: RowChange) throws(Failure) -> Outcome {
        guard let i = resolve(ref) else { throw Failure(code: .unknownRow, field: "row") }
        return try apply(change, to: [i], prefix: { _ in "" })
    }

    mutating func update(_ change: SettingsChange) throws(Failure) -> Outcome {
        let s = Self.applying(change, to: settings)
        try Self.validate(s)
        let oldSize = contentSize, oldOffset = settings.offset
        settings = s
        var out = Outcome()
        out.events = finish([], oldSize: oldSize, oldOffset: oldOffset)
        return out
    }

    static func applying(_ change: SettingsChange, to settings: StackSettings) -> StackSettings {
        var s = settings
        if let v = change.axis { s.axis = v }
        if let v = change.viewport { s.viewport = v }
        if let v = change.contentInsets { s.contentInsets = v }
        if let v = change.offset { s.offset = v }
        if let v = change.spacing { s.spacing = v }
        if let v = change.rowInsets { s.rowInsets = v }
        if let v = change.separator { s.separator = v }
        if let v = change.autoHideLastRowSeparator { s.autoHideLastRowSeparator = v }
        return s
    }

    /// Where a scroll target leads, without scrolling.
    func offset(for target: ScrollTarget) throws(Failure) -> Point {
        let vertical = axis == .vertical
        var result = settings.offset
        switch target {
        case .offset(let p):
            try Self.offsetValue(p.x, "offset.x")
            try Self.offsetValue(p.y, "offset.y")
            return p
        case .top:
            if vertical { result.y = scrollRange.lowerBound } else { result.x = scrollRange.lowerBound }
            return result
        case .bottom:
            if vertical { result.y = scrollRange.upperBound } else { result.x = scrollRange.upperBound }
            return result
        case .row(let ref, let position):
            guard let i = resolve(ref) else { throw Failure(code: .unknownRow, field: "row") }
            let f = items[i].frame
            let start = vertical ? f.origin.y : f.origin.x
            let length = vertical ? f.size.height : f.size.width
            let end = start + length
            let viewLength = mainExtent
            let current = vertical ? settings.offset.y : settings.offset.x
            var main: Double
            switch position {
            case .initial: main = start
            case .final: main = end - viewLength
            case .middle: main = start - (viewLength - length) / 2
            case .automatic:
                if start >= current && end <= current + viewLength {
                    main = current                   // already shows entirely along the axis
                } else if length > viewLength {
                    main = start                     // too long: aligned like initial
                } else if start < current {
                    main = start                     // smallest move: bring the leading edge in
                } else {
                    main = end - viewLength          // smallest move: bring the trailing edge in
                }
            }
            let range = scrollRange
            main = min(max(main, range.lowerBound), range.upperBound)
            return vertical ? Point(x: 0, y: main) : Point(x: main, y: 0)
        }
    }

    mutating func scroll(to target: ScrollTarget) throws(Failure) -> Outcome {
        let p = try offset(for: target)
        let oldSize = contentSize, oldOffset = settings.offset
        settings.offset = p
        var out = Outcome()
        out.events = finish([], oldSize: oldSize, oldOffset: oldOffset)
        return out
    }
}
