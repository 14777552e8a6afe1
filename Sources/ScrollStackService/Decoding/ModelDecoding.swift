import JSONCodec
import ScrollStackCore

/// Turns request JSON into model values. Every function names the offending field on error.
/// Numbers are only type-checked here; the model checks ranges (negative, non-finite) itself,
/// with the same field paths.
enum ModelDecoding {
    // MARK: Geometry

    /// `{"top","left","bottom","right"}`: the sides given, the others taken from `base`.
    ///
    /// The one rule for every insets member (Semantics.md, "Partial insets"): a partial object
    /// changes only the sides it names of the insets it replaces. `base` is therefore what the
    /// member replaces: the current value in a PATCH, the default that applies otherwise (the
    /// stack's `rowInsets` for a row's insets, its separator's insets for a row's separator
    /// insets, the built-in default of a setting). Callers pass it; there is no default here.
    static func insets(_ field: Field, base: EdgeInsets) throws(APIError) -> EdgeInsets {
        let object = try field.object()
        try object.allowOnly(["top", "left", "bottom", "right"])
        var insets = base
        if let f = try object.optional("top") { insets.top = try f.double() }
        if let f = try object.optional("left") { insets.left = try f.double() }
        if let f = try object.optional("bottom") { insets.bottom = try f.double() }
        if let f = try object.optional("right") { insets.right = try f.double() }
        return insets
    }

    /// `{"width","height"}`; missing members come from `base`.
    static func size(_ field: Field, base: Size) throws(APIError) -> Size {
        let object = try field.object()
        try object.allowOnly(["width", "height"])
        var size = base
        if let f = try object.optional("width") { size.width = try f.double() }
        if let f = try object.optional("height") { size.height = try f.double() }
        return size
    }

    /// `{"x","y"}`; missing members come from `base`.
    static func point(_ field: Field, base: Point) throws(APIError) -> Point {
        let object = try field.object()
        try object.allowOnly(["x", "y"])
        var point = base
        if let f = try object.optional("x") { point.x = try f.double() }
        if let f = try object.optional("y") { point.y = try f.double() }
        return point
    }

    static func axis(_ field: Field) throws(APIError) -> Axis {
        try field.choice([("vertical", Axis.vertical), ("horizontal", .horizontal)])
    }

    // MARK: Settings

    static let settingsKeys = ["axis", "viewport", "contentInsets", "offset", "spacing", "rowInsets", "separator", "autoHideLastRowSeparator",
                               "crossLength"] + carouselKeys

    /// Reads the settings members of `object` onto `base` (create: the defaults; PATCH: the
    /// current settings). Nested objects merge member by member.
    static func settings(_ object: ObjectReader, base: StackSettings) throws(APIError) -> StackSettings {
        var s = base
        if let f = try object.optional("axis") { s.axis = try axis(f) }
        if let f = try object.optional("viewport") { s.viewport = try size(f, base: base.viewport) }
        if let f = try object.optional("contentInsets") { s.contentInsets = try insets(f, base: base.contentInsets) }
        if let f = try object.optional("offset") { s.offset = try point(f, base: base.offset) }
        if let f = try object.optional("spacing") { s.spacing = try f.double() }
        if let f = try object.optional("rowInsets") { s.rowInsets = try insets(f, base: base.rowInsets) }
        if let f = try object.optional("separator") { s.separator = try separatorStyle(f, base: base.separator) }
        if let f = try object.optional("autoHideLastRowSeparator") { s.autoHideLastRowSeparator = try f.bool() }
        // null: the rows span the viewport again (the default).
        if let f = object.field("crossLength") { s.crossLength = f.isNull ? nil : try f.double() }
        if let f = object.field("paging") { s.paging = try paging(f, current: base.paging) }
        if let f = object.field("pageIndicator") { s.pageIndicator = try pageIndicator(f, current: base.pageIndicator) }
        if let f = object.field("menu") { s.menu = try menu(f, current: base.menu) }
        return s
    }

