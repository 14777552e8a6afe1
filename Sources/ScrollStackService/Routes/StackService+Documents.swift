import JSONCodec
import MicroHTTP
import ScrollStackCore

extension StackService {
    /// `PUT /v1/stacks/{stack}`: the create body as the whole stack. A stack that does not
    /// exist is created (201, as `POST /v1/stacks` with this id); one that exists is
    /// replaced, settings and rows, as one new revision journaled like every mutation (200,
    /// the mutation answer; the events say what changed on screen). `If-Match` applies to a
    /// replace (412 for another revision, and for a stack that does not exist);
    /// `If-None-Match: *` makes it create-only (412 when the stack exists). A body's `id`, if
    /// given, must be the path's.
    func putStack(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery([])
        let id = c.parameter("stack")
        try Self.checkStackID(id, field: "stack")
        let body = try c.jsonObject()
        if let f = try body.optional("id"), try f.string() != id {
            throw .invalid(f.path, "must be the path's stack id \"\(id)\", or left out")
        }
        let createOnly = try Self.createsOnly(c)
        let (host, inline) = try inlineDocuments(body, id: id) { [self] taken, decoded in isUnclaimedCopy(taken, of: decoded) }
        let document = try decodeStack(host, id: id)
        guard !inline.isEmpty else { return try put(id, document, createOnly: createOnly, c, mayRetry: true) }
        guard store.contains(id) else {
            if let expected = c.request.header("if-match") {
                throw APIError(.preconditionFailed, message: "If-Match \(expected) names a revision, and the stack \"\(id)\" does not exist")
            }
            return try created(inline + [(id, document)], c)
        }
        if createOnly { return try put(id, document, createOnly: true, c, mayRetry: false) }
        // Replacing: the inline stacks are created first, durably and together, then the
        // stack is replaced; if that fails they are deleted again. A crash between the two
        // leaves them created and embedded by nothing: the same PUT again takes them as they
        // are (`isUnclaimedCopy`) and goes on.
        _ = try created(inline, c.answeringNow)
        do {
            // Decoded again now that the inline stacks are there: fit rows embedding them measure them.
            return try put(id, try decodeStack(host, id: id), createOnly: false, c, mayRetry: true)
        } catch {
            for (child, _) in inline.reversed() {
                let request = HTTPRequest(method: "DELETE", path: "/v1/stacks/\(child)")
                do { try deleteStoredStack(RequestContext(request: request, parameters: ["stack": child])) } catch let failure {
                    logger.warning("the stack \(child) a failed PUT of \(id) created stays: \(failure.message)")
                }
            }
            throw error
        }
    }

    /// Whether the stack stored as `id` is what a PUT's inline body `decoded` would create and
    /// nothing has claimed it: at revision 1, embedded by no stack, with the same model (the
    /// PUT is being tried again after the first try created it and stopped).
    private func isUnclaimedCopy(_ id: String, of decoded: ScrollStack) -> Bool {
        guard embeddings.hosts(of: id).isEmpty, let entry = try? store.entry(id) else { return false }
        let stored = try? entry.read { stack, revision throws(APIError) in revision == 1 ? ModelEncoding.stackText(id: id, revision: 1, stack) : nil }
        return stored.flatMap { $0 } == ModelEncoding.stackText(id: id, revision: 1, decoded)
    }

    /// Replaces the stack `id` with `document`, or creates it (`putStack`). A stack deleted,
    /// or created, between the look-up and the write is judged once more (`mayRetry`).
    private func put(_ id: String, _ document: ScrollStack, createOnly: Bool, _ c: RequestContext, mayRetry: Bool) throws(APIError) -> HTTPResponse {
        if store.contains(id) {
            if createOnly {
                let current = try store.entry(id).read { _, revision throws(APIError) in revision }
                throw APIError(.preconditionFailed, message: "If-None-Match: * creates only, and the stack \"\(id)\" exists",
                               revision: current, headers: [("ETag", "\"\(current)\"")])
            }
            do {
                return try mutate(c, snapshot: true) { _, _ throws(APIError) in .replaceWhole(document) }
            } catch where error.code == .stackNotFound && mayRetry {
                return try put(id, document, createOnly: createOnly, c, mayRetry: false)
            }
        }
        if let expected = c.request.header("if-match") {
            throw APIError(.preconditionFailed, message: "If-Match \(expected) names a revision, and the stack \"\(id)\" does not exist")
        }
        do {
            return try created(id, document, c)
        } catch where error.code == .duplicateID && mayRetry {
            return try put(id, document, createOnly: createOnly, c, mayRetry: false)
        }
    }

    /// Whether a PUT asks to create only (`If-None-Match: *`); 400 `bad_header` for any other
    /// `If-None-Match` (a write has no representation to compare).
    private static func createsOnly(_ c: RequestContext) throws(APIError) -> Bool {
        guard let value = c.request.header("if-none-match") else { return false }
        guard Substring(value).trimmingSpaces == "*" else {
            throw APIError(.badHeader, message: "If-None-Match on a PUT may only be *, which creates the stack only if it does not exist",
                           field: "If-None-Match")
        }
        return true
    }

    /// `POST /v1/stacks/{stack}/copy {"id"?, "revision"?}`: a new stack (`id`, or a generated
    /// one) holding the settings and rows of `{stack}` at `revision` (default: the current
    /// one), at revision 1 of its own history; 201 with `Location` and the model, as a
    /// create. 404 `revision_not_found` for a revision the stack never had; 409
    /// `duplicate_id` for an id that is taken.
    func copyStack(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery([])
        let body = try c.jsonObject()
        try body.allowOnly(["id", "revision"])
        let asked = try body.optional("revision").map { f throws(APIError) in try f.int() }
        let id = try Self.resourceID(body) { Self.makeStackID(isTaken: store.contains) }
        let sourceID = c.parameter("stack")
        let (current, revision) = try store.entry(sourceID).read { stack, revision throws(APIError) in (stack, revision) }
        let source = try asked.map { at throws(APIError) in try stack(sourceID, at: at, current: revision, field: "revision") } ?? current
        return try created(id, source, c)
    }
}
