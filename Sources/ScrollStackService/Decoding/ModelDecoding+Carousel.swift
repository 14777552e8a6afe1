import JSONCodec
import ScrollStackCore

/// Decoding of the carousel settings (`paging`, `pageIndicator`, `menu`) and a row's `title`.
/// Each setting is null or false (off), true (on with the defaults, or as it is), or an
/// object merged member by member onto the current value (or the defaults).
extension ModelDecoding {
    static let carouselKeys = ["paging", "pageIndicator", "menu"]

    /// Reads an on/off/merge setting: nil when off.
    static func toggle<T>(_ field: Field, current: T?, defaults: T, merge: (ObjectReader, T) throws(APIError) -> T) throws(APIError) -> T? {
        if field.isNull { return nil }
        if let on = field.value.boolValue { return on ? current ?? defaults : nil }
        guard field.value.objectValue != nil else {
            throw .wrongType(field.path, expected: "an object, true, false or null", got: field.value.typeName)
        }
        return try merge(try field.object(), current ?? defaults)
    }

    static func paging(_ field: Field, current: PagingSettings?) throws(APIError) -> PagingSettings? {
        try toggle(field, current: current, defaults: PagingSettings()) { object, base throws(APIError) in
            try object.allowOnly(["size", "alignment", "sizeInsets", "positionInsets", "contentInsetEdges"])
            var p = base
            if let f = try object.optional("size") { p.size = try pageSize(f) }
            if let f = try object.optional("alignment") { p.alignment = try f.choice(PagingSettings.Alignment.allCases.map { ($0.rawValue, $0) }) }
            if let f = try object.optional("sizeInsets") { p.sizeInsets = try insets(f, base: base.sizeInsets) }
            if let f = try object.optional("positionInsets") { p.positionInsets = try insets(f, base: base.positionInsets) }
            if let f = try object.optional("contentInsetEdges") {
                var edges = Set<PagingSettings.Edge>()
                for element in try f.array() {
                    let edge = try element.choice(PagingSettings.Edge.allCases.map { ($0.rawValue, $0) })
                    guard edges.insert(edge).inserted else { throw .invalid(element.path, "names \"\(edge.rawValue)\" twice") }
                }
                p.contentInsetEdges = edges
            }
            return p
        }
    }

    /// `{"absolute": points}` | `{"fraction": f}` | `"rows"`.
    static func pageSize(_ field: Field) throws(APIError) -> PagingSettings.PageSize {
        let expected = "{\"absolute\": points}, {\"fraction\": f} or \"rows\""
        if let text = field.value.stringValue {
            guard text == "rows" else { throw .invalid(field.path, "must be \(expected), got \"\(text)\"") }
            return .rows
        }
        guard field.value.objectValue != nil else { throw .wrongType(field.path, expected: expected, got: field.value.typeName) }
        let object = try field.object()
        try object.allowOnly(["absolute", "fraction"])
        guard object.object.count == 1 else { throw .invalid(field.path, "must be \(expected): give exactly one of \"absolute\", \"fraction\"") }
        if let f = try object.optional("absolute") { return .absolute(try f.double()) }
        return .fraction(try object.required("fraction").double())
    }

    static func pageIndicator(_ field: Field, current: PageIndicatorSettings?) throws(APIError) -> PageIndicatorSettings? {
        try toggle(field, current: current, defaults: PageIndicatorSettings()) { object, base throws(APIError) in
            try object.allowOnly(["hidesForSinglePage", "dotDiameter", "dotSpacing", "height", "position", "inset",
                                  "pageIndicatorTintColor", "currentPageIndicatorTintColor"])
            var p = base
            if let f = try object.optional("hidesForSinglePage") { p.hidesForSinglePage = try f.bool() }
            if let f = try object.optional("dotDiameter") { p.dotDiameter = try f.double() }
            if let f = try object.optional("dotSpacing") { p.dotSpacing = try f.double() }
            if let f = try object.optional("height") { p.height = try f.double() }
            if let f = try object.optional("position") { p.position = try f.choice(PageIndicatorSettings.Position.allCases.map { ($0.rawValue, $0) }) }
            if let f = try object.optional("inset") { p.inset = try f.double() }
            if let f = try object.optional("pageIndicatorTintColor") { p.pageIndicatorTintColor = try color(f) }
            if let f = try object.optional("currentPageIndicatorTintColor") { p.currentPageIndicatorTintColor = try color(f) }
            return p
        }
    }

