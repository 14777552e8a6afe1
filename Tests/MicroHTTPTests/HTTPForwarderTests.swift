import Dispatch
import Foundation
import MicroHTTP
import Synchronization
import TestHTTPClient
import XCTest

/// `HTTPForwarder` against servers that answer as scripted, byte for byte: framings, kept
/// connections, and each way an exchange can fail (and whether the request could have
/// reached the other side).
final class HTTPForwarderTests: XCTestCase {
    /// Sends one request and waits (10 s at most) for its outcome.
    func forward(_ forwarder: HTTPForwarder, to address: String, method: String = "POST", target: String = "/v1/x?y=1",
                 headers: [(name: String, value: String)] = [("Host", "example.test")], body: [UInt8] = Array("{}".utf8))
        throws -> Result<HTTPForwarder.Answer, HTTPForwarder.Failure> {
        let outcome = Mutex<Result<HTTPForwarder.Answer, HTTPForwarder.Failure>?>(nil)
        let done = DispatchSemaphore(value: 0)
        forwarder.send(HTTPForwarder.Request(method: method, target: target, headers: headers, body: body), to: address) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success, "an outcome within 10 s")
        return try XCTUnwrap(outcome.withLock { $0 }, "no outcome within 10 s")
    }

    func testAnAnswerWithContentLengthComesBackWholeAndTheConnectionIsKept() throws {
        let server = try ScriptedServer { connection in
            while let request = connection.readRequest() {
                XCTAssertTrue(request.head.hasPrefix("POST /v1/x?y=1 HTTP/1.1\r\n"), request.head)
                XCTAssertTrue(request.head.contains("Host: example.test\r\n"), request.head)
                XCTAssertEqual(request.body, Array("{}".utf8))
                connection.write("HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nETag: \"7\"\r\nContent-Length: 11\r\n\r\n{\"ok\":true}")
            }
        }
        defer { server.stop() }
        let forwarder = HTTPForwarder(threads: 2)
        defer { forwarder.stop() }
        for _ in 0..<3 {
            let answer = try forward(forwarder, to: server.address).get()
            XCTAssertEqual(answer.status, 201)
            XCTAssertEqual(answer.body, Array(#"{"ok":true}"#.utf8))
            XCTAssertEqual(answer.headers.first { $0.name == "ETag" }?.value, "\"7\"", "names and values as sent")
        }
        XCTAssertEqual(server.accepted, 1, "one kept-alive connection for the three requests")
    }

    func testAChunkedAnswerIsJoined() throws {
        let server = try ScriptedServer { connection in
            guard connection.readRequest() != nil else { return }
            connection.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n1;x=y\r\n \r\n5\r\nworld\r\n0\r\nTrailer: 1\r\n\r\n")
        }
        defer { server.stop() }
        let forwarder = HTTPForwarder(threads: 1)
        defer { forwarder.stop() }
        XCTAssertEqual(try forward(forwarder, to: server.address).get().body, Array("hello world".utf8))
    }

    func testAnAnswerEndedByClosingIsReadToTheEndAndTheConnectionNotKept() throws {
        let server = try ScriptedServer { connection in
            guard connection.readRequest() != nil else { return }
            connection.write("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nuntil the end")
        }
        defer { server.stop() }
        let forwarder = HTTPForwarder(threads: 1)
        defer { forwarder.stop() }
        XCTAssertEqual(try forward(forwarder, to: server.address).get().body, Array("until the end".utf8))
        XCTAssertEqual(try forward(forwarder, to: server.address).get().body, Array("until the end".utf8))
        XCTAssertEqual(server.accepted, 2)
    }

    /// A kept connection the server closed while idle is not used: the next request goes on
    /// a new one and is answered.
    func testAConnectionClosedWhileIdleIsReplaced() throws {
        let server = try ScriptedServer { connection in
            guard connection.readRequest() != nil else { return }
            connection.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
            // Then closes it, as a server does with an idle connection.
        }
        defer { server.stop() }
        let forwarder = HTTPForwarder(threads: 1)
        defer { forwarder.stop() }
        XCTAssertEqual(try forward(forwarder, to: server.address).get().status, 200)
        XCTAssertTrue(eventuallyTrue { server.closed == 1 })
        XCTAssertEqual(try forward(forwarder, to: server.address).get().status, 200)
        XCTAssertEqual(server.accepted, 2)
    }

    func testNoConnectionMeansNothingWasSent() throws {
        let server = try ScriptedServer { _ in }
        let address = server.address
        server.stop()
        let forwarder = HTTPForwarder(threads: 1)
        defer { forwarder.stop() }
        guard case .failure(.unreachable(let reason)) = try forward(forwarder, to: address) else { return XCTFail("not unreachable") }
        XCTAssertTrue(reason.contains("refused"), reason)
        guard case .failure(.unreachable) = try forward(forwarder, to: "https://example.test") else { return XCTFail("an https address") }
        guard case .failure(.unreachable) = try forward(forwarder, to: "http://127.0.0.1:1/path") else { return XCTFail("an address with a path") }
        XCTAssertFalse(HTTPForwarder.isAddress("http://user@127.0.0.1:80"))
        XCTAssertTrue(HTTPForwarder.isAddress("http://[::1]:8080"))
        XCTAssertTrue(HTTPForwarder.isAddress("http://replica-2:8080/"))
    }

    /// Read and then closed, or read and never answered: the server may have acted on it.
    func testARequestReadButNotAnsweredIsUnanswered() throws {
        let closing = try ScriptedServer { connection in _ = connection.readRequest() }
        defer { closing.stop() }
        let silent = try ScriptedServer { connection in
            _ = connection.readRequest()
            _ = connection.readRequest()  // waits until the forwarder gives up and closes
        }
        defer { silent.stop() }
        let half = try ScriptedServer { connection in
            guard connection.readRequest() != nil else { return }
            connection.write("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhalf")
        }
        defer { half.stop() }
        let forwarder = HTTPForwarder(threads: 1, timeoutSeconds: 0.5)
        defer { forwarder.stop() }
        guard case .failure(.unanswered) = try forward(forwarder, to: closing.address) else { return XCTFail("closed: not unanswered") }
        let started = DispatchTime.now()
        guard case .failure(.unanswered(let reason)) = try forward(forwarder, to: silent.address) else { return XCTFail("silent: not unanswered") }
        XCTAssertTrue(reason.contains("timeout"), reason)
        XCTAssertLessThan(Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9, 5)
        guard case .failure(.unanswered) = try forward(forwarder, to: half.address) else { return XCTFail("half a body: not unanswered") }
    }

    func testAnAnswerOverTheLimitIsRefused() throws {
        let server = try ScriptedServer { connection in
            guard connection.readRequest() != nil else { return }
            connection.write("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n" + String(repeating: "x", count: 100))
        }
        defer { server.stop() }
        let forwarder = HTTPForwarder(threads: 1, maxAnswerBytes: 64)
        defer { forwarder.stop() }
        guard case .failure(.unanswered(let reason)) = try forward(forwarder, to: server.address) else { return XCTFail("not refused") }
        XCTAssertTrue(reason.contains("over 64 bytes"), reason)
    }

    func eventuallyTrue(_ condition: () -> Bool) -> Bool {
        let deadline = DispatchTime.now() + 5
        while DispatchTime.now() < deadline {
            if condition() { return true }
            usleep(1000)  // polling a counter another thread sets; bounded by the deadline
        }
        return condition()
    }
}
