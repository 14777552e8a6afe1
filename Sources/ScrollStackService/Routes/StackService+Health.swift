import Jansson
import MicroHTTP

extension StackService {
    /// `GET /healthz`: `{"status": "ok"}` while the server runs; when start-up could not
    /// rebuild some stacks, `{"status": "degraded", "unavailableStacks": [ids]}` (still 200:
    /// every other stack is served).
    func health() -> HTTPResponse {
        let unavailable = unavailableStacks
        guard !unavailable.isEmpty else { return .json(200, ["status": "ok"]) }
        return .json(200, .object(JSONObject([("status", .string("degraded")), ("unavailableStacks", .array(unavailable.map(JSON.string)))])))
    }
}
