import JSONCodec
import ScrollStackCore

/// Turns model values into response JSON. Integral numbers are written without a fraction.
enum ModelEncoding {
    /// A computed position, length or fraction, rounded to 10⁻⁶. Sums of many lengths are
    /// added in an order that depends on the row tree's shape, so the same stack reached in
    /// two ways (or restored from the journal) can differ in the last bits; rounding makes
    /// every answer depend on the state alone.
    static func computed(_ value: Double) -> JSON {
        guard value.isFinite, abs(value) < 1e12 else { return .number(value) }
        return .number((value * 1_000_000).rounded() / 1_000_000)
    }

    static func insets(_ i: EdgeInsets) -> JSON {
        .object(JSONObject([("top", .number(i.top)), ("left", .number(i.left)), ("bottom", .number(i.bottom)), ("right", .number(i.right))]))
    }

    static func size(_ s: Size) -> JSON {
        .object(JSONObject([("width", .number(s.width)), ("height", .number(s.height))]))
    }

    static func point(_ p: Point) -> JSON {
        .object(JSONObject([("x", .number(p.x)), ("y", .number(p.y))]))
    }

    /// `{"frame", "children"?, "lines"?, "truncated"?, "ellipsis"?, "missingGlyphs"?}`: children
    /// for a group with any; lines for text with any, each `{x, y, width, height, "utf16":
    /// {start, end}, "scalars": {start, end}}` (its characters in the text as given);
    /// `truncated: true` when `maxLines` hid lines; the ellipsis's box when one ends the last
    /// line; the characters the font has no glyph for, when there are any.
    static func contentFrame(_ f: ContentFrame) -> JSON {
        var members: [(String, JSON)] = [("frame", rect(f.frame))]
        if !f.children.isEmpty { members.append(("children", .array(f.children.map(contentFrame)))) }
        if !f.lines.isEmpty {
            members.append(("lines", .array(f.lines.enumerated().map { i, line in
                guard i < f.ranges.count, case .object(var members) = rect(line) else { return rect(line) }
                let range = f.ranges[i]
                func span(_ r: Range<Int>) -> JSON { .object(JSONObject([("start", .integer(Int64(r.lowerBound))), ("end", .integer(Int64(r.upperBound)))])) }
                members["utf16"] = span(range.utf16)
                members["scalars"] = span(range.scalars)
                return .object(members)
            })))
        }
        if f.truncated { members.append(("truncated", .bool(true))) }
        if let ellipsis = f.ellipsis { members.append(("ellipsis", rect(ellipsis))) }
        if !f.missingGlyphs.isEmpty { members.append(("missingGlyphs", .array(f.missingGlyphs.map { .string($0) }))) }
        return .object(JSONObject(members))
    }

    static func rect(_ r: Rect) -> JSON {
        .object(JSONObject([("x", computed(r.minX)), ("y", computed(r.minY)), ("width", computed(r.size.width)), ("height", computed(r.size.height))]))
    }

    static func computedSize(_ s: Size) -> JSON {
        .object(JSONObject([("width", computed(s.width)), ("height", computed(s.height))]))
    }

    static func separatorStyle(_ s: SeparatorStyle) -> JSON {
        .object(JSONObject([("hidden", .bool(s.hidden)), ("thickness", .number(s.thickness)), ("insets", insets(s.insets)), ("color", .string(s.color))]))
    }

    static func settings(_ s: StackSettings) -> [(String, JSON)] {
        [
            ("axis", .string(s.axis.rawValue)),
            ("viewport", size(s.viewport)),
            ("contentInsets", insets(s.contentInsets)),
            ("offset", point(s.offset)),
            ("spacing", .number(s.spacing)),
            ("rowInsets", insets(s.rowInsets)),
            ("separator", separatorStyle(s.separator)),
            ("autoHideLastRowSeparator", .bool(s.autoHideLastRowSeparator)),
        ] + (s.crossLength.map { [("crossLength", JSON.number($0))] } ?? []) + carouselSettings(s)
    }

    /// Opaque client properties, parsed back from the text the model keeps.
    static func properties(_ text: String) -> JSON {
        (try? JSON.parse(Array(text.utf8))) ?? .string(text)
    }

    static func lengthRule(_ rule: LengthRule) -> JSON {
        switch rule {
        case .fit: .string("fit")
        case .fixed(let length): .object(JSONObject([("fixed", .number(length))]))
        }
    }

