import JSONCodec
import MicroHTTP
import ScrollStackCore
import ScrollStackPaging
import ScrollStackStore
import ScrollStackTransitions

extension StackService {
    /// `GET /v1/stacks`: `[{id, revision, rowCount}]`, ordered by id.
    func listStacks(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery([])
        try refreshReplicatedStacks()
        var items: [JSON] = []
        for entry in store.all() {
            items.append(try entry.read { stack, revision throws(APIError) in
                .object(JSONObject([("id", .string(entry.id)), ("revision", .integer(Int64(revision))), ("rowCount", .integer(Int64(stack.count)))]))
            })
        }
        return .json(200, .array(items))
    }

    /// `POST /v1/stacks`: creates a stack from the create body; 201 with `Location` and the model
    /// (with `Prefer: return=minimal`, only `{"id", "revision"}`). A row's `stack` may be a
    /// whole create body (with its `id`): that stack is created too, with the others, all of
    /// them or none (`inlineStacks`).
    func createStack(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery([])
        let body = try c.jsonObject()
        let id = try Self.resourceID(body) { Self.makeStackID(isTaken: store.contains) }
        let (host, stacks) = try inlineDocuments(body, id: id, retried: { _, _ in false })
        return try created(stacks + [(id, try decodeStack(host, id: id))], c)
    }

    /// The inline stacks of create body `body` (`inlineStacks`), decoded, and the body with
    /// their ids in their place. An inline id that is taken is 409 `duplicate_id` naming its
    /// member, unless `retried` accepts the stack stored under it (then it is left out).
    func inlineDocuments(_ body: ObjectReader, id: String,
                         retried: (String, ScrollStack) -> Bool) throws(APIError) -> (ObjectReader, [(id: String, stack: ScrollStack)]) {
        var inline: [(id: String, body: ObjectReader)] = []
        var seen: [String: String] = [id: "id"]
        let host = try Self.inlineStacks(of: body, into: &inline, seen: &seen)
        var stacks: [(id: String, stack: ScrollStack)] = []
        for document in inline {
            let decoded: ScrollStack
            do {
                decoded = try decodeStack(document.body, id: document.id)
            } catch {
                // The model names fields from its own root (`rows[0].size`): under the inline body's path here.
                var error = error
                let path = document.body.path
                if let field = error.field, field != path, !field.hasPrefix(path + ".") { error.field = path + "." + field }
                throw error
            }
            if store.contains(document.id) {
                if retried(document.id, decoded) { continue }
                throw APIError(.duplicateID, message: "a stack with the id \"\(document.id)\" already exists: embed it by its id",
                               field: seen[document.id])
            }
            stacks.append((document.id, decoded))
        }
        return (host, stacks)
    }

    /// The create body `body` with every row's inline stack (a `stack` member that is an object:
    /// a create body with an `id`) replaced by its id, and those bodies appended to `inline`,
    /// each after the ones it holds itself. `seen` maps each id to the member that gave it: a
    /// repeated id is 409 `duplicate_id` naming the second. O(size of the body).
    static func inlineStacks(of body: ObjectReader, into inline: inout [(id: String, body: ObjectReader)],
                             seen: inout [String: String]) throws(APIError) -> ObjectReader {
        guard case .array(var rows)? = body.object["rows"] else { return body }
        var changed = false
        for (i, row) in rows.enumerated() {
            guard case .object(var members) = row, case .object(let document)? = members["stack"] else { continue }
            let path = Field.memberPath(Field.memberPath(body.path, "rows") + "[\(i)]", "stack")
            let reader = ObjectReader(object: document, path: path)
            let idField = try reader.required("id")
            let id = try idField.string()
            try checkStackID(id, field: idField.path)
            if let first = seen[id] {
                throw APIError(.duplicateID, message: "the stack id \"\(id)\" is given twice in this body (first at \(first))",
                               field: idField.path)
            }
            seen[id] = idField.path
            let nested = try inlineStacks(of: reader, into: &inline, seen: &seen)
            inline.append((id, nested))
            members["stack"] = .string(id)
            rows[i] = .object(members)
            changed = true
        }
        guard changed else { return body }
        var object = body.object
        object["rows"] = .array(rows)
        return ObjectReader(object: object, path: body.path)
    }

