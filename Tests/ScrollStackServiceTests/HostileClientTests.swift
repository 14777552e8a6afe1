import Foundation
import JSONCodec
import MicroHTTP
import ScrollStackService
import Synchronization
import TestHTTPClient
import XCTest

/// Hostile clients over real HTTP: what a hostile client sends is refused with a JSON error,
/// and never loses data or service.
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

    /// 1,000 clients open the live events of a quiet stack and go away, 50 at a time, on a
    /// server of 64 connections: each stream's slot comes back once its hang-up is noticed
    /// (the heartbeat is an hour away, so nothing else could free it within the test's
    /// deadlines), and fresh `/healthz` clients are answered throughout and after.
    func testAThousandAbandonedStreamsNeverLockClientsOut() throws {
        server.stop()
        server = try ServerHarness(streamHeartbeat: 3600)
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: object(("id", "victim"), ("rows", [row("v0"), row("v1")]))).status, 201)
        let port = server.port
        let probe = HealthProbe(port: port)
        for wave in 0..<20 {
            var clients: [TestHTTPConnection] = []
            for _ in 0..<50 {
                let client = try TestHTTPConnection(port: port, timeout: 5)
                try client.sendRaw(Array("GET /v1/stacks/victim/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n".utf8))
                clients.append(client)
            }
            for client in clients {
                let head = try client.readHead()
                XCTAssertEqual(head.status, 200, "wave \(wave)")
            }
            clients.forEach { $0.close() }
            // (The count of open streams announces no change: polled.)
            XCTAssertTrue(eventually(30) { server.server.openStreams == 0 }, "wave \(wave): \(server.server.openStreams) streams still held")
        }
        probe.finish(label: "1,000 abandoned streams")
        try assertHealthyAfterwards()
    }

    /// Hostile requests of every kind tested here, 400 of them from 4 clients at once,
    /// never stall the server: fresh `/healthz` clients are answered throughout, every slot
    /// comes back, and the stack is untouched.
    func testHostileRequestsNeverStallTheServer() throws {
        server.stop()
        server = try ServerHarness(maxBodyBytes: 1000)
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: object(("id", "victim"), ("rows", [row("v0"), row("v1")]))).status, 201)
        let port = server.port
        let hostile: [(String, Int)] = [
            ("DELETE /v1/stacks/victim\u{0}/rows/v0 HTTP/1.1\r\nHost: x\r\n\r\n", 400),
            ("DELETE /v1/stacks/victim HTTP/1.1\r\nHost: x\r\nX-A: 1\u{0}\r\n\r\n", 400),
            ("POST /v1/layout HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nContent-Length: 44\r\n\r\nDELETE /v1/stacks/victim HTTP/1.1\r\nHost: x\r\n\r\n", 400),
            ("POST /v1/layout HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nDELETE /v1/stacks/victim HTTP/1.1\r\nHost: x\r\n\r\n", 400),
            ("POST /v1/layout HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
            ("POST /v1/layout HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5dc\r\n" + String(repeating: " ", count: 1500) + "\r\n", 413),
            ("GET /v1/stacks/victim%00 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 400),
        ]
        let probe = HealthProbe(port: port)
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { client in
            for i in 0..<100 {
                let (request, status) = hostile[(client + i) % hostile.count]
                do {
                    let connection = try TestHTTPConnection(port: port, timeout: 5)
                    defer { connection.close() }
                    try connection.sendRaw(Array(request.utf8))
                    let got = try connection.readHead().status
                    if got != status { failures.withLock { $0.append("\(request.prefix(40)): \(got)") } }
                } catch {
                    failures.withLock { $0.append("\(request.prefix(40)): \(error)") }
                }
            }
        }
        probe.finish(label: "400 hostile requests")
        XCTAssertEqual(failures.withLock { $0 }, [])
        try assertHealthyAfterwards()
        let stack = try server.request("GET", "/v1/stacks/victim")
        XCTAssertEqual(stack["revision"], .integer(1), "nothing reached the stack")
        XCTAssertEqual(stack["rows"]?.arrayValue?.count, 2)
    }

    /// Every slot comes back (polled: no event announces it), and 20 fresh `/healthz` are
    /// answered, each within the client's 5 s timeout (Docs/Benchmarks.md has latencies; a
    /// test bounds none, see `HealthProbe`).
    func assertHealthyAfterwards(file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertTrue(eventually(30) { server.server.requestsInFlight == 0 && server.server.openStreams == 0 },
                      "slots back: \(server.server.requestsInFlight) requests held", file: file, line: line)
        for _ in 0..<20 {
            let connection = try TestHTTPConnection(port: server.port, timeout: 5)
            XCTAssertEqual(try connection.send(method: "GET", path: "/healthz").status, 200, file: file, line: line)
        }
    }

    /// The batch route owns `rows/batch`: its methods only; and `Allow` on `/v1/stacks`
    /// is what Docs/API.md shows.
    func testAllowListsThePathsOwnMethods() throws {
        for method in ["GET", "DELETE"] {
            let reply = try server.request(method, "/v1/stacks/victim/rows/batch")
            XCTAssertEqual(reply.status, 405, method)
            XCTAssertEqual(reply.header("allow"), "POST, OPTIONS", method)
        }
        // OPTIONS is answered on every path (CORS preflights), with the same methods.
        let options = try server.request("OPTIONS", "/v1/stacks/victim/rows/batch")
        XCTAssertEqual(options.status, 204)
        XCTAssertEqual(options.header("allow"), "POST, OPTIONS")
        let stacks = try server.request("DELETE", "/v1/stacks")
        XCTAssertEqual(stacks.header("allow"), "GET, HEAD, POST, OPTIONS")
        XCTAssertEqual(stacks["error.message"]?.stringValue, "DELETE is not allowed here; allowed: GET, HEAD, POST, OPTIONS")
        let apiDoc = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Docs/API.md").standardizedFileURL, encoding: .utf8)
        XCTAssertTrue(apiDoc.contains("Allow: GET, HEAD, POST, OPTIONS\n…\n" + stacks.text), "Docs/API.md shows this answer")
    }

    /// A chunked body over the limit gets its JSON 413 at once, while the body is still open.
    func testAnOverLimitChunkedBodyIsAnsweredAtOnce() throws {
        server.stop()
        server = try ServerHarness(maxBodyBytes: 1000)
        let (reply, closed) = try rawExchange(Array("POST /v1/layout HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5dc\r\n".utf8)
                                              + [UInt8](repeating: 0x20, count: 1500) + Array("\r\n".utf8))
        XCTAssertEqual(reply.status, 413)
        XCTAssertEqual(reply.errorCode, "payload_too_large")
        XCTAssertTrue(closed)
    }
}