    static func sizeRule(_ rule: SizeRule) -> JSON {
        if rule.vertical == rule.horizontal { return lengthRule(rule.vertical) }
        return .object(JSONObject([("vertical", lengthRule(rule.vertical)), ("horizontal", lengthRule(rule.horizontal))]))
    }

    static func contentDescription(_ d: ContentDescription) -> JSON {
        var members: [(String, JSON)] = []
        switch d.kind {
        case .box(let width, let height):
            if let width { members.append(("width", .number(width))) }
            if let height { members.append(("height", .number(height))) }
        case .aspectRatio(let ratio):
            members.append(("aspectRatio", .number(ratio)))
        case .text(let t):
            members += text(t)
        case .stack(let axis, let spacing, let padding, let children):
            members.append(("stack", .string(axis.rawValue)))
            members.append(("spacing", .number(spacing)))
            members.append(("padding", insets(padding)))
            members.append(("children", .array(children.map(contentDescription))))
        }
        for (name, value) in [("minWidth", d.minWidth), ("maxWidth", d.maxWidth), ("minHeight", d.minHeight), ("maxHeight", d.maxHeight)] {
            if let value { members.append((name, .number(value))) }
        }
        return .object(JSONObject(members))
    }

    /// A row as the client wrote it (overrides only where set), plus its index when given.
    static func row(_ row: Row, index: Int? = nil) -> JSON {
        var members: [(String, JSON)] = [("id", .string(row.id))]
        if let index { members.append(("index", .integer(Int64(index)))) }
        switch row.content {
        case .controller(let c):
            var o: [(String, JSON)] = [("type", .string(c.type))]
            if let instance = c.instance { o.append(("instance", .string(instance))) }
            if let props = c.properties { o.append(("props", properties(props))) }
            members.append(("controller", .object(JSONObject(o))))
        case .view(let v):
            var o: [(String, JSON)] = [("type", .string(v.type))]
            if let props = v.properties { o.append(("props", properties(props))) }
            members.append(("view", .object(JSONObject(o))))
        }
        members.append(("size", sizeRule(row.size)))
        if let content = row.contentDescription { members.append(("content", contentDescription(content))) }
        if let rowInsets = row.insets { members.append(("insets", insets(rowInsets))) }
        if !row.separator.isEmpty {
            var o: [(String, JSON)] = []
            if let hidden = row.separator.hidden { o.append(("hidden", .bool(hidden))) }
            if let thickness = row.separator.thickness { o.append(("thickness", .number(thickness))) }
            if let separatorInsets = row.separator.insets { o.append(("insets", insets(separatorInsets))) }
            if let color = row.separator.color { o.append(("color", .string(color))) }
            members.append(("separator", .object(JSONObject(o))))
        }
        members.append(("hidden", .bool(row.hidden)))
        members.append(("tappable", .bool(row.tappable)))
        members.append(("highlightable", .bool(row.highlightable)))
        if let rowTitle = row.title { members.append(("title", title(rowTitle))) }
        if let transition = row.transition { members.append(("transition", rowTransition(transition))) }
        if let style = row.style { members.append(("style", rowStyle(style))) }
        if let embedded = row.stack { members.append(("stack", .string(embedded))) }
        return .object(JSONObject(members))
    }

    /// The whole model: settings, content size and rows in order.
    static func stack(id: String, revision: Int, _ stack: ScrollStack) -> JSON {
        var members: [(String, JSON)] = [("id", .string(id)), ("revision", .integer(Int64(revision)))]
        members += settings(stack.settings)
        members.append(("contentSize", computedSize(stack.contentSize)))
        var rows: [JSON] = []
        rows.reserveCapacity(stack.count)
        for (index, r) in stack.rows.enumerated() { rows.append(row(r, index: index)) }
        members.append(("rows", .array(rows)))
        return .object(JSONObject(members))
    }

    /// The state and its fraction; a partial fraction stays strictly between 0 and 1 once
    /// rounded (10⁻⁶ and 1 − 10⁻⁶ at the ends).
    static func visibility(_ v: Visibility) -> [(String, JSON)] {
        var fraction = (v.fraction * 1_000_000).rounded() / 1_000_000
        if case .partial = v { fraction = min(max(fraction, 0.000001), 0.999999) }
        return [("visibility", .string(v.name)), ("visibleFraction", .number(fraction))]
    }