    /// `#RRGGBB` or `#RRGGBBAA` (either case), answered as `#RRGGBBAA` in capitals.
    static func color(_ field: Field) throws(APIError) -> String {
        let text = try field.string()
        guard let color = SeparatorStyle.normalizedColor(text) else {
            throw .invalid(field.path, "must be a colour written #RRGGBB or #RRGGBBAA, got \"\(text)\"")
        }
        return color
    }

    static func menu(_ field: Field, current: MenuSettings?) throws(APIError) -> MenuSettings? {
        try toggle(field, current: current, defaults: MenuSettings()) { object, base throws(APIError) in
            try object.allowOnly(["itemSize", "itemSpacing", "itemLabelSpacing", "insets", "horizontalAlignment",
                                  "selectedScrollPosition", "menuTransition", "indicator", "border", "position", "font", "selectedFont",
                                  "textColor", "selectedTextColor", "backgroundColor", "selectedBackgroundColor",
                                  "indicatorColor", "borderColor", "menuBackgroundColor"])
            var m = base
            if let f = try object.optional("itemSize") { m.itemSize = try menuItemSize(f) }
            if let f = try object.optional("itemSpacing") { m.itemSpacing = try f.double() }
            if let f = try object.optional("itemLabelSpacing") { m.itemLabelSpacing = try f.double() }
            if let f = try object.optional("insets") { m.insets = try insets(f, base: base.insets) }
            if let f = try object.optional("horizontalAlignment") {
                m.horizontalAlignment = try f.choice(MenuSettings.HorizontalAlignment.allCases.map { ($0.rawValue, $0) })
            }
            if let f = try object.optional("selectedScrollPosition") {
                m.selectedScrollPosition = try f.choice(MenuSettings.ScrollPosition.allCases.map { ($0.rawValue, $0) })
            }
            if let f = try object.optional("menuTransition") {
                m.menuTransition = try f.choice(MenuSettings.Transition.allCases.map { ($0.rawValue, $0) })
            }
            if let f = try object.optional("indicator") { m.indicator = try menuIndicator(f, current: base.indicator) }
            if let f = try object.optional("border") { m.border = try menuBorder(f, current: base.border) }
            if let f = try object.optional("position") { m.position = try f.choice(MenuSettings.Position.allCases.map { ($0.rawValue, $0) }) }
            if let f = try object.optional("font") { m.font = try font(f) }
            if let f = try object.optional("selectedFont") { m.selectedFont = try font(f) }
            if let f = try object.optional("textColor") { m.textColor = try color(f) }
            if let f = try object.optional("selectedTextColor") { m.selectedTextColor = try color(f) }
            if let f = try object.optional("backgroundColor") { m.backgroundColor = try color(f) }
            if let f = try object.optional("selectedBackgroundColor") { m.selectedBackgroundColor = try color(f) }
            if let f = try object.optional("indicatorColor") { m.indicatorColor = try color(f) }
            if let f = try object.optional("borderColor") { m.borderColor = try color(f) }
            if let f = try object.optional("menuBackgroundColor") { m.menuBackgroundColor = try color(f) }
            return m
        }
    }