    /// Stores `stack` as the new stack `id` at revision 1, journaled durably: 201 with
    /// `Location` and the model (`Prefer: return=minimal`: `{"id", "revision"}`). 409
    /// `duplicate_id` when the id is taken.
    func created(_ id: String, _ stack: ScrollStack, _ c: RequestContext) throws(APIError) -> HTTPResponse {
        try created([(id, stack)], c)
    }

    /// Stores every one of `stacks` as a new stack at revision 1, journaled durably in one
    /// transaction (all or none), and answers as for the last (the host): 201 with its
    /// `Location` and model. Embeddings are admitted in order, so each may embed the ones
    /// before it. 409 `duplicate_id` when an id is taken; nothing is stored then.
    func created(_ stacks: [(id: String, stack: ScrollStack)], _ c: RequestContext) throws(APIError) -> HTTPResponse {
        var stacks = stacks
        let ids = Set(stacks.map(\.id))
        for (id, _) in stacks.dropLast() where store.contains(id) { throw .duplicateStack(id) }
        var admitted: [String] = []
        var inserted: [String] = []
        func undo() {
            for id in inserted { try? store.remove(id) }
            // An id that was taken keeps the edges of the stack stored under it.
            for id in admitted { resetEmbeddings(of: id) }
        }
        do throws(APIError) {
            for (id, stack) in stacks {
                let requests = StackOperation.replaceWhole(stack).embeddingRequests
                if let first = requests.first, isReplicated {
                    throw .invalid(first.field, "embedding a stack is not available with replicas (--store postgres://): their graph of embeddings is not shared yet")
                }
                admitted.append(id)
                try embeddings.admit(host: id, requests) { store.contains($0) || (ids.contains($0) && $0 != id) }
            }
            for i in stacks.indices {
                // Fit rows embedding a stack of this body were measured before it was stored:
                // measured again now that the ones before are.
                let stale = stacks[i].stack.staleFitRows()
                if !stale.isEmpty {
                    do throws(StackError) { _ = try stacks[i].stack.reload(stale.map { RowReference.index($0) }) } catch { throw APIError(error) }
                }
                try store.insert(StackEntry(id: stacks[i].id, stack: stacks[i].stack))
                inserted.append(stacks[i].id)
            }
        } catch {
            undo()
            throw error
        }
        do {
            if stacks.count == 1 {
                try journal?.recordCreation(id: stacks[0].id, model: Self.snapshot(stacks[0].stack))
            } else {
                try journal?.recordCreations(stacks.map { ($0.id, Self.snapshot($0.stack)) })
            }
        } catch {
            undo()
            // Replicas share ids: another one created this stack first.
            if case .conflict(let key, _) = error { throw .duplicateStack(key) }
            throw APIError(error)
        }
        let (id, stack) = stacks[stacks.count - 1]
        let location = [("Location", "/v1/stacks/\(id)")]
        if c.prefersMinimal { return .minimal(201, id: id, revision: 1, headers: location) }
        return .json(201, text: ModelEncoding.stackText(id: id, revision: 1, stack), revision: 1, headers: location)
    }

    /// Sets the graph's edges of `id` to what its stored rows embed (none when it is not stored).
    func resetEmbeddings(of id: String) {
        guard let entry = try? store.entry(id),
              (try? entry.read({ stack, _ throws(APIError) in embeddings.set(host: id, to: stack.embeddedStacks) })) != nil else {
            embeddings.set(host: id, to: [])
            return
        }
    }

    /// The `id` a create body gives (checked as a stack id: piles follow the same rule), or
    /// `generate()`'s when it gives none.
    static func resourceID(_ body: ObjectReader, generate: () -> String) throws(APIError) -> String {
        guard let f = try body.optional("id") else { return generate() }
        let id = try f.string()
        try checkStackID(id, field: f.path)
        return id
    }

