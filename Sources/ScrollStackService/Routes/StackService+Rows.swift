import JSONCodec
import MicroHTTP
import ScrollStackCore

extension StackService {
    /// `POST /v1/stacks/{stack}/rows`: `{rows:[…], at?}`; `at` defaults to `bottom`.
    func insertRows(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery(["fps"])
        let (body, animation) = try animatedBody(c)
        try body.allowOnly(["rows", "at"] + ModelDecoding.animationKeys)
        let rows = try RowFields(body.required("rows"))
        let location = try body.optional("at").map { f throws(APIError) in try ModelDecoding.location(f) } ?? .bottom
        return try mutate(c, animation: animation, targets: { _ in [] }) { stack, revision throws(APIError) -> StackOperation in
            .insertBatch(try insertedRows(rows, into: stack, stackID: c.parameter("stack"), revision: revision), at: location)
        }
    }

    /// The rows of an insert body (`POST …/rows`), decoded straight into a `RowBatch` as
    /// they are read: a plain row goes in as its fields, with no `Row` value. Rows without an
    /// id get the next one `RowIDGenerator` makes for revision `revision` + 1 that neither
    /// the stack nor an earlier row of the body has; the set of the earlier rows' ids is made
    /// only when such a row comes. The first decoding error is thrown as it is found.
    ///
    /// - Complexity: O(k) for k rows, plus O(k) once if a row has no id.
    func insertedRows(_ rows: RowFields, into stack: ScrollStack, stackID: String, revision: Int) throws(APIError) -> RowBatch {
        var batch = RowBatch(capacity: rows.count)
        var used: Set<String>?
        var ids = RowIDGenerator(stack: stackID, revision: revision + 1)
        for i in 0..<rows.count {
            let row = try rows.row(i, maxDepth: limits.maxJSONDepth, maxTitle: limits.maxTitleCharacters, defaults: stack.settings) {
                if used == nil { used = Set(batch.ids) }
                return ids.next { used!.contains($0) || stack.row(id: $0) != nil }
            }
            used?.insert(row.id)
            switch row {
            case .plain(let id, let content, let size, let hidden): batch.append(id: id, content: content, size: size, hidden: hidden)
            case .full(let row): batch.append(row)
            }
        }
        return batch
    }

    /// `GET /v1/stacks/{stack}/rows`: rows with their indexes; `?controller=TYPE` keeps rows
    /// whose controller has that type; `?instance=ID` the row whose controller has that
    /// instance id; `&first=true` keeps only the first of the result. `?from=&limit=` answers
    /// one page of the result, with its `page` and a `next` link.
    func listRows(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery(["controller", "first", "instance", "from", "limit"])
        let type = c.query("controller")
        let first = try c.queryBool("first") ?? false
        let instance = c.query("instance")
        let page = try Self.rowsPage(c)
        return try read(c) { stack, revision throws(APIError) in
            if let page, type == nil, instance == nil, !first {
                // One page of every row: O(k log n), never the whole list.
                let rows = page.clamped(to: 0..<stack.count).map { (row: stack.row(at: $0), index: $0) }
                return .json(200, text: listPage(rows, page: page, total: stack.count, revision: revision, c), revision: revision)
            }
            if page == nil, instance == nil, !first, let streamed = streamedRows(stack, revision: revision, controllerType: type) {
                return streamed
            }
            var found: [(row: Row, index: Int)]
            switch (type, instance) {
            case (let type?, _) where first && instance == nil: found = stack.firstRow(controllerType: type).map { [$0] } ?? []
            case (let type?, _): found = stack.rows(controllerType: type)
            case (nil, let instance?): found = stack.row(controllerInstance: instance).map { [$0] } ?? []
            case (nil, nil) where first: found = stack.firstRow.map { [($0, 0)] } ?? []
            case (nil, nil): found = stack.rows.enumerated().map { ($0.element, $0.offset) }
            }
            if let instance, type != nil { found = found.filter { $0.row.controller?.instance == instance } }
            if first { found = Array(found.prefix(1)) }
            if let page {
                let range = page.clamped(to: 0..<found.count)
                return .json(200, text: listPage(Array(found[range]), page: page, total: found.count, revision: revision, c), revision: revision)
            }
            var w = JSONWriter(capacity: 64 + 160 * found.count)
            ModelEncoding.writeRowsOpening(found, revision: revision, into: &w)
            w.endObject()
            return .json(200, text: w.take(), revision: revision)
        }
    }

    /// `GET …/rows/{row}`: the row with its index, frame and visibility.
    func getRow(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery([])
        return try read(c) { stack, revision throws(APIError) in
            let (row, index) = try pathRow(c, in: stack)
            let layout = try model { () throws(StackError) in try stack.layout(of: .index(index)) }
            var w = JSONWriter(capacity: 512)
            ModelEncoding.writeRowOpening(row, index: index, into: &w)
            ModelEncoding.writeRowPlacement(layout, into: &w)
            w.endObject()
            return .json(200, text: w.take(), revision: revision)
        }
    }

    /// `PUT …/rows/{row}`: replaces the row in place; keeps its id unless the body gives one.
    func replaceRow(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery(["fps"])
        let (body, animation) = try animatedBody(c)
        return try mutate(c, animation: animation, targets: pathTarget(c)) { stack, _ throws(APIError) in
            let (old, index) = try pathRow(c, in: stack)
            let row = try ModelDecoding.row(Field(.object(body.object), path: ""), maxDepth: limits.maxJSONDepth, maxTitle: limits.maxTitleCharacters,
                                            defaults: stack.settings) { old.id }
            return .replace(index: index, row: row)
        }
    }

