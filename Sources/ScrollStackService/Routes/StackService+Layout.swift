import JSONCodec
import MicroHTTP
import ScrollStackCore

extension StackService {
    /// `GET /v1/stacks/{stack}/layout`: the computed layout. `?offset=` (a number along the
    /// scroll axis, or `x,y`) and `?width=`/`?height=` override the stack's without changing
    /// it; `?window=visible` keeps only the visible rows (O(log n + k) instead of O(n)).
    /// `?scrollTo=`, `?devices=` and `?from=&limit=` are described by `LayoutQuery`.
    ///
    /// `?revision=N` lays out the stack as it was at revision N. `?content=frames` adds each
    /// shown fit row's content node frames (and text line boxes).
    /// With `Accept: image/svg+xml` or `image/png` (and `picture`, for `layout.svg` and
    /// `layout.png`) the answer is drawn.
    func stackLayout(_ c: RequestContext, picture given: PictureFormat? = nil) throws(APIError) -> HTTPResponse {
        let lookup = keptAnswer(c)
        if let kept = lookup.answer { return kept }
        try c.allowQuery(LayoutQuery.parameters + ["revision", "scale"])
        let query = try LayoutQuery(c)
        let asked = try requestedRevision(c)
        let picture = try Self.picture(given, c)
        let title = picture != nil ? "stack \(c.parameter("stack"))" : ""
        return try cachedRead(c, lookup: lookup) { stack, revision throws(APIError) in
            guard let asked, asked != revision else {
                return try layoutResponse(stack, revision: revision, query, c, picture: picture, title: title)
            }
            let past = try self.stack(c.parameter("stack"), at: asked, current: revision, field: "revision")
            return try layoutResponse(past, revision: asked, query, c, picture: picture, title: title)
        }
    }

    /// `POST /v1/layout`: a whole stack (the create body) in, its layout out; nothing is stored.
    /// The body may also hold `devices` (built-in names or `{"name", "width", "height"}`).
    /// Measuring its text from scratch, it takes a slot of `layoutGate` (503 `busy` when none is free).
    func statelessLayout(_ c: RequestContext, picture given: PictureFormat? = nil) throws(APIError) -> HTTPResponse {
        try c.allowQuery(LayoutQuery.parameters + ["scale"])
        var query = try LayoutQuery(c)
        let picture = try Self.picture(given, c)
        return try layoutGate.withSlot { () throws(APIError) -> HTTPResponse in
            let (stack, devices) = try statelessBody(c)
            if let devices { try query.setDevices(devices, inBody: true) }
            return try layoutResponse(stack, revision: nil, query, c, picture: picture, title: "stateless layout", gated: true)
        }
    }

    /// The stateless layout's stack and, when the body has them, its devices.
    func statelessBody(_ c: RequestContext) throws(APIError) -> (ScrollStack, [Device]?) {
        var body = try c.jsonObject()
        var devices: [Device]?
        if let field = try body.optional("devices") {
            devices = try LayoutQuery.devices(field)
            var object = body.object
            object["devices"] = nil
            body = ObjectReader(object: object, path: body.path)
        }
        return (try decodeStack(body, id: "layout"), devices)
    }

    /// The layout answer as JSON, SVG or PNG. Each carries `Vary: Accept`, since the layout
    /// routes answer either by `Accept`; a picture's ETag is `"N.svg"` or `"N.png@S"` (never
    /// answered 304). A picture or a layout for devices takes a slot of `layoutGate` unless
    /// `gated` (the caller holds one).
    func layoutResponse(_ stack: ScrollStack, revision: Int?, _ query: LayoutQuery, _ c: RequestContext, picture: PictureFormat?, title: String,
                        gated: Bool = false) throws(APIError) -> HTTPResponse {
        try checkLayoutWork(stack, query)
        guard gated || (picture == nil && query.devices == nil) else {
            return try layoutGate.withSlot { () throws(APIError) -> HTTPResponse in
                try layoutResponse(stack, revision: revision, query, c, picture: picture, title: title, gated: true)
            }
        }
        let vary = [("Vary", "Accept")]
        guard let picture else {
            guard let embedded = try embeddedLayouts(of: stack, query) else {
                if let streamed = try streamedLayout(stack, revision: revision, query) { return streamed }
                return .json(200, text: try layoutAnswer(stack, revision: revision, query, c), revision: revision, headers: vary)
            }
            var response = HTTPResponse.json(200, text: try layoutAnswer(stack, revision: revision, query, c, embedded: embedded),
                                             revision: revision, headers: vary)
            if let revision, embedded.depth > 0 {
                response.headers = response.headers.map { $0.name.lowercased() == "etag" ? ($0.name, embedded.entityTag(revision: revision)) : $0 }
            }
            return response
        }
        return try pictureResponse(stack, revision: revision, query, picture: picture, title: title)
    }