    /// Stack ids travel in paths: 1–128 of `A–Z a–z 0–9 . _ ~ -`.
    static func checkStackID(_ id: String, field: String) throws(APIError) {
        let allowed = id.utf8.allSatisfy { c in
            (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 46 || c == 95 || c == 126 || c == 45
        }
        guard !id.isEmpty, id.utf8.count <= 128, allowed else {
            throw .invalid(field, "must be 1 to 128 characters from A–Z, a–z, 0–9, '.', '_', '~', '-'")
        }
    }

    /// Decodes the create body (also the body of the stateless layout) into a stack.
    /// The read-only members a GET answers with (`revision`, `contentSize`, rows' `index`)
    /// are accepted and ignored, so a fetched stack can be posted back as it is.
    ///
    /// Rows without an id get one derived from the stack id `id`, so a replay gets the same.
    ///
    /// A paging stack's defaults differ: its separator is hidden unless the body sets
    /// `separator.hidden`, and it rests on the first page's stop unless the body sets `offset`.
    func decodeStack(_ body: ObjectReader, id: String) throws(APIError) -> ScrollStack {
        try body.allowOnly(["id", "rows", "revision", "contentSize"] + ModelDecoding.settingsKeys) { ModelDecoding.stackMemberMisplaced($0, path: body.path) }
        var settings = try ModelDecoding.settings(body, base: StackSettings())
        let pages = settings.paging != nil
        if pages, (try? body.field("separator")?.object().has("hidden")) != true { settings.separator.hidden = true }
        let rows = try body.optional("rows").map { f throws(APIError) in try RowFields(f) }
        // Rows go straight into the builder as they are decoded. The model's first error is
        // kept and thrown after every row has been decoded, so a decoding error anywhere
        // still comes first, as when all rows were decoded before the stack was built.
        var refused: StackError?
        var builder: ScrollStackBuilder?
        do { builder = try ScrollStackBuilder(settings: settings, measurer: measurer, titleMeasurer: titleMeasurer, capacity: rows?.count ?? 0) } catch {
            refused = error
        }
        // The ids before a row without one, made only when such a row comes.
        var used: Set<String>?
        var ids = RowIDGenerator(stack: id, revision: 1)
        for i in 0..<(rows?.count ?? 0) {
            let row = try rows!.row(i, maxDepth: limits.maxJSONDepth, maxTitle: limits.maxTitleCharacters, defaults: settings) {
                if used == nil { used = Set(builder?.ids ?? []) }
                return ids.next(isTaken: { used!.contains($0) })
            }
            used?.insert(row.id)
            guard refused == nil else { continue }
            do { try builder!.append(row) } catch { refused = error }
        }
        if let refused { throw APIError(refused) }
        var stack = try model { () throws(StackError) in try builder!.build() }
        if pages, !body.has("offset"), let stop = stack.firstPageStop() {
            var offset = Point.zero
            offset[stack.settings.axis] = stop
            try model { () throws(StackError) in _ = try stack.scroll(to: .offset(offset)) }
        }
        return stack
    }

    /// `GET /v1/stacks/{stack}`: the whole model, rows in order; `?revision=N` as it was then.
    func getStack(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery(["revision"])
        let asked = try requestedRevision(c)
        return try cachedRead(c) { stack, revision throws(APIError) in
            let id = c.parameter("stack")
            guard let asked, asked != revision else {
                return stackAnswer(id: id, revision: revision, stack)
            }
            let past = try self.stack(id, at: asked, current: revision, field: "revision")
            return stackAnswer(id: id, revision: asked, past)
        }
    }

    /// `PATCH /v1/stacks/{stack}`: settings; nested objects merge member by member.
    func patchStack(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery(["fps"])
        let (body, animation) = try animatedBody(c)
        try body.allowOnly(ModelDecoding.settingsKeys + ModelDecoding.animationKeys) { ModelDecoding.stackMemberMisplaced($0, path: body.path) }
        guard !body.object.isEmpty else { throw .invalid(nil, "the body changes nothing: give at least one of \(ModelDecoding.settingsKeys.joined(separator: ", "))") }
        return try mutate(c, animation: animation) { stack, _ throws(APIError) in
            .settings(try ModelDecoding.settings(body, base: stack.settings))
        }
    }

    /// `DELETE /v1/stacks/{stack}`: 204. Honours `If-Match`. 409 `stack_embedded` while
    /// another stack's rows embed it.
    func deleteStack(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery([])
        if try deleteUnreadableStack(c.parameter("stack")) { return HTTPResponse(status: 204) }
        try deleteStoredStack(c)
        // The stack is freed by now (unless an answer still being streamed holds a copy).
        FreeMemory.returnToSystem()
        return HTTPResponse(status: 204)
    }

    /// Deletes the stack the path names, honouring `If-Match`.
    func deleteStoredStack(_ c: RequestContext) throws(APIError) {
        let entry = try store.entry(c.parameter("stack"))
        try embeddings.beginDeletion(of: entry.id)
        var deleted = false
        defer { embeddings.endDeletion(of: entry.id, deleted: deleted) }
        // Removed under the stack's write lock, so no mutation slips in after the check. Its
        // streams end there too, before the id is free: a stack created again under it never
        // has its own streams ended, nor the old ones carry its revisions.
        try entry.delete(check: { revision throws(APIError) in try c.checkIfMatch(revision) },
                         remove: { () throws(APIError) in
                             do throws(JournalError) { try journal?.recordDeletion(id: entry.id) } catch { throw APIError(error) }
                             hub.closeAll(entry.id)
                             try store.remove(entry.id)
                         })
        deleted = true
        answers.forget(entry)
    }

    /// `POST /v1/stacks/{stack}/scroll`. The answer adds `window`: the visible layout after the
    /// scroll (as `GET …/layout?window=visible` answers it, carousel members included, without
    /// `revision`), so following a scroll takes one request. A `page` target becomes the
    /// offset of that stop (`pageOffset`). With `"dryRun": true` it is a read: the current
    /// `revision`, `dryRun`, the `offset` the scroll would reach, the `transition` it would
    /// plan when asked, and the `window` there; nothing changes.
    func scroll(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery(["fps"])
        let (body, animation) = try animatedBody(c)
        let dryRun = try body.optional("dryRun")?.bool() ?? false
        func operation(_ stack: ScrollStack) throws(APIError) -> StackOperation {
            .scroll(try ModelDecoding.scrollTarget(body, currentOffset: stack.settings.offset) { along, across throws(APIError) in
                try Self.pageOffset(along, across: across, in: stack)
            })
        }
        guard dryRun else {
            let window = { [self] (stack: ScrollStack, w: inout JSONWriter) in writeScrollWindow(stack, into: &w) }
            return try mutate(c, animation: animation, extra: window) { stack, _ throws(APIError) in try operation(stack) }
        }
        return try read(c) { stack, revision throws(APIError) in
            let scroll = try operation(stack)
            // A copy of a stack is O(1); scrolling it touches only its settings and window.
            var after = stack
            let result = try model { () throws(StackError) in try scroll.apply(to: &after) }
            var w = JSONWriter(capacity: 4096)
            w.beginObject()
            w.key(ascii: "revision")
            w.integer(Int64(revision))
            w.key(ascii: "dryRun")
            w.bool(true)
            w.key(ascii: "offset")
            ModelEncoding.writePoint(after.settings.offset, into: &w)
            if animation.answersPlan {
                let plan = TransitionPlanner.plan(from: TransitionCapture(stack, targets: nil), to: after, result: result,
                                                  timing: animation.timing(for: scroll, in: stack), animated: animation.timing != nil)
                if let fps = animation.fps, let error = AnimationRequest.rowSampleViolation(plan, fps: fps) { throw error }
                // The plan names the revision the scroll would make.
                w.key(ascii: "transition")
                ModelEncoding.writePlan(plan, revision: revision + 1, nested: nestedPlanRows(plan, host: after), fps: animation.fps, into: &w)
            }
            writeScrollWindow(after, into: &w)
            w.endObject()
            return .json(200, text: w.take(), revision: revision)
        }
    }

    /// A scroll answer's `window` member: the visible layout as `GET …/layout?window=visible`
    /// answers it, embedded stacks included (down to `EmbeddedLayouts.maxDepth`, or naming
    /// them only when the tree holds more rows than `limits.composedLayoutRows`), without
    /// `revision`.
    func writeScrollWindow(_ stack: ScrollStack, into w: inout JSONWriter) {
        var embedded: EmbeddedLayouts?
        if !stack.embeddedStacks.isEmpty {
            let tree = EmbeddedLayouts(depth: EmbeddedLayouts.maxDepth, visibleOnly: true) { [store] id in try? store.entry(id) }
            embedded = tree.rowCount(of: stack) > limits.composedLayoutRows ? EmbeddedLayouts(depth: 0, visibleOnly: true) { _ in nil } : tree
        }
        w.key(ascii: "window")
        ModelEncoding.writeLayout(&w, revision: nil, stack.visibleLayout(), window: nil, of: stack, page: nil, next: nil,
                                  contentFrames: false, embedded: embedded)
    }
}
