import JSONCodec
import MicroHTTP
import ScrollStackCore
import ScrollStackStore
import ScrollStackTransitions

extension StackService {
    /// A mutation's JSON body without `animation`/`fps`, and what those ask (row defaults).
    func animatedBody(_ c: RequestContext) throws(APIError) -> (ObjectReader, AnimationRequest) {
        let (body, animation) = try ModelDecoding.animation(try c.jsonObject(), c, defaults: .rows)
        return (body ?? ObjectReader(object: JSONObject(), path: ""), animation)
    }

    /// The animation of a mutation that takes no body of its own (DELETE): an optional JSON
    /// body with `animation` and `fps` only, and `?fps=`.
    func animationOnly(_ c: RequestContext) throws(APIError) -> AnimationRequest {
        let body = c.request.body.isEmpty ? nil : try c.jsonObject()
        try body?.allowOnly(ModelDecoding.animationKeys)
        return try ModelDecoding.animation(body, c, defaults: .rows).1
    }

    /// The targets of a change to the row the path names.
    func pathTarget(_ c: RequestContext) -> (ScrollStack) throws(APIError) -> [String] {
        { stack throws(APIError) in [try self.pathRow(c, in: stack).row.id] }
    }

    /// `GET /v1/stacks/{stack}/transitions/{revision}?fps=N`: the plan kept with the change
    /// that made `revision` (2…current; revision 1 created the stack), with keyframes at N
    /// frames per second when asked. A plan kept as a `PlanRecipe` is computed again here.
    func transition(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery(["fps"])
        let (_, animation) = try ModelDecoding.animation(nil, c, defaults: .rows)
        let text = c.parameter("revision")
        let entry = try store.entry(c.parameter("stack"))
        let current = try entry.read { _, revision throws(APIError) in revision }
        guard let revision = Int(text), (1...current).contains(revision) else {
            throw APIError(.revisionNotFound, message: "the stack's revisions are 1…\(current); \"\(text)\" is not one of them", field: "revision")
        }
        guard revision > 1 else {
            throw APIError(.transitionNotFound, message: "revision 1 created the stack: no change led to it", field: "revision")
        }
        guard let journal else { throw .storageFailed("this service keeps no journal") }
        let stored: [UInt8]?
        do throws(JournalError) { stored = try journal.plan(id: entry.id, revision: revision) } catch { throw APIError(error) }
        if let recipe = stored, PlanRecipe.isRecipe(recipe) {
            let derived = try derivedPlan(entry.id, revision: revision, current: current,
                                          recipe: PlanRecipe.decode(recipe, what: "the plan of revision \(revision) of \(entry.id)"), journal: journal)
            if let fps = animation.fps, let error = AnimationRequest.keyframeViolation(derived, fps: fps) { throw error }
            var w = JSONWriter(capacity: 640 + 800 * derived.rows.count)
            ModelEncoding.writePlan(derived, revision: revision, fps: animation.fps, into: &w)
            return .json(200, text: w.take(), revision: revision)
        }
        // A plan kept whole is 17-digit text: written again with the answer's digits (15, or more
        // where 15 would change a real), in one pass when it is in the writer's form (the same
        // bytes as parsing it would give).
        if animation.fps == nil, let stored, let text = JSON.reprinted(stored, realPrecision: 15) {
            return .json(200, text: text, revision: revision)
        }
        guard let stored, case .object(let members)? = try? JSON.parse(stored) else {
            throw APIError(.transitionNotFound, message: "no plan was kept for revision \(revision)", field: "revision")
        }
        var w = JSONWriter(capacity: stored.count + 1024)
        w.beginObject()
        for (key, value) in members {
            w.key(key)
            w.value(value)
        }
        if let fps = animation.fps {
            guard let decoded = ModelDecoding.storedPlan(.object(members)) else { throw .storageFailed("the plan of revision \(revision) does not decode") }
            if let error = AnimationRequest.keyframeViolation(decoded, fps: fps) { throw error }
            ModelEncoding.writeKeyframes(decoded, fps: fps, into: &w)
        }
        w.endObject()
        return .json(200, text: w.take(), revision: revision)
    }

}
