import JSONCodec
import MicroHTTP

extension ServiceEdge {
    /// The route of event tickets (`EventTickets`), answered here at the edge.
    static let ticketsPath = "/v1/event-tickets"
    /// What it accepts.
    static let ticketsMethods = ["POST"]

    /// Whether `rawPath` is `/v1/event-tickets` (empty segments ignored, as the router does).
    static func isTicketsPath(_ rawPath: String) -> Bool {
        rawPath.utf8.split(separator: UInt8(ascii: "/")).elementsEqual(["v1".utf8, "event-tickets".utf8].map(Array.init)) { Array($0) == $1 }
    }

    /// Whether `request` reads a live event stream or history: GET or HEAD of
    /// `/v1/stacks/{stack}/events` or `/v1/piles/{pile}/events`, the only requests a ticket
    /// authorizes.
    static func isEventsRead(_ request: HTTPRequest) -> Bool {
        guard request.method == "GET" || request.method == "HEAD" else { return false }
        let segments = request.rawPath.split(separator: "/")
        return segments.count == 4 && segments[0] == "v1" && (segments[1] == "stacks" || segments[1] == "piles") && segments[3] == "events"
    }

    /// `POST /v1/event-tickets` (authorized like any `/v1` request; a read token suffices):
    /// 201 `{"ticket", "expiresIn"}`, never cached. Other methods get 405.
    func ticketAnswer(_ request: HTTPRequest) -> HTTPResponse {
        guard Self.ticketsMethods.contains(request.method) else {
            return .error(.methodNotAllowed(request.method, allowed: Self.ticketsMethods))
        }
        let answer: JSON = .object(JSONObject([("ticket", .string(tickets.mint(now: EventTickets.now))),
                                               ("expiresIn", .number(Double(EventTickets.lifetime)))]))
        var response = HTTPResponse.json(201, answer)
        response.headers.append((name: "Cache-Control", value: "no-store"))
        return response
    }
}
