import Foundation
import Jansson
import MicroHTTP
import ScrollStackService
import Synchronization
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

    /// 1,000 clients open the live events of a quiet stack and go away, 50 at a time, on a
    /// server of 64 connections: each stream's slot comes back at once, and a fresh
    /// `/healthz` answers within 100 ms throughout and after.
    func testAThousandAbandonedStreamsNeverLockClientsOut() throws {
        let done = Atomic<Bool>(false)
        let probes = Mutex<(count: Int, slowest: Double, failures: [String])>((0, 0, []))
        let prober = DispatchGroup()
        let port = server.port
        DispatchQueue.global().async(group: prober) {
            while !done.load(ordering: .acquiring) {
                let start = DispatchTime.now().uptimeNanoseconds
                let outcome = Result { try httpRequest(port: port, method: "GET", path: "/healthz").status }
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                probes.withLock { probes in
                    probes.count += 1
                    probes.slowest = max(probes.slowest, seconds)
                    if case .failure(let error) = outcome { probes.failures.append("\(error)") }
                    if case .success(let status) = outcome, status != 200 { probes.failures.append("status \(status)") }
                }
                usleep(2_000)  // pacing, not synchronization
            }
        }
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
            XCTAssertTrue(eventually(5) { server.server.openStreams == 0 }, "wave \(wave): \(server.server.openStreams) streams still held")
        }
        done.store(true, ordering: .releasing)
        XCTAssertEqual(prober.wait(timeout: .now() + 10), .success)
        XCTAssertTrue(eventually(5) { server.server.requestsInFlight == 0 }, "slots back: \(server.server.requestsInFlight) requests held")
        for _ in 0..<20 {
            let start = DispatchTime.now().uptimeNanoseconds
            XCTAssertEqual(try server.request("GET", "/healthz").status, 200)
            XCTAssertLessThan(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, 0.1, "a fresh /healthz after")
        }
        let seen = probes.withLock { $0 }
        print("abandoned streams: \(seen.count) probes during 1,000 abandoned streams, slowest \(Int(seen.slowest * 1000)) ms")
        XCTAssertGreaterThan(seen.count, 20)
        XCTAssertEqual(seen.failures, [])
        XCTAssertLessThan(seen.slowest, 0.1, "every /healthz within 100 ms during the run")
    }

    /// The batch route owns `rows/batch`: its methods only; and `Allow` on `/v1/stacks`
    /// is what Docs/API.md shows.
    func testAllowListsThePathsOwnMethods() throws {
        for method in ["GET", "DELETE"] {
            let reply = try server.request(method, "/v1/stacks/victim/rows/batch")
            XCTAssertEqual(reply.status, 405, method)
            XCTAssertEqual(reply.header("allow"), "POST", method)
        }
        // OPTIONS is answered on every path (CORS preflights, issue 8), with the same methods.
        let options = try server.request("OPTIONS", "/v1/stacks/victim/rows/batch")
        XCTAssertEqual(options.status, 204)
        XCTAssertEqual(options.header("allow"), "POST, OPTIONS")
        let stacks = try server.request("DELETE", "/v1/stacks")
        XCTAssertEqual(stacks.header("allow"), "GET, HEAD, POST")
        XCTAssertEqual(stacks["error.message"]?.stringValue, "DELETE is not allowed here; allowed: GET, HEAD, POST")
        let apiDoc = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Docs/API.md").standardizedFileURL, encoding: .utf8)
        XCTAssertTrue(apiDoc.contains("Allow: GET, HEAD, POST\n…\n" + stacks.text), "Docs/API.md shows this answer")
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

    /// Waits until `condition` holds, up to `timeout` seconds (polled every 5 ms).
    func eventually(_ timeout: Double, _ condition: () -> Bool) -> Bool {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
        while !condition() {
            if DispatchTime.now().uptimeNanoseconds > deadline { return false }
            usleep(5_000)
        }
        return true
    }
}