    /// The writer of a composed answer when `stack`'s rows embed stacks (with `depth` 0 it
    /// only names them); nil otherwise. 422 `work_budget_exceeded` naming `depth` when the
    /// tree's rows, times the devices, pass `limits.composedLayoutRows`.
    func embeddedLayouts(of stack: ScrollStack, _ query: LayoutQuery) throws(APIError) -> EmbeddedLayouts? {
        guard !stack.embeddedStacks.isEmpty else { return nil }
        let embedded = EmbeddedLayouts(depth: query.depth, visibleOnly: query.visibleOnly) { [store] id in try? store.entry(id) }
        let rows = embedded.rowCount(of: stack)
        let total = rows.multipliedReportingOverflow(by: max(1, query.devices?.count ?? 1))
        if total.overflow || total.partialValue > limits.composedLayoutRows {
            throw .workBudgetExceeded("depth", "the screen's stacks, followed \(query.depth) levels deep, hold \(rows) rows to lay out"
                                      + (query.devices.map { " for each of \($0.count) devices" } ?? "")
                                      + ", more than the \(limits.composedLayoutRows) one answer may: ask a smaller depth or fewer devices")
        }
        return embedded
    }

    /// The layout answer's text for `query`: one layout, or `{"revision"?, "layouts": […]}`
    /// with one per device, each led by its `device`. Written straight to bytes
    /// (`ModelEncoding.writeLayout`). With devices it takes at most
    /// `limits.devicesAnswerBytes` (422 naming `devices` beyond), checked after each device.
    ///
    /// With `embedded`, rows that embed stacks carry their layouts (`EmbeddedLayouts`).
    func layoutAnswer(_ stack: ScrollStack, revision: Int?, _ query: LayoutQuery, _ c: RequestContext,
                      embedded: EmbeddedLayouts? = nil) throws(APIError) -> [UInt8] {
        var w = JSONWriter(capacity: 4096)
        func one(_ device: Device?, revision: Int?) throws(APIError) {
            let next = query.page.flatMap { $0.upperBound < stack.count ? c.link(replacing: "from", with: String($0.upperBound)) : nil }
            try query.withLayout(of: stack, viewport: device?.size) { laidStack, layout, window in
                ModelEncoding.writeLayout(&w, revision: revision, layout, window: window, of: laidStack, page: query.page, next: next,
                                          contentFrames: query.contentFrames, device: device, embedded: embedded)
            }
        }
        guard let devices = query.devices else {
            try one(nil, revision: revision)
            return w.take()
        }
        w.beginObject()
        if let revision {
            w.key(ascii: "revision")
            w.integer(Int64(revision))
        }
        w.key(ascii: "layouts")
        w.beginArray()
        for (index, device) in devices.enumerated() {
            try one(device, revision: nil)
            if w.byteCount > limits.devicesAnswerBytes {
                throw .invalid("devices", "the layouts of \(devices.count) devices would take more than \(limits.devicesAnswerBytes) bytes "
                               + "(the first \(index + 1) take \(w.byteCount)): name fewer devices, or ask window=visible, a page (from, limit) or content=none")
            }
        }
        w.endArray()
        w.endObject()
        return w.take()
    }

    /// Refuses, before anything is laid out, a layout for devices that would compute more
    /// than a request may: the stack's rows, or its text's UTF-8 bytes, times the devices
    /// whose viewport differs from the stack's (each re-measures every row, whatever the
    /// window), past `limits.deviceLayoutRows` or `deviceLayoutTextBytes`: 422
    /// `work_budget_exceeded` naming `devices`.
    ///
    /// - Complexity: O(1) without such devices; O(rows + content nodes) with them.
    func checkLayoutWork(_ stack: ScrollStack, _ query: LayoutQuery) throws(APIError) {
        guard let devices = query.devices else { return }
        let relaid = devices.filter { $0.size != stack.settings.viewport }.count
        guard relaid > 0 else { return }
        let rows = stack.count.multipliedReportingOverflow(by: relaid)
        if rows.overflow || rows.partialValue > limits.deviceLayoutRows {
            throw .workBudgetExceeded("devices", "laying out \(stack.count) rows for \(relaid) devices would compute \(stack.count) × \(relaid) row layouts, "
                                      + "more than the \(limits.deviceLayoutRows) one request may (--device-layout-rows): name fewer devices")
        }
        let text = Self.textBytes(of: stack)
        let bytes = text.multipliedReportingOverflow(by: relaid)
        if bytes.overflow || bytes.partialValue > limits.deviceLayoutTextBytes {
            throw .workBudgetExceeded("devices", "laying out \(text) bytes of text for \(relaid) devices would break \(text) × \(relaid) bytes into lines, "
                                      + "more than the \(limits.deviceLayoutTextBytes) one request may (--device-layout-text-bytes): name fewer devices")
        }
    }

