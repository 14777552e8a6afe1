import JSONCodec
import ScrollStackCore
import ScrollStackPaging

/// Encoding of the carousel settings, a row's title, and the carousel members of layout answers.
extension ModelEncoding {
    /// The carousel settings that are on (an off setting is left out).
    static func carouselSettings(_ s: StackSettings) -> [(String, JSON)] {
        var members: [(String, JSON)] = []
        if let p = s.paging { members.append(("paging", paging(p))) }
        if let i = s.pageIndicator { members.append(("pageIndicator", pageIndicator(i))) }
        if let m = s.menu { members.append(("menu", menu(m))) }
        return members
    }

    static func paging(_ p: PagingSettings) -> JSON {
        let size: JSON
        switch p.size {
        case .absolute(let length): size = .object(JSONObject([("absolute", .number(length))]))
        case .fraction(let fraction): size = .object(JSONObject([("fraction", .number(fraction))]))
        case .rows: size = .string("rows")
        }
        return .object(JSONObject([
            ("size", size), ("alignment", .string(p.alignment.rawValue)),
            ("sizeInsets", insets(p.sizeInsets)), ("positionInsets", insets(p.positionInsets)),
            ("contentInsetEdges", .array(p.contentInsetEdges.sorted().map { .string($0.rawValue) })),
        ]))
    }

    static func pageIndicator(_ i: PageIndicatorSettings) -> JSON {
        .object(JSONObject([
            ("hidesForSinglePage", .bool(i.hidesForSinglePage)), ("dotDiameter", .number(i.dotDiameter)),
            ("dotSpacing", .number(i.dotSpacing)), ("height", .number(i.height)),
            ("position", .string(i.position.rawValue)), ("inset", .number(i.inset)),
            ("pageIndicatorTintColor", .string(i.pageIndicatorTintColor)),
            ("currentPageIndicatorTintColor", .string(i.currentPageIndicatorTintColor)),
        ]))
    }

    static func menu(_ m: MenuSettings) -> JSON {
        let itemSize: (String, [(String, JSON)])
        switch m.itemSize {
        case .fixed(let w, let h): itemSize = ("fixed", [("width", .number(w)), ("height", .number(h))])
        case .sizeToFit(let w, let h): itemSize = ("sizeToFit", [("minWidth", .number(w)), ("height", .number(h))])
        case .selfSizing(let w, let h): itemSize = ("selfSizing", [("estimatedWidth", .number(w)), ("height", .number(h))])
        }
        var indicator = JSON.string("hidden")
        if let i = m.indicator {
            var o: [(String, JSON)] = [("height", .number(i.height)), ("spacing", insets(i.spacing)), ("insets", insets(i.insets))]
            if let position = i.position { o.append(("position", .string(position.rawValue))) }
            indicator = .object(JSONObject(o))
        }
        let border = m.border.map { JSON.object(JSONObject([("height", .number($0.height)), ("insets", insets($0.insets))])) } ?? .string("hidden")
        let members: [(String, JSON)] = [
            ("itemSize", .object(JSONObject([(itemSize.0, .object(JSONObject(itemSize.1)))]))),
            ("itemSpacing", .number(m.itemSpacing)), ("itemLabelSpacing", .number(m.itemLabelSpacing)),
            ("insets", insets(m.insets)), ("horizontalAlignment", .string(m.horizontalAlignment.rawValue)),
            ("selectedScrollPosition", .string(m.selectedScrollPosition.rawValue)),
            ("menuTransition", .string(m.menuTransition.rawValue)),
            ("indicator", indicator), ("border", border), ("position", .string(m.position.rawValue)),
            ("font", font(m.font)), ("selectedFont", font(m.selectedFont)),
        ]
        return .object(JSONObject(members + m.colors.map { ($0.name, JSON.string($0.value)) }))
    }

    /// A title as the client wrote it: the bare text when that is all it has.
    static func title(_ t: RowTitle) -> JSON {
        if let text = t.text, t.width == nil, t.selectedWidth == nil { return .string(text) }
        var o: [(String, JSON)] = []
        if let text = t.text { o.append(("text", .string(text))) }
        if let width = t.width { o.append(("width", .number(width))) }
        if let selectedWidth = t.selectedWidth { o.append(("selectedWidth", .number(selectedWidth))) }
        return .object(JSONObject(o))
    }