    static let rowPatchKeys = ["hidden", "insets", "separator", "size", "content", "controller", "view", "tappable", "highlightable", "title", "transition", "style", "stack"]

    /// `PATCH …/rows/{row}`: hidden, insets (null clears), separator (merged per field; a
    /// null field or a null separator clears), size, content (null removes), controller or
    /// view, tappable, highlightable, style, stack (null: embeds none). The row is re-measured.
    func patchRow(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery(["fps"])
        let (body, animation) = try animatedBody(c)
        try body.allowOnly(Self.rowPatchKeys + ModelDecoding.animationKeys)
        guard !body.object.isEmpty else { throw .invalid(nil, "the body changes nothing: give at least one of \(Self.rowPatchKeys.joined(separator: ", "))") }
        return try mutate(c, animation: animation, targets: pathTarget(c)) { stack, _ throws(APIError) in
            let (row, index) = try pathRow(c, in: stack)
            var change = RowChange()
            if let f = try body.optional("hidden") { change.hidden = try f.bool() }
            // Partial insets change the sides they name of the row's insets now (its own, or the stack's).
            if let f = body.field("insets") {
                change.insets = .some(f.isNull ? nil : try ModelDecoding.insets(f, base: row.insets ?? stack.settings.rowInsets))
            }
            if let f = body.field("separator") {
                change.separator = f.isNull ? SeparatorOverride.none
                    : try ModelDecoding.separatorOverride(f, base: row.separator,
                                                          insetsBase: row.separator.insets ?? stack.settings.separator.insets)
            }
            if let f = try body.optional("size") { change.size = try ModelDecoding.sizeRule(f) }
            if let f = body.field("content") { change.contentDescription = .some(f.isNull ? nil : try ModelDecoding.contentDescription(f, maxDepth: limits.maxJSONDepth)) }
            if body.has("controller") || body.has("view") { change.content = try ModelDecoding.rowContent(body, maxDepth: limits.maxJSONDepth) }
            if let f = try body.optional("tappable") { change.tappable = try f.bool() }
            if let f = try body.optional("highlightable") { change.highlightable = try f.bool() }
            if let f = body.field("title") { change.title = .some(f.isNull ? nil : try ModelDecoding.title(f, maxCharacters: limits.maxTitleCharacters)) }
            if let f = body.field("transition") { change.transition = .some(f.isNull ? nil : try ModelDecoding.rowTransition(f)) }
            if let f = body.field("style") { change.style = .some(f.isNull ? nil : try ModelDecoding.rowStyle(f)) }
            if let f = body.field("stack") { change.stack = .some(f.isNull ? nil : try ModelDecoding.embeddedStack(f)) }
            return .update(index: index, change)
        }
    }

    /// `DELETE …/rows/{row}`: the removed row comes back in `removed`.
    func removeRow(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery(["fps"])
        let animation = try animationOnly(c)
        return try mutate(c, animation: animation, targets: pathTarget(c)) { stack, _ throws(APIError) in
            let (_, index) = try pathRow(c, in: stack)
            return .remove([.index(index)])
        }
    }

    /// `DELETE /v1/stacks/{stack}/rows`: removes every row.
    func removeAllRows(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery(["fps"])
        let animation = try animationOnly(c)
        return try mutate(c, animation: animation, targets: { _ in [] }) { _, _ in .removeAll }
    }

    /// `POST …/rows/{row}/move`: `{"to": n}`.
    func moveRow(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery(["fps"])
        let (body, animation) = try animatedBody(c)
        try body.allowOnly(["to"] + ModelDecoding.animationKeys)
        let to = try body.required("to").int()
        return try mutate(c, animation: animation, targets: pathTarget(c)) { stack, _ throws(APIError) in
            let (_, index) = try pathRow(c, in: stack)
            return .move(index: index, to: to)
        }
    }

    /// `POST /v1/stacks/{stack}/rows/batch`: `{"op", "rows":[refs], "insets"?}`, atomic.
    func batch(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        enum Op: String, CaseIterable { case remove, hide, show, insets, reload }
        try c.allowQuery(["fps"])
        let (body, animation) = try animatedBody(c)
        let op = try body.required("op").choice(Op.allCases.map { ($0.rawValue, $0) })
        try body.allowOnly((op == .insets ? ["op", "rows", "insets"] : ["op", "rows"]) + ModelDecoding.animationKeys)
        var references: [RowReference] = []
        for field in try body.required("rows").array() { references.append(try ModelDecoding.reference(field)) }
        let insetsField = body.field("insets")
        if op == .insets, insetsField == nil { throw .missing("insets", "is required for op \"insets\" (null clears the rows' own insets)") }
        let targets = { (stack: ScrollStack) throws(APIError) -> [String] in references.compactMap { (try? stack.resolve($0))?.row.id } }
        return try mutate(c, animation: animation, targets: targets) { stack, _ throws(APIError) -> StackOperation in
            // The rows' new own insets: partial ones over the stack's rowInsets, the default they replace.
            var insets: EdgeInsets?
            if let f = insetsField, !f.isNull { insets = try ModelDecoding.insets(f, base: stack.settings.rowInsets) }
            switch op {
            case .remove: return .remove(references)
            case .hide: return .setHidden(references, true)
            case .show: return .setHidden(references, false)
            case .insets: return .setInsets(references, insets)
            case .reload: return .reload(references)
            }
        }
    }
}
