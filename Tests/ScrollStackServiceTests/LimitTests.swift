import JSONCodec
import TestHTTPClient
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// Body limits and slow clients.
final class LimitTests: XCTestCase {
    /// A valid insert body padded with spaces to exactly `size` bytes.
    func paddedBody(_ size: Int) -> [UInt8] {
        let json = object(("rows", [row("x")])).serialized()
        return json + [UInt8](repeating: UInt8(ascii: " "), count: size - json.count)
    }

    func testBodyAtTheLimitIsReadAndOneByteOverIs413() throws {
        let server = try ServerHarness(maxBodyBytes: 1000)
        defer { server.stop() }
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: object(("id", "s"))).status, 201)
        let json = [("Content-Type", "application/json")]
        let atLimit = try server.raw("POST", "/v1/stacks/s/rows", body: paddedBody(1000), headers: json)
        XCTAssertEqual(atLimit.status, 200, atLimit.text)
        let over = try server.raw("POST", "/v1/stacks/s/rows", body: paddedBody(1001), headers: json)
        XCTAssertEqual(over.status, 413, over.text)
        XCTAssertEqual(over.errorCode, "payload_too_large")
        XCTAssertEqual(over["error.status"], 413)
        // Nothing of the rejected request was applied.
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s")["revision"], 2)
    }

    func testDeclaredOversizeBodyIsRefusedBeforeItIsSent() throws {
        let server = try ServerHarness(maxBodyBytes: 1000)
        defer { server.stop() }
        let connection = try TestHTTPConnection(port: server.port)
        defer { connection.close() }
        try connection.sendRaw(Array("POST /v1/stacks HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000000\r\n\r\n".utf8))
        let response = try connection.readResponse()
        XCTAssertEqual(response.status, 413)
        XCTAssertEqual(Reply(response).errorCode, "payload_too_large")
    }

    func testStalledClientIsClosedAndItsSlotFreed() throws {
        // One thread and one connection slot: the stalled client holds the only slot.
        let server = try ServerHarness(connectionTimeout: 1, threads: 1, connectionLimit: 1)
        defer { server.stop() }
        let stalled = try TestHTTPConnection(port: server.port)
        defer { stalled.close() }
        try stalled.sendRaw(Array("POST /v1/stacks HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"id\":".utf8))
        let start = monotonicSeconds()
        // The server closes the stalled connection after its timeout, without an answer or with an error.
        var closed = false
        do {
            let response = try stalled.readResponse()
            closed = response.status >= 400
        } catch {
            closed = true
        }
        XCTAssertTrue(closed, "the stalled connection was neither closed nor refused")
        XCTAssertLessThan(monotonicSeconds() - start, 8, "the timeout did not fire in time")
        // The slot is free again: a new client is served.
        let reply = try server.request("GET", "/healthz")
        XCTAssertEqual(reply.status, 200)
    }

    private func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