    /// The UTF-8 bytes of every text node of `stack`'s rows. O(rows + content nodes).
    static func textBytes(of stack: ScrollStack) -> Int {
        func bytes(_ description: ContentDescription) -> Int {
            switch description.kind {
            case .text(let text): return text.text.utf8.count
            case .stack(_, _, _, let children): return children.reduce(0) { $0 + bytes($1) }
            case .box, .aspectRatio: return 0
            }
        }
        var total = 0
        stack.forEachRow { row in
            if let description = row.contentDescription { total += bytes(description) }
        }
        return total
    }

    /// `GET /v1/stacks/{stack}/hit?x=&y=`: the row under a viewport point, or `"row": null`.
    /// When that row embeds a stack, `path` follows the point down the tree: each level's
    /// stack, the row hit there and its flags, from the root to the deepest row under the point
    /// (`hitPath`). Without embedded stacks under the point, no `path`.
    func hitTest(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery(["x", "y"])
        guard let x = try c.queryNumber("x") else { throw .badQuery("x", "is required") }
        guard let y = try c.queryNumber("y") else { throw .badQuery("y", "is required") }
        return try read(c) { stack, revision throws(APIError) in
            var w = JSONWriter(capacity: 512)
            w.beginObject()
            w.key(ascii: "revision")
            w.integer(Int64(revision))
            w.key(ascii: "row")
            guard let layout = stack.hitTest(Point(x: x, y: y)), let row = stack.row(id: layout.id) else {
                w.null()
                w.endObject()
                return .json(200, text: w.take(), revision: revision)
            }
            w.beginObject()
            w.key(ascii: "id")
            w.string(row.id)
            w.key(ascii: "index")
            w.integer(Int64(layout.index))
            w.key(ascii: "tappable")
            w.bool(row.tappable)
            w.key(ascii: "highlightable")
            w.bool(row.highlightable)
            ModelEncoding.writeRowPlacement(layout, into: &w)
            w.endObject()
            guard row.stack != nil else {
                w.endObject()
                return .json(200, text: w.take(), revision: revision)
            }
            var read: [(id: String, revision: Int)] = []
            let path = hitPath(in: stack, id: c.parameter("stack"), at: Point(x: x, y: y), read: &read)
            w.key(ascii: "path")
            w.value(.array(path))
            w.endObject()
            var response = HTTPResponse.json(200, text: w.take())
            response.headers.append(("ETag", EmbeddedLayouts.entityTag(revision: revision, revisions: read)))
            return response
        }
    }

    /// The rows under viewport point `point` of `stack` (named `id`), level by level down the
    /// embedded stacks: `{"stack", "row", "index", "tappable", "highlightable"}` each; an
    /// embedded stack is hit at the point's place in its viewport (the row's content frame),
    /// laid out there as a layout answer lays it out. At most `EmbeddedLayouts.maxDepth` levels.
    /// `read` gets each embedded stack read, with its revision (for the answer's entity tag).
    func hitPath(in stack: ScrollStack, id: String, at point: Point, level: Int = 0, read: inout [(id: String, revision: Int)]) -> [JSON] {
        guard let layout = stack.hitTest(point), let row = stack.row(id: layout.id) else { return [] }
        var path: [JSON] = [.object(JSONObject([
            ("stack", .string(id)), ("row", .string(row.id)), ("index", .integer(Int64(layout.index))),
            ("tappable", .bool(row.tappable)), ("highlightable", .bool(row.highlightable)),
        ]))]
        guard let embedded = row.stack, level < EmbeddedLayouts.maxDepth, let entry = try? store.entry(embedded) else { return path }
        let frame = layout.contentFrame
        let inside = Point(x: stack.settings.offset.x + point.x - frame.origin.x, y: stack.settings.offset.y + point.y - frame.origin.y)
        let below = try? entry.read { child, revision throws(APIError) -> [JSON] in
            read.append((embedded, revision))
            var laid = child
            if frame.size != child.settings.viewport {
                do throws(StackError) { _ = try laid.update(SettingsChange(viewport: frame.size)) } catch { throw APIError(error) }
            }
            return hitPath(in: laid, id: embedded, at: inside, level: level + 1, read: &read)
        }
        path += below ?? []
        return path
    }
}
