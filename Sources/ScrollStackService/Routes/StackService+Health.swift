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
    /// "reason"}]}`, ordered by id; on a replica, also `writers`: this replica's `address`
    /// (null without one), the `members` it sees now (`WriteOwners`), and how many writes it
    /// `forwarded` to their owner and wrote itself since their owner was `unreachable`.
    /// O(unavailable stacks + members).
    func detailedHealth(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery([])
        let unavailable = store.unreadableReasons
        var members: [(String, JSON)] = [
            ("status", .string(unavailable.isEmpty ? "ok" : "degraded")),
            ("unavailableStacks", .array(unavailable.map { .object(JSONObject([("id", .string($0.id)), ("reason", .string($0.reason))])) })),
        ]
        if let owners = writeOwners.withLock({ $0 }) {
            members.append(("writers", .object(JSONObject([
                ("address", owners.address.map { .string($0) } ?? .null),
                ("members", .array(owners.members.map { .string($0) })),
                ("forwarded", .integer(Int64(owners.forwarded.load(ordering: .relaxed)))),
                ("unreachable", .integer(Int64(owners.unreachable.load(ordering: .relaxed)))),
            ]))))
        }
        return .json(200, .object(JSONObject(members)))
    }
}
