import JSONCodec
import MicroHTTP
import ScrollStackCore
import ScrollStackPaging

extension StackService {
    /// The largest velocity a settle accepts, in points per second.
    static let maxVelocity = 1e7

    /// `POST /v1/stacks/{stack}/scroll/settle` `{"velocity", "offset"?, "decelerationRate"?,
    /// "fps"?, "dryRun"?}`: where a drag released at `offset` (the stack's offset by default)
    /// with `velocity` comes to rest, how long it takes and the sampled offset curve; unless
    /// `dryRun`, the stack scrolls there (a mutation with the usual events).
    ///
    /// `velocity` is a number along the scroll axis, or a point `{x, y}`. A stack that scrolls
    /// across (`crossLength`) settles across too, by the same rules over its stops across,
    /// answered as `cross`; any other stack refuses a velocity across (422 naming it).
    func settle(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery([])
        let body = try c.jsonObject()
        try body.allowOnly(["velocity", "offset", "decelerationRate", "fps", "dryRun"])
        let velocityField = try body.required("velocity")
        var velocityPoint: Point?
        var velocity = 0.0
        if velocityField.value.objectValue != nil {
            let point = try ModelDecoding.point(velocityField, base: Point(x: 0, y: 0))
            for (name, value) in [("x", point.x), ("y", point.y)] where !(value.isFinite && abs(value) <= Self.maxVelocity) {
                throw .invalid(velocityField.path + "." + name, "must be a finite velocity within ±10000000 points per second, got \(Self.text(value))")
            }
            velocityPoint = point
        } else {
            velocity = try velocityField.double()
            guard velocity.isFinite, abs(velocity) <= Self.maxVelocity else {
                throw .invalid(velocityField.path, "must be a finite velocity within ±10000000 points per second, got \(Self.text(velocity))")
            }
        }
        let rate = try body.optional("decelerationRate").map { f throws(APIError) in try decelerationRate(f) } ?? Deceleration.normal
        var fps = 60.0
        if let f = try body.optional("fps") {
            fps = try f.double()
            guard (1...240).contains(fps) else { throw .invalid(f.path, "must be in 1…240 frames per second, got \(Self.text(fps))") }
        }
        let dryRun = try body.optional("dryRun")?.bool() ?? false
        let offsetField = try body.optional("offset")

        func plan(_ stack: ScrollStack) throws(APIError) -> (Settle, Point, Point, Settle?) {
            let axis = stack.settings.axis
            let velocity = velocityPoint.map { $0[axis] } ?? velocity
            var release = stack.settings.offset
            if let offsetField {
                if offsetField.value.doubleValue != nil, offsetField.value.objectValue == nil {
                    release[axis] = try offsetField.double()
                } else {
                    release = try ModelDecoding.point(offsetField, base: release)
                }
                for (name, value) in [("x", release.x), ("y", release.y)] where !(abs(value) <= 1e15) {
                    throw .invalid(offsetField.path + (offsetField.value.objectValue == nil ? "" : "." + name), "must be within ±1e15, got \(Self.text(value))")
                }
            }
            let settle = stack.settle(release: release[axis], velocity: velocity, rate: rate)
            guard settle.sampleCount(fps: fps) <= Settle.maxSamples else {
                throw .invalid("fps", "the curve would take more than \(Settle.maxSamples) samples (\((settle.duration * 1000).rounded() / 1000) s at \(Self.text(fps)) fps): lower fps")
            }
            var target = release
            target[axis] = settle.target
            guard let across = stack.crossSettle(release: release[axis.cross], velocity: velocityPoint?[axis.cross] ?? 0, rate: rate) else {
                if let velocityPoint, velocityPoint[axis.cross] != 0 {
                    throw .invalid(velocityField.path + (axis == .vertical ? ".x" : ".y"),
                                   "the stack scrolls along \(axis == .vertical ? "y" : "x") only: give it a \"crossLength\" longer than its viewport to scroll across")
                }
                target[axis.cross] = 0
                return (settle, release, target, nil)
            }
            guard across.sampleCount(fps: fps) <= Settle.maxSamples else {
                throw .invalid("fps", "the curve across would take more than \(Settle.maxSamples) samples (\((across.duration * 1000).rounded() / 1000) s at \(Self.text(fps)) fps): lower fps")
            }
            target[axis.cross] = across.target
            return (settle, release, target, across)
        }

        if dryRun {
            return try read(c) { stack, revision throws(APIError) in
                let (settle, release, target, across) = try plan(stack)
                let members = [("revision", JSON.integer(Int64(revision))), ("dryRun", .bool(true))]
                    + ModelEncoding.settle(settle, release: release, target: target, rate: rate, fps: fps, across: across)
                return .json(200, .object(JSONObject(members)), revision: revision)
            }
        }
        // The mutation answer (revision, changed, events) with the settle's members, planned
        // by the operation (on each try) and written after its events.
        var planned: (settle: Settle, release: Point, target: Point, across: Settle?)?
        let members = { (_: ScrollStack, w: inout JSONWriter) in
            guard let planned else { return }
            for (key, value) in ModelEncoding.settle(planned.settle, release: planned.release, target: planned.target, rate: rate, fps: fps,
                                                     across: planned.across) {
                w.key(key)
                w.value(value)
            }
        }
        return try mutate(c, extra: members) { stack, _ throws(APIError) in
            let p = try plan(stack)
            planned = p
            return .scroll(.offset(p.2))
        }
    }