    /// `{"fixed": {width, height}}` | `{"sizeToFit": {minWidth, height}}` | `{"selfSizing": {estimatedWidth, height}}`;
    /// missing widths are 150 and missing heights 40 (Parchment's default item size).
    static func menuItemSize(_ field: Field) throws(APIError) -> MenuSettings.ItemSize {
        let modes = ["fixed": "width", "sizeToFit": "minWidth", "selfSizing": "estimatedWidth"]
        let expected = "{\"fixed\": {width, height}}, {\"sizeToFit\": {minWidth, height}} or {\"selfSizing\": {estimatedWidth, height}}"
        guard field.value.objectValue != nil else { throw .wrongType(field.path, expected: expected, got: field.value.typeName) }
        let object = try field.object()
        guard object.object.count == 1, let mode = object.object.keys.first else {
            throw .invalid(field.path, "must be \(expected): give exactly one mode")
        }
        guard let widthKey = modes[mode] else {
            throw .invalid(object.field(mode)?.path ?? field.path, "is not an item size mode; expected one of: fixed, sizeToFit, selfSizing")
        }
        let inner = try object.required(mode).object()
        try inner.allowOnly([widthKey, "height"])
        let width = try inner.optional(widthKey)?.double() ?? 150
        let height = try inner.optional("height")?.double() ?? 40
        switch mode {
        case "fixed": return .fixed(width: width, height: height)
        case "sizeToFit": return .sizeToFit(minWidth: width, height: height)
        default: return .selfSizing(estimatedWidth: width, height: height)
        }
    }

    /// `"hidden"` | `{height, spacing, insets, position}` merged onto the current (or default) indicator.
    static func menuIndicator(_ field: Field, current: MenuSettings.Indicator?) throws(APIError) -> MenuSettings.Indicator? {
        if field.value.stringValue != nil {
            return try field.choice([("hidden", MenuSettings.Indicator?.none)])
        }
        let object = try field.object()
        try object.allowOnly(["height", "spacing", "insets", "position"])
        let base = current ?? MenuSettings.Indicator()
        var i = base
        if let f = try object.optional("height") { i.height = try f.double() }
        if let f = try object.optional("spacing") { i.spacing = try insets(f, base: base.spacing) }
        if let f = try object.optional("insets") { i.insets = try insets(f, base: base.insets) }
        if let f = try object.optional("position") { i.position = try f.choice(MenuSettings.Position.allCases.map { ($0.rawValue, $0) }) }
        return i
    }

    /// `"hidden"` | `{height, insets}` merged onto the current (or default) border.
    static func menuBorder(_ field: Field, current: MenuSettings.Border?) throws(APIError) -> MenuSettings.Border? {
        if field.value.stringValue != nil {
            return try field.choice([("hidden", MenuSettings.Border?.none)])
        }
        let object = try field.object()
        try object.allowOnly(["height", "insets"])
        let base = current ?? MenuSettings.Border()
        var b = base
        if let f = try object.optional("height") { b.height = try f.double() }
        if let f = try object.optional("insets") { b.insets = try insets(f, base: base.insets) }
        return b
    }

    /// A string (the text) or `{"text"?, "width"?, "selectedWidth"?}`; the text holds at
    /// most `maxCharacters` characters (`ServiceLimits.maxTitleCharacters`).
    static func title(_ field: Field, maxCharacters: Int) throws(APIError) -> RowTitle {
        if field.value.stringValue != nil { return RowTitle(text: try titleText(field, maxCharacters: maxCharacters)) }
        guard field.value.objectValue != nil else {
            throw .wrongType(field.path, expected: "a string or {\"text\", \"width\", \"selectedWidth\"}", got: field.value.typeName)
        }
        let object = try field.object()
        try object.allowOnly(["text", "width", "selectedWidth"])
        return RowTitle(text: try object.optional("text").map { f throws(APIError) in try titleText(f, maxCharacters: maxCharacters) },
                        width: try object.optional("width")?.double(),
                        selectedWidth: try object.optional("selectedWidth")?.double())
    }

    private static func titleText(_ field: Field, maxCharacters: Int) throws(APIError) -> String {
        let text = try field.string()
        let count = text.unicodeScalars.count
        guard count <= maxCharacters else {
            throw .invalid(field.path, "must hold at most \(maxCharacters) characters, got \(count)")
        }
        return text
    }
}