    /// The stack's separator: like an override, but null means nothing here.
    static func separatorStyle(_ field: Field, base: SeparatorStyle) throws(APIError) -> SeparatorStyle {
        for (key, _) in try field.object().object {
            _ = try field.object().optional(key)  // rejects null members
        }
        let override = try separatorOverride(field, base: .none, insetsBase: base.insets)
        return base.applying(override)
    }

    /// `{"hidden","thickness","insets","color"}`. A member set to null clears that override
    /// (the row follows the stack again); an absent member keeps `base`'s. Partial `insets`
    /// change the sides they name of `insetsBase`: the separator insets they replace.
    static func separatorOverride(_ field: Field, base: SeparatorOverride, insetsBase: EdgeInsets) throws(APIError) -> SeparatorOverride {
        let object = try field.object()
        try object.allowOnly(["hidden", "thickness", "insets", "color"])
        var o = base
        if let f = object.field("hidden") { o.hidden = f.isNull ? nil : try f.bool() }
        if let f = object.field("thickness") { o.thickness = f.isNull ? nil : try f.double() }
        if let f = object.field("insets") { o.insets = f.isNull ? nil : try insets(f, base: insetsBase) }
        if let f = object.field("color") {
            if f.isNull {
                o.color = nil
            } else {
                let text = try f.string()
                guard let color = SeparatorStyle.normalizedColor(text) else {
                    throw .invalid(f.path, "must be a colour written #RRGGBB or #RRGGBBAA, got \"\(text)\"")
                }
                o.color = color
            }
        }
        return o
    }

    // MARK: Rows

    static let rowKeys = ["id", "controller", "view", "size", "content", "insets", "separator", "hidden", "tappable", "highlightable", "title", "index", "transition", "style", "stack"]

    /// A row. Without an id, `makeID` supplies one. Without a size, a row with content
    /// fits it; a row with neither is an error. `props` and `content` may nest at most
    /// `maxDepth` deep.
    static func row(_ field: Field, maxDepth: Int, maxTitle: Int, defaults: StackSettings, makeID: () -> String) throws(APIError) -> Row {
        switch try decodedRow(field, maxDepth: maxDepth, maxTitle: maxTitle, defaults: defaults, makeID: makeID) {
        case .plain(let id, let content, let size, let hidden): Row(id: id, content: content, size: size, hidden: hidden)
        case .full(let row): row
        }
    }

    /// A row as `row` decodes it (the same checks in the same order), kept as its plain
    /// fields when it sets none of the others, for `ScrollStackBuilder.append(id:content:size:hidden:)`.
    /// Partial `insets` (and separator insets) are over `defaults`' `rowInsets` (and
    /// separator insets): what a row without its own follows.
    static func decodedRow(_ field: Field, maxDepth: Int, maxTitle: Int, defaults: StackSettings, makeID: () -> String) throws(APIError) -> DecodedRow {
        let object = try field.object()
        try object.allowOnly(rowKeys) { rowMemberMisplaced($0, in: object) }
        let id = try object.optional("id").map { f throws(APIError) in try f.string() } ?? makeID()
        let embedded = try object.optional("stack").map { f throws(APIError) in try embeddedStack(f) }
        let content = embedded != nil && !object.has("controller") && !object.has("view")
            ? RowContent.view(ViewDescriptor(type: embeddedStackViewType)) : try rowContent(object, maxDepth: maxDepth)
        let description = try object.optional("content").map { f throws(APIError) in try contentDescription(f, maxDepth: maxDepth) }
        let size: SizeRule
        if let f = try object.optional("size") {
            size = try sizeRule(f)
        } else if description != nil {
            size = .fit
        } else {
            throw .missing(object.path.isEmpty ? "size" : object.path + ".size", "is required: give {\"fixed\": n}, \"fit\" with a content description, or a rule per axis")
        }
        let ownInsets = try object.optional("insets").map { f throws(APIError) in try insets(f, base: defaults.rowInsets) }
        let separator = try object.optional("separator").map { f throws(APIError) in
            try separatorOverride(f, base: .none, insetsBase: defaults.separator.insets)
        } ?? .none
        let hidden = try object.optional("hidden")?.bool() ?? false
        let transition = try object.optional("transition").map { f throws(APIError) in try rowTransition(f) }
        let tappable = try object.optional("tappable")?.bool() ?? false
        let highlightable = try object.optional("highlightable")?.bool() ?? false
        let menuTitle = try object.optional("title").map { f throws(APIError) in try title(f, maxCharacters: maxTitle) }
        let style = try object.optional("style").map { f throws(APIError) in try rowStyle(f) }
        if description == nil, ownInsets == nil, separator.isEmpty, !tappable, !highlightable, menuTitle == nil, transition == nil, style == nil,
           embedded == nil {
            return .plain(id: id, content: content, size: size, hidden: hidden)
        }
        var row = Row(id: id, content: content, size: size, contentDescription: description, insets: ownInsets, separator: separator,
                      hidden: hidden, tappable: tappable, highlightable: highlightable, transition: transition)
        row.title = menuTitle
        row.style = style
        row.stack = embedded
        return .full(row)
    }