    /// A number as a client wrote it: `2`, not `2.0`.
    static func text(_ value: Double) -> String {
        value.isFinite && value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }

    /// `"normal"` (0.998) | `"fast"` (0.99) | a number in (0, 1): the velocity's factor per millisecond.
    func decelerationRate(_ field: Field) throws(APIError) -> Double {
        if field.value.stringValue != nil {
            return try field.choice([("normal", Deceleration.normal), ("fast", Deceleration.fast)])
        }
        guard field.value.doubleValue != nil else {
            throw .wrongType(field.path, expected: "\"normal\", \"fast\" or a number in (0, 1)", got: field.value.typeName)
        }
        let rate = try field.double()
        guard rate > 0, rate < 1 else { throw .invalid(field.path, "must be \"normal\", \"fast\" or a number in (0, 1), got \(Self.text(rate))") }
        return rate
    }

    /// `GET /v1/stacks/{stack}/menu/window?around=ROW&width=W`: Parchment's infinite data
    /// source over the menu's items, around the item of the row with id `around`; `width`
    /// defaults to the menu's, the viewport's width on either axis (the menu is horizontal).
    func menuWindow(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery(["around", "width"])
        let width = try c.queryNumber("width")
        if let width, !(0...1e9).contains(width) { throw .badQuery("width", "must be in 0…1000000000, got \(Self.text(width))") }
        guard let around = c.query("around") else { throw .badQuery("around", "is required: the id of the selected row") }
        return try read(c) { stack, revision throws(APIError) in
            let menu = try requireMenu(stack)
            let entries = stack.menuEntries()
            let selected = try itemIndex(entries, row: .id(around), index: nil, rowField: "around", indexField: "around", query: true)
            let widths = MenuLayout.naturalWidths(entries.map(\.entry), menu, measurer: stack.titleMeasurer).map(\.normal)
            let window = MenuWindow(widths: widths, around: selected, width: width ?? stack.menuFrame(menu).size.width, spacing: menu.itemSpacing)
            func item(_ i: Int) -> JSON {
                .object(JSONObject([("id", .string(entries[i].entry.id)), ("index", .integer(Int64(i))),
                                    ("rowIndex", .integer(Int64(entries[i].rowIndex))), ("width", ModelEncoding.computed(widths[i]))]))
            }
            return .json(200, .object(JSONObject([
                ("revision", .integer(Int64(revision))), ("around", item(selected)),
                ("before", .array(window.before.map(item))), ("after", .array(window.after.map(item))),
                ("missingBefore", .object(JSONObject([("width", ModelEncoding.computed(window.missingWidthBefore)), ("items", .integer(Int64(window.missingBefore)))]))),
                ("missingAfter", .object(JSONObject([("width", ModelEncoding.computed(window.missingWidthAfter)), ("items", .integer(Int64(window.missingAfter)))]))),
            ])), revision: revision)
        }
    }