    /// The carousel members of a layout answer at `offset`: `paging`, `crossPaging` (a paging
    /// stack that scrolls across), `pageIndicator`, `menu`, each only when the setting is on.
    static func carouselLayout(_ stack: ScrollStack, offset: Point?) -> [(String, JSON)] {
        guard let state = stack.pagingState(offset: offset) else { return [] }
        var members: [(String, JSON)] = [("paging", .object(JSONObject([
            ("pageSize", computed(state.pageSize)), ("pageCount", .integer(Int64(state.pageCount))),
            ("currentPage", .integer(Int64(state.currentPage))), ("progress", computed(state.progress)),
        ])))]
        if let cross = stack.crossPagingState(offset: offset) {
            members.append(("crossPaging", .object(JSONObject([
                ("pageSize", computed(cross.pageSize)), ("pageCount", .integer(Int64(cross.pageCount))),
                ("currentPage", .integer(Int64(cross.currentPage))), ("progress", computed(cross.progress)),
            ]))))
        }
        if let indicator = stack.pageIndicatorLayout(offset: offset) {
            var fields: [(String, JSON)] = [
                ("frame", rect(indicator.frame)), ("numberOfPages", .integer(Int64(indicator.numberOfPages))),
                ("currentPage", .integer(Int64(indicator.currentPage))), ("hidden", .bool(indicator.hidden)),
            ]
            // Only when the dots are not all listed, so that other answers stay as they were.
            if indicator.numberOfPages > PageIndicatorLayout.maxDots { fields.append(("firstDot", .integer(Int64(indicator.firstDot)))) }
            fields.append(("dots", .array(zip(indicator.dots, indicator.dotColors).map { dot, color in
                JSON.object(JSONObject([("frame", rect(dot)), ("color", .string(color))]))
            })))
            members.append(("pageIndicator", .object(JSONObject(fields))))
        }
        if let menu = stack.menuLayout(offset: offset), let settings = stack.settings.menu {
            members.append(("menu", menuLayout(menu, settings, frame: stack.menuFrame(settings), entries: stack.menuEntries())))
        }
        return members
    }

    /// The most menu items a layout answer lists: a menu of every row of a long stack would
    /// otherwise cost an answer as long (38 MB for 200,000 rows). `menu/window` pages through
    /// the rest.
    static let maxMenuItems = 1_000

    /// The menu of a layout answer: its geometry, its listed items (`listedRange`: the
    /// `maxMenuItems` around the selected item, the first ones without a selection; with
    /// `firstItem` when not all are) each with its progress and colours, and the indicator's,
    /// border's and background's colours from `settings`. O(listed items).
    static func menuLayout(_ m: MenuLayout, _ settings: MenuSettings, frame: Rect, entries: [(entry: MenuLayout.Entry, rowIndex: Int)]) -> JSON {
        let listed = listedRange(count: m.items.count, around: m.selected ?? 0, limit: maxMenuItems)
        var items: [JSON] = []
        items.reserveCapacity(listed.count)
        for i in listed {
            let item = m.items[i]
            var o: [(String, JSON)] = [("id", .string(item.id)), ("index", .integer(Int64(i))), ("rowIndex", .integer(Int64(entries[i].rowIndex)))]
            if let text = entries[i].entry.title?.text { o.append(("title", .string(text))) }
            o.append(("frame", rect(item.frame)))
            o.append(("selected", .bool(m.selected == i)))
            o.append(("progress", computed(item.progress)))
            o.append(("textColor", .string(item.textColor)))
            o.append(("backgroundColor", .string(item.backgroundColor)))
            items.append(.object(JSONObject(o)))
        }
        let selected = m.selected.map { i in
            JSON.object(JSONObject([("index", .integer(Int64(i))), ("id", .string(m.items[i].id)), ("rowIndex", .integer(Int64(entries[i].rowIndex)))]))
        } ?? .null
        var members: [(String, JSON)] = [
            ("frame", rect(frame)), ("contentSize", computedSize(m.contentSize)),
            ("contentOffset", .object(JSONObject([("x", computed(m.contentOffset)), ("y", .number(0))]))),
            ("progress", computed(m.progress)),
        ]
        if m.items.count > maxMenuItems { members.append(("firstItem", .integer(Int64(listed.lowerBound)))) }
        members += [
            ("items", .array(items)), ("selected", selected),
            ("indicator", m.indicator.map(rect) ?? .null), ("border", m.border.map(rect) ?? .null),
            ("indicatorColor", .string(settings.indicatorColor)), ("borderColor", .string(settings.borderColor)),
            ("menuBackgroundColor", .string(settings.menuBackgroundColor)),
        ]
        return .object(JSONObject(members))
    }

    /// The members of a settle answer: release point, target, page, motion, rate, duration and
    /// the curve (`t` in seconds, `offset` along the scroll axis); with `across` (a stack that
    /// scrolls across), `cross`: its page, motion, duration and curve across.
    static func settle(_ settle: Settle, release: Point, target: Point, rate: Double, fps: Double, across: Settle? = nil) -> [(String, JSON)] {
        func curve(_ settle: Settle) -> JSON {
            .array(settle.curve(fps: fps).map { sample in
                JSON.object(JSONObject([("t", computed(sample.t)), ("offset", computed(sample.offset))]))
            })
        }
        var members: [(String, JSON)] = [
            ("release", point(release)), ("target", .object(JSONObject([("x", computed(target.x)), ("y", computed(target.y))]))),
            ("page", settle.page.map { .integer(Int64($0)) } ?? .null), ("motion", .string(settle.motion.rawValue)),
            ("decelerationRate", .number(rate)), ("duration", computed(settle.duration)), ("fps", .number(fps)), ("curve", curve(settle)),
        ]
        if let across {
            members.append(("cross", .object(JSONObject([
                ("page", across.page.map { .integer(Int64($0)) } ?? .null), ("motion", .string(across.motion.rawValue)),
                ("duration", computed(across.duration)), ("curve", curve(across)),
            ]))))
        }
        return members
    }
}