    /// The view type of a row that embeds a stack and names no descriptor of its own.
    static let embeddedStackViewType = "ScrollStack"

    /// A row's `stack`: the id of the stack it embeds, by the rule of stack ids. Whether that
    /// stack exists and embeds no cycle is the service's check (`Embeddings`).
    static func embeddedStack(_ field: Field) throws(APIError) -> String {
        let id = try field.string()
        try StackService.checkStackID(id, field: field.path)
        return id
    }

    /// The error for a row's member written on a stack (create or PATCH body): `insets`
    /// (a stack has `contentInsets` and `rowInsets`) and `size`; nil for others.
    static func stackMemberMisplaced(_ key: String, path: String) -> APIError? {
        let message: String
        switch key {
        case "insets": message = "a stack has no \"insets\": use \"contentInsets\" (around all the rows) or \"rowInsets\" (every row's default insets)"
        case "size": message = "a stack has no \"size\": use \"viewport\" ({\"width\", \"height\"}) for the visible area; each row has its own \"size\""
        default: return nil
        }
        return APIError(.unknownField, message: message, field: Field.memberPath(path, key))
    }

    /// The error for a member of a row's descriptor written on the row itself (`type`,
    /// `props`, `instance`): with no descriptor, the `controller` to add (422
    /// `missing_field`); beside one, where the member goes (422 `unknown_field`). Nil for others.
    static func rowMemberMisplaced(_ key: String, in object: ObjectReader) -> APIError? {
        guard ["type", "props", "instance"].contains(key) else { return nil }
        let example = "{\"controller\": {\"type\": \"…\", \"props\": {…}}}"
        guard let holder = ["controller", "view"].first(where: object.has) else {
            return .missing(Field.memberPath(object.path, "controller"),
                            "\"\(key)\" goes inside a \"controller\" (or \"view\") descriptor: \(example)")
        }
        return APIError(.unknownField, message: "belongs inside \"\(holder)\", not on the row: \(example)",
                        field: Field.memberPath(object.path, key))
    }

