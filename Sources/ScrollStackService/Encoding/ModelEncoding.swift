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

    static func error(_ e: APIError) -> JSON {
        var members: [(String, JSON)] = [
            ("status", .integer(Int64(e.status))),
            ("code", .string(e.code.rawValue)),
            ("message", .string(e.message)),
            ("field", e.field.map(JSON.string) ?? .null),
        ]
        if let revision = e.revision { members.append(("revision", .integer(Int64(revision)))) }
        return .object(JSONObject([("error", .object(JSONObject(members)))]))
    }
}