    static func rowLayout(_ l: RowLayout) -> [(String, JSON)] {
        [
            ("frame", rect(l.frame)),
            ("contentFrame", rect(l.contentFrame)),
            ("separatorFrame", l.separatorFrame.map(rect) ?? .null),
        ] + visibility(l.visibility)
    }

    /// The layout answer; `revision` is omitted for the stateless endpoint. With `content`,
    /// each row it answers a frame tree for gets a `"content"` member (`?content=frames`).
    static func layout(revision: Int?, _ layout: StackLayout, content: ((RowLayout) -> ContentFrame?)? = nil) -> JSON {
        var visible: [JSON] = []
        var entire: [JSON] = []
        var rows: [JSON] = []
        rows.reserveCapacity(layout.rows.count)
        for l in layout.rows {
            var members = [("id", JSON.string(l.id)), ("index", .integer(Int64(l.index)))] + rowLayout(l)
            if let frames = content?(l) { members.append(("content", contentFrame(frames))) }
            rows.append(.object(JSONObject(members)))
            if l.visibility.isVisible { visible.append(.string(l.id)) }
            if l.visibility == .entire { entire.append(.string(l.id)) }
        }
        var members: [(String, JSON)] = revision.map { [("revision", .integer(Int64($0)))] } ?? []
        members += [
            ("axis", .string(layout.axis.rawValue)),
            ("viewport", size(layout.viewport)),
            ("offset", point(layout.offset)),
            ("contentSize", computedSize(layout.contentSize)),
            ("rows", .array(rows)),
            ("visibleRows", .array(visible)),
            ("entirelyVisibleRows", .array(entire)),
        ]
        return .object(JSONObject(members))
    }

    /// `event(_:)` ending with `"time": time` (`EventTime`): how the journal keeps it, and
    /// how the history and the live stream answer it.
    static func event(_ event: StackEvent, time: String) -> JSON {
        guard case .object(var members) = self.event(event) else { return self.event(event) }
        members["time"] = .string(time)
        return .object(members)
    }

    static func event(_ event: StackEvent) -> JSON {
        var members: [(String, JSON)] = [("type", .string(event.name))]
        func idIndex(_ id: String, _ index: Int) {
            members.append(("id", .string(id)))
            members.append(("index", .integer(Int64(index))))
        }
        switch event {
        case .rowAdded(let id, let index), .rowRemoved(let id, let index), .rowHidden(let id, let index), .rowShown(let id, let index):
            idIndex(id, index)
        case .rowMoved(let id, let from, let to):
            members += [("id", .string(id)), ("from", .integer(Int64(from))), ("to", .integer(Int64(to)))]
        case .rowResized(let id, let index, let from, let to):
            idIndex(id, index)
            members += [("from", computed(from)), ("to", computed(to))]
        case .becameVisible(let id, let index, let v), .becameHidden(let id, let index, let v):
            idIndex(id, index)
            members += visibility(v)
        case .contentSizeChanged(let from, let to):
            members += [("from", computedSize(from)), ("to", computedSize(to))]
        case .didScroll(let from, let to):
            members += [("from", point(from)), ("to", point(to))]
        case .layoutUpdated:
            break
        }
        return .object(JSONObject(members))
    }

    /// The answer to every mutation: revision, the rows it touched (with their indexes),
    /// the rows it removed (with their former indexes), and its events.
    static func mutation(revision: Int, _ result: OperationResult, in stack: ScrollStack) -> JSON {
        var changed: [JSON] = []
        for id in result.changed {
            if let index = stack.index(ofID: id) { changed.append(row(stack.row(at: index), index: index)) }
        }
        var members: [(String, JSON)] = [("revision", .integer(Int64(revision))), ("changed", .array(changed))]
        if !result.removed.isEmpty {
            members.append(("removed", .array(result.removed.map { row($0.row, index: $0.index) })))
        }
        members.append(("events", .array(result.events.map(event))))
        return .object(JSONObject(members))
    }

    static func error(_ e: APIError) -> JSON {
        var members: [(String, JSON)] = [
            ("status", .integer(Int64(e.status))),
            ("code", .string(e.code)),
            ("message", .string(e.message)),
            ("field", e.field.map(JSON.string) ?? .null),
        ]
        if let revision = e.revision { members.append(("revision", .integer(Int64(revision)))) }
        return .object(JSONObject([("error", .object(JSONObject(members)))]))
    }
}