    /// Exactly one of `controller` and `view`; `props` may nest at most `maxDepth` deep.
    static func rowContent(_ object: ObjectReader, maxDepth: Int) throws(APIError) -> RowContent {
        switch (try object.optional("controller"), try object.optional("view")) {
        case (let c?, nil):
            let o = try c.object()
            try o.allowOnly(["type", "instance", "props"])
            return .controller(ControllerDescriptor(
                type: try o.required("type").string(),
                instance: try o.optional("instance").map { f throws(APIError) in try f.string() },
                properties: try o.optional("props").map { f throws(APIError) in try freeForm(f, maxDepth: maxDepth) }
            ))
        case (nil, let v?):
            let o = try v.object()
            try o.allowOnly(["type", "props"])
            return .view(ViewDescriptor(
                type: try o.required("type").string(),
                properties: try o.optional("props").map { f throws(APIError) in try freeForm(f, maxDepth: maxDepth) }
            ))
        case (_?, _?):
            throw .invalid(object.path.isEmpty ? "view" : object.path + ".view", "a row holds a controller or a view, not both")
        case (nil, nil):
            throw .missing(object.path.isEmpty ? "controller" : object.path + ".controller", "a row needs a \"controller\" or a \"view\" descriptor")
        }
    }

    /// `{"fixed": n}` | `"fit"` | `{"vertical": rule, "horizontal": rule}`.
    static func sizeRule(_ field: Field) throws(APIError) -> SizeRule {
        if field.value.objectValue != nil {
            let object = try field.object()
            if object.has("fixed") {
                try object.allowOnly(["fixed"])
                return .fixed(try object.required("fixed").double())
            }
            try object.allowOnly(["vertical", "horizontal"])
            return SizeRule(vertical: try lengthRule(object.required("vertical")),
                            horizontal: try lengthRule(object.required("horizontal")))
        }
        return SizeRule(vertical: try lengthRule(field), horizontal: try lengthRule(field))
    }

    static func lengthRule(_ field: Field) throws(APIError) -> LengthRule {
        if let text = field.value.stringValue {
            guard text == "fit" else { throw .invalid(field.path, "must be \"fit\" or {\"fixed\": n}, got \"\(text)\"") }
            return .fit
        }
        guard field.value.objectValue != nil else {
            throw .wrongType(field.path, expected: "\"fit\" or {\"fixed\": n}", got: field.value.typeName)
        }
        let object = try field.object()
        try object.allowOnly(["fixed"])
        return .fixed(try object.required("fixed").double())
    }

