import JSONCodec
@testable import ScrollStackService
import TestHTTPClient
import XCTest

/// `EventSource` cannot send `Authorization`: on a server with tokens it opens a stack's
/// events with a short-lived ticket instead, which grants nothing else.
final class EventTicketTests: XCTestCase {
    static let writeToken = "w-0123456789abcdef0123"
    static let readToken = "r-0123456789abcdef0123"

    func tokens(_ lines: String = "\(writeToken) write\n\(readToken) read") throws -> AccessTokens {
        try AccessTokens(lines: lines, source: "test")
    }

    func testATicketOpensEventsAndNothingElse() throws {
        let server = try ServerHarness(tokens: try tokens())
        defer { server.stop() }
        let write = [("Authorization", "Bearer \(Self.writeToken)")]
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: object(("id", "s"), ("rows", [row("a")])), headers: write).status, 201)
        XCTAssertEqual(try server.request("POST", "/v1/event-tickets").status, 401, "a ticket needs a token")
        let minted = try server.request("POST", "/v1/event-tickets", headers: [("Authorization", "Bearer \(Self.readToken)")])
        XCTAssertEqual(minted.status, 201, "a read token suffices")
        XCTAssertEqual(minted.header("Cache-Control"), "no-store")
        XCTAssertEqual(minted["expiresIn"], 600)
        let ticket = try XCTUnwrap(minted["ticket"].flatMap { if case .string(let text) = $0 { text } else { nil } })
        XCTAssertFalse(ticket.contains(Self.readToken) || ticket.contains("0123456789abcdef"), "a ticket holds no token")

        let history = try server.request("GET", "/v1/stacks/s/events?ticket=\(ticket)")
        XCTAssertEqual(history.status, 200)
        let stream = try TestHTTPConnection(port: server.port)
        try stream.sendRaw(Array("GET /v1/stacks/s/events?ticket=\(ticket)&after=0 HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".utf8))
        let (status, headers) = try stream.readHead()
        XCTAssertEqual(status, 200)
        XCTAssertEqual(headers.first { $0.0 == "content-type" }?.1, "text/event-stream")
        stream.close()

        var tampered = Array(ticket)
        tampered[tampered.count - 2] = tampered[tampered.count - 2] == "A" ? "B" : "A"
        let refused = try server.request("GET", "/v1/stacks/s/events?ticket=\(String(tampered))")
        XCTAssertEqual(refused.status, 401)
        XCTAssertEqual(refused.errorCode, "invalid_token")
        XCTAssertEqual(refused.errorField, "ticket")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s?ticket=\(ticket)").status, 401, "a ticket reads events only")
        XCTAssertEqual(try server.request("DELETE", "/v1/stacks/s/events?ticket=\(ticket)").status, 401)

        let expired = EventTickets(tokens: try tokens()).mint(now: EventTickets.now - EventTickets.lifetime - 1)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s/events?ticket=\(expired)").status, 401, "an expired ticket")
        let elsewhere = EventTickets(tokens: try tokens("o-0123456789abcdef0123 write")).mint(now: EventTickets.now)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s/events?ticket=\(elsewhere)").status, 401, "another server's tokens")
        let sameTokens = EventTickets(tokens: try tokens("\(Self.readToken) read\n\(Self.writeToken) write")).mint(now: EventTickets.now)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s/events?ticket=\(sameTokens)").status, 200,
                       "a replica with the same tokens, in any order, accepts it")

        let preflight = try server.request("OPTIONS", "/v1/event-tickets", headers: [("Origin", "https://plugin.example"),
                                                                                    ("Access-Control-Request-Method", "POST")])
        XCTAssertEqual(preflight.status, 204)
        XCTAssertEqual(preflight.header("Access-Control-Allow-Methods"), "POST, OPTIONS")
        XCTAssertEqual(try server.request("GET", "/v1/event-tickets", headers: write).status, 405)
    }
}
