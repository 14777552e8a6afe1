import JSONCodec
import MicroHTTP

extension StackService {
    /// `GET /healthz`, for anyone: `{"status": "ok"}` while the server runs; when some
    /// stacks cannot be served (start-up could not rebuild them, or their journal was found
    /// damaged), `{"status": "degraded", "unavailableStacks": N}` (still 200: every other
    /// stack is served). Only their count: their ids are not for anonymous callers (the log
    /// and `GET /v1/health` name them).
    func health() -> HTTPResponse {
        let unavailable = unavailableStacks.count
        guard unavailable > 0 else { return .json(200, ["status": "ok"]) }
        return .json(200, .object(JSONObject([("status", .string("degraded")), ("unavailableStacks", .integer(Int64(unavailable)))])))
    }

    /// `GET /v1/health` (behind the access tokens, as every /v1 path): `/healthz`'s status,
    /// and each unavailable stack with why: `{"status", "unavailableStacks": [{"id",
    /// "reason"}]}`, ordered by id. O(unavailable stacks).
    func detailedHealth(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery([])
        let unavailable = store.unreadableReasons
        return .json(200, .object(JSONObject([
            ("status", .string(unavailable.isEmpty ? "ok" : "degraded")),
            ("unavailableStacks", .array(unavailable.map { .object(JSONObject([("id", .string($0.id)), ("reason", .string($0.reason))])) })),
        ])))
    }
}