    /// `POST /v1/stacks/{stack}/menu/select {"row"} | {"index"}`: scrolls to the item's page
    /// (item k is page k, the last page for items beyond the pages) along the stack's axis (y
    /// over vertical pages; the cross offset is kept) and answers the mutation with the new
    /// `menu` geometry.
    func menuSelect(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery([])
        let body = try c.jsonObject()
        try body.allowOnly(["row", "index"])
        guard body.has("row") != body.has("index") else { throw .invalid(nil, "give exactly one of \"row\" (a row id or index) and \"index\" (an item index)") }
        let row = try body.optional("row").map { f throws(APIError) in try ModelDecoding.reference(f) }
        let index = try body.optional("index").map { f throws(APIError) in try f.int() }
        // The carousel geometry of this very revision, taken under the stack's write lock.
        let carousel = { (stack: ScrollStack, w: inout JSONWriter) in
            for (key, value) in ModelEncoding.carouselLayout(stack, offset: nil) {
                w.key(key)
                w.value(value)
            }
        }
        return try mutate(c, extra: carousel) { stack, _ throws(APIError) in
            _ = try requireMenu(stack)
            let entries = stack.menuEntries()
            let item = try itemIndex(entries, row: row, index: index, rowField: "row", indexField: "index", query: false)
            guard let stops = stack.pageStops(), stops.count > 0 else { throw .invalid(nil, "the stack has no pages to select") }
            var offset = stack.settings.offset
            offset[stack.settings.axis] = stops[Swift.min(item, stops.count - 1)].roundedToMicro
            return .scroll(.offset(offset))
        }
    }

    /// The offset of a `{"page": n, "crossPage": m}` scroll target (either or both): along
    /// the scroll axis stop n (else the current offset along), across stop m of a stack that
    /// pages across (else the current offset across clamped to its range, or 0 for a stack
    /// that does not scroll across). 422 naming the field when the stack does not page (or
    /// not across) or the number is not one of its stops (0…pageCount−1).
    static func pageOffset(_ along: Field?, across: Field?, in stack: ScrollStack) throws(APIError) -> Point {
        func stop(_ field: Field, _ stops: PageStops?, what: String) throws(APIError) -> Double {
            let page = try field.int()
            guard let stops else { throw .invalid(field.path, what) }
            guard page >= 0, page < stops.count else {
                throw .invalid(field.path, stops.count == 0 ? "the stack has no pages (no shown content)" : "must be a page in 0…\(stops.count - 1), got \(page)")
            }
            return stops[page].roundedToMicro
        }
        let axis = stack.settings.axis
        var offset = stack.settings.offset
        if let along {
            offset[axis] = try stop(along, stack.pageStops(), what: "the stack does not page: PATCH it with \"paging\" first")
        }
        if let across {
            offset[axis.cross] = try stop(across, stack.crossPageStops(),
                                          what: "the stack does not page across: it needs \"paging\" and a \"crossLength\"")
        } else if stack.settings.crossLength == nil {
            offset[axis.cross] = 0
        } else {
            let range = stack.crossScrollRange
            offset[axis.cross] = Swift.min(Swift.max(offset[axis.cross], range.lowerBound), range.upperBound)
        }
        return offset
    }

    /// 409 when the stack has no menu.
    private func requireMenu(_ stack: ScrollStack) throws(APIError) -> MenuSettings {
        guard let menu = stack.settings.menu else {
            throw APIError(.noMenu, message: "the stack has no menu: PATCH it with \"menu\" (and \"paging\") first")
        }
        return menu
    }

    /// The item index of a row reference or an item index, with precise errors.
    private func itemIndex(_ entries: [(entry: MenuLayout.Entry, rowIndex: Int)], row: RowReference?, index: Int?,
                           rowField: String, indexField: String, query: Bool) throws(APIError) -> Int {
        func fail(_ field: String, _ message: String) -> APIError {
            query ? .badQuery(field, message) : .invalid(field, message)
        }
        if let index {
            guard index >= 0, index < entries.count else {
                throw fail(indexField, entries.isEmpty ? "the menu has no items" : "must be an item index in 0…\(entries.count - 1), got \(index)")
            }
            return index
        }
        switch row {
        case .id(let id)?:
            guard let i = entries.firstIndex(where: { $0.entry.id == id }) else {
                throw fail(rowField, "no shown row has the id \"\(id)\" (hidden rows have no menu item)")
            }
            return i
        case .index(let rowIndex)?:
            guard let i = entries.firstIndex(where: { $0.rowIndex == rowIndex }) else {
                throw fail(rowField, "no shown row has the index \(rowIndex) (hidden rows have no menu item)")
            }
            return i
        case nil:
            throw fail(rowField, "is required")
        }
    }
}