    /// `{"width"?,"height"?}` | `{"aspectRatio"}` | `{"stack","spacing","padding","children"}`,
    /// each with optional `minWidth`, `maxWidth`, `minHeight`, `maxHeight`.
    static func contentDescription(_ field: Field, depth: Int = 0) throws(APIError) -> ContentDescription {
        guard depth < 64 else { throw .invalid(field.path, "nests deeper than 64 levels") }
        let object = try field.object()
        let clamps = ["minWidth", "maxWidth", "minHeight", "maxHeight"]
        let kind: ContentDescription.Kind
        let stackKeys = ["stack", "spacing", "padding", "children"]
        // What a member of another kind of description lacks to be valid here.
        let misplaced = { (key: String) -> APIError? in
            if stackKeys.contains(key) && !object.has("stack") {
                return .missing(Field.memberPath(object.path, "stack"),
                                "\"\(key)\" needs \"stack\" beside it (\"vertical\" or \"horizontal\"): only a stack has children, spacing and padding")
            }
            if textKeys.contains(key) && !object.has("text") {
                return .missing(Field.memberPath(object.path, "text"), "\"\(key)\" needs \"text\" beside it: it styles a text node")
            }
            let kinds = ["stack", "text", "aspectRatio"].filter(object.has)
            guard kinds.count > 1 else { return nil }
            return .invalid(Field.memberPath(object.path, kinds[1]),
                            "a content description is one kind: give only one of \(kinds.map { "\"\($0)\"" }.joined(separator: ", ")) (put the others in \"children\" of a stack)")
        }
        if object.has("stack") {
            try object.allowOnly(stackKeys + clamps, misplaced: misplaced)
            let children = try object.optional("children").map { f throws(APIError) in try f.array() } ?? []
            var described: [ContentDescription] = []
            for child in children { described.append(try contentDescription(child, depth: depth + 1)) }
            kind = .stack(
                axis: try axis(object.required("stack")),
                spacing: try object.optional("spacing")?.double() ?? 0,
                padding: try object.optional("padding").map { f throws(APIError) in try insets(f, base: .zero) } ?? .zero,
                children: described
            )
        } else if object.has("text") {
            try object.allowOnly(textKeys + clamps, misplaced: misplaced)
            kind = .text(try text(object))
        } else if object.has("aspectRatio") {
            try object.allowOnly(["aspectRatio"] + clamps, misplaced: misplaced)
            kind = .aspectRatio(try object.required("aspectRatio").double())
        } else {
            try object.allowOnly(["width", "height"] + clamps, misplaced: misplaced)
            kind = .box(width: try object.optional("width")?.double(), height: try object.optional("height")?.double())
        }
        return ContentDescription(
            kind,
            minWidth: try object.optional("minWidth")?.double(),
            maxWidth: try object.optional("maxWidth")?.double(),
            minHeight: try object.optional("minHeight")?.double(),
            maxHeight: try object.optional("maxHeight")?.double()
        )
    }

    // MARK: References and targets

    /// A row id (string) or index (integer).
    static func reference(_ field: Field) throws(APIError) -> RowReference {
        switch field.value {
        case .string(let id): return .id(id)
        case .integer: return .index(try field.int())
        case .real where field.value.int64Value != nil: return .index(try field.int())
        default: throw .wrongType(field.path, expected: "a row id (string) or index (integer)", got: field.value.typeName)
        }
    }

    /// `"top"` | `"bottom"` | `{"index": n}` | `{"before": ref}` | `{"after": ref}`.
    static func location(_ field: Field) throws(APIError) -> InsertLocation {
        if field.value.stringValue != nil {
            return try field.choice([("top", InsertLocation.top), ("bottom", .bottom)])
        }
        let object = try field.object()
        try object.allowOnly(["index", "before", "after"])
        guard object.object.count == 1 else {
            throw .invalid(field.path, "give exactly one of \"index\", \"before\", \"after\"")
        }
        if let f = try object.optional("index") { return .index(try f.int()) }
        if let f = try object.optional("before") { return .before(try reference(f)) }
        if let f = try object.optional("after") { return .after(try reference(f)) }
        throw .invalid(field.path, "give exactly one of \"index\", \"before\", \"after\"")
    }

    /// `{"offset":{x,y}}` | `{"row": ref, "position"?}` | `{"to": "top"|"bottom"}` | `{"page": n}`
    /// and/or `{"crossPage": m}`, each with an optional `dryRun` (read by the route); `page`
    /// resolves the page members into the offset of their stops.
    static func scrollTarget(_ object: ObjectReader, currentOffset: Point,
                             page: (Field?, Field?) throws(APIError) -> Point) throws(APIError) -> ScrollTarget {
        try object.allowOnly(["offset", "row", "position", "to", "page", "crossPage", "dryRun"])
        let kinds = ["offset", "row", "to", "page", "crossPage"].filter(object.has)
        guard kinds.count == 1 || kinds == ["page", "crossPage"] else {
            throw .invalid(kinds.count > 1 ? kinds[1] : nil, "give exactly one of \"offset\", \"row\" (with \"position\"), \"to\", \"page\" (and/or \"crossPage\")")
        }
        if object.has("page") || object.has("crossPage") {
            return .offset(try page(try object.optional("page"), try object.optional("crossPage")))
        }
        if object.has("position") && !object.has("row") {
            throw .invalid("position", "only goes with \"row\"")
        }
        if let f = try object.optional("offset") { return .offset(try point(f, base: currentOffset)) }
        if let f = try object.optional("to") { return try f.choice([("top", ScrollTarget.top), ("bottom", .bottom)]) }
        let position = try object.optional("position")?.choice(ScrollPosition.allCases.map { ($0.rawValue, $0) }) ?? .automatic
        return .row(try reference(object.required("row")), position)
    }
}
