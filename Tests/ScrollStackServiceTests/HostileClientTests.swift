import Foundation
import Jansson
import MicroHTTP
import ScrollStackService
import TestHTTPClient
import XCTest

/// Issue 7 over real HTTP: what a hostile client sends is refused with a JSON error, and
/// never loses data or service.
final class HostileClientTests: XCTestCase {
    var server: ServerHarness!

    override func setUpWithError() throws {
        server = try ServerHarness()
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: object(("id", "victim"), ("rows", [row("v0"), row("v1")]))).status, 201)
    }

    override func tearDown() {
        server.stop()
    }

    /// Sends raw bytes on a fresh connection; returns the one answer and whether the server
    /// closed the connection after it.
    func rawExchange(_ bytes: [UInt8]) throws -> (reply: Reply, closed: Bool) {
        let connection = try TestHTTPConnection(port: server.port, timeout: 5)
        defer { connection.close() }
        try connection.sendRaw(bytes)
        let reply = Reply(try connection.readResponse())
        return (reply, connection.isClosedByServer(within: 3))
    }

    func testARawNULInThePathNeverDeletesAStack() throws {
        let (reply, closed) = try rawExchange(Array("DELETE /v1/stacks/victim\u{0}/rows/v0 HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        XCTAssertEqual(reply.status, 400)
        XCTAssertEqual(reply.errorCode, "bad_request")
        XCTAssertEqual(reply["error.message"]?.stringValue, "the request target holds a NUL byte (0x00)")
        XCTAssertTrue(closed)
        let stack = try server.request("GET", "/v1/stacks/victim")
        XCTAssertEqual(stack.status, 200, "the stack is still there")
        XCTAssertEqual(stack["rows"]?.arrayValue?.count, 2, "and so are its rows")
        XCTAssertEqual(stack["revision"], .integer(1))
    }

    func testANULInAHeaderIsRefusedNamingTheHeader() throws {
        let (reply, closed) = try rawExchange(Array("DELETE /v1/stacks/victim HTTP/1.1\r\nHost: x\r\nIf-Match: \"1\u{0}\"\r\n\r\n".utf8))
        XCTAssertEqual(reply.status, 400)
        XCTAssertEqual(reply.errorCode, "bad_request")
        XCTAssertEqual(reply.errorField, "If-Match")
        XCTAssertTrue(closed)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/victim").status, 200)
    }
}
