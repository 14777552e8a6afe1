import Dispatch
import Foundation
import JSONCodec
import MicroHTTP
import ScrollStackService
import ScrollStackStore
import Synchronization
import TestHTTPClient
import XCTest

/// Durable writes answered later (Architecture.md, "Durable writes answered later"): a
/// write's connection waits suspended until its commit, holding no server thread; it is
/// answered only once durable, with the very bytes a waiting thread would have sent, and a
/// failed commit answers 503.
final class DeferredWriteTests: XCTestCase {
    /// `POST /v1/stacks/s/rows` inserting one row, as raw bytes.
    static func insert(_ id: String, headers: String = "") -> [UInt8] {
        let body = object(("rows", [row(id)])).serialized()
        return Array("POST /v1/stacks/s/rows HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\(headers)Content-Length: \(body.count)\r\n\r\n".utf8) + body
    }

    /// A service over a journal whose commits the test holds, with the stack `s` created.
    func heldService() throws -> (HeldJournal, StackService) {
        let held = try HeldJournal()
        let service = StackService(journal: StackJournal(backend: held))
        let create = HTTPRequest(method: "POST", path: "/v1/stacks", headers: [("Content-Type", "application/json")],
                                 body: object(("id", "s")).serialized())
        XCTAssertEqual(service.handle(create).status, 201)
        return (held, service)
    }

    func testADurableWriteIsAnsweredOnlyOnceCommittedAndHoldsNoServerThread() throws {
        let (held, service) = try heldService()
        let server = try ServerHarness(service: service, threads: 1)
        defer { server.stop() }
        let connections = try (0..<4).map { i in
            let connection = try TestHTTPConnection(port: server.port)
            try connection.sendRaw(Self.insert("r\(i)"))
            return connection
        }
        XCTAssertTrue(held.waitUntilHeld(4), "the four writes are applied and queued")
        XCTAssertTrue(eventually { server.server.pendingDeferredResponses == 4 }, "each waits for its commit suspended")
        // The one server thread is free meanwhile.
        XCTAssertEqual(try server.request("GET", "/healthz").status, 200)
        XCTAssertEqual(held.waiting.count, 4, "nothing committed yet")
        for (i, connection) in connections.enumerated() {
            XCTAssertFalse(connection.isReadable(within: 0.05), "write \(i) is not answered before its commit")
        }
        held.release(4, failing: false)
        let answers = try connections.map { try $0.readResponse() }
        XCTAssertEqual(answers.map(\.status), [200, 200, 200, 200])
        XCTAssertEqual(Set(answers.compactMap { $0.header("ETag") }), Set((2...5).map { "\"\($0)\"" }))
        XCTAssertEqual(try connections[0].send(method: "GET", path: "/v1/stacks/s").header("ETag"), "\"5\"", "keep-alive goes on")
        XCTAssertTrue(eventually { server.server.pendingDeferredResponses == 0 })
    }

    func testAFailedCommitAnswers503WithTheBytesAWaitingThreadSends() throws {
        let (held, service) = try heldService()
        let server = try ServerHarness(service: service, threads: 1)
        defer { server.stop() }
        let connection = try TestHTTPConnection(port: server.port)
        try connection.sendRaw(Self.insert("lost"))
        XCTAssertTrue(held.waitUntilHeld(1))
        XCTAssertTrue(eventually { server.server.pendingDeferredResponses == 1 })
        held.release(1, failing: true)
        let deferred = try connection.readResponse()

        // The same write, answered by a thread that waits (a request made in code).
        let waited = Mutex<HTTPResponse?>(nil)
        let group = startThreads(1) { _ in
            let body = object(("rows", [row("lost")])).serialized()
            let response = service.handle(HTTPRequest(method: "POST", path: "/v1/stacks/s/rows",
                                                      headers: [("Content-Type", "application/json")], body: body))
            waited.withLock { $0 = response }
        }
        XCTAssertTrue(held.waitUntilHeld(1))
        held.release(1, failing: true)
        XCTAssertEqual(group.wait(timeout: .now() + 30), .success)
        let expected = try XCTUnwrap(waited.withLock { $0 })
        XCTAssertEqual(deferred.status, 503)
        XCTAssertEqual(deferred.status, expected.status)
        XCTAssertEqual(deferred.bodyString, String(decoding: expected.body, as: UTF8.self))
        XCTAssertEqual(deferred.header("Retry-After"), expected.header("Retry-After"))
        let after = try connection.send(method: "GET", path: "/v1/stacks/s")
        XCTAssertEqual(after.header("ETag"), "\"1\"", "nothing of the failed write is kept, and the connection goes on")
    }

    /// A 412 judged on a state whose write then fails is tried again on the journal's state,
    /// as a waiting thread would (the conflict path handles the request again).
    func testAnErrorJudgedOnALostStateIsTriedAgain() throws {
        let (held, service) = try heldService()
        let server = try ServerHarness(service: service, threads: 1)
        defer { server.stop() }
        let first = try TestHTTPConnection(port: server.port)
        try first.sendRaw(Self.insert("lost"))
        XCTAssertTrue(held.waitUntilHeld(1))
        let second = try TestHTTPConnection(port: server.port)
        try second.sendRaw(Self.insert("kept", headers: "If-Match: \"1\"\r\n"))
        XCTAssertTrue(eventually { server.server.pendingDeferredResponses == 2 }, "the 412 waits for the write it was judged on")
        held.release(1, failing: true)
        XCTAssertEqual(try first.readResponse().status, 503)
        // Tried again on revision 1: If-Match holds, so it is applied and queued.
        XCTAssertTrue(held.waitUntilHeld(1))
        XCTAssertFalse(second.isReadable(within: 0.05), "not answered before its own commit")
        held.release(1, failing: false)
        let answer = try second.readResponse()
        XCTAssertEqual(answer.status, 200, answer.bodyString)
        XCTAssertEqual(answer.header("ETag"), "\"2\"")
    }

    /// The same requests through a deferring server and through one whose writes are done at
    /// once (an in-memory journal's, answered now): every answer is the same, byte for byte
    /// (the `Date` field aside), CORS headers and compression included.
    func testAnswersAreThoseOfAServerThatAnswersNow() throws {
        let held = try HeldJournal()
        let deferring = try ServerHarness(service: StackService(journal: StackJournal(backend: held)), metrics: true)
        defer { deferring.stop() }
        // Each commit is released only once its answer is deferred: every accepted mutation
        // is then answered later, however fast a commit would have been.
        let stop = Atomic<Bool>(false)
        let releaser = DispatchGroup(), server = deferring.server
        DispatchQueue.global().async(group: releaser) {
            while !stop.load(ordering: .relaxed) {
                if !held.waiting.isEmpty && server.pendingDeferredResponses > 0 { held.release(1, failing: false) } else { sched_yield() }
            }
        }
        defer {
            stop.store(true, ordering: .relaxed)
            XCTAssertEqual(releaser.wait(timeout: .now() + 30), .success, "the releaser stopped")
        }
        let immediate = try ServerHarness(service: StackService(journal: StackJournal(backend: MemoryJournal())), metrics: true)
        defer { immediate.stop() }
        let rows = (0..<30).map { row("r\($0)") }
        let edge: [(String, String)] = [("Origin", "https://example.com"), ("Accept-Encoding", "gzip"), ("Content-Type", "application/json")]
        let script: [(String, String, JSON?, [(String, String)])] = [
            ("POST", "/v1/stacks", object(("id", "s"), ("viewport", object(("width", 375), ("height", 667))), ("rows", .array(rows))), []),
            ("POST", "/v1/stacks/s/rows", object(("at", "top"), ("rows", [row("n1")])), []),
            ("POST", "/v1/stacks/s/rows", object(("rows", [row("n2")]), ("animation", true)), []),
            ("PATCH", "/v1/stacks/s/rows/r3", object(("hidden", true)), []),
            ("POST", "/v1/stacks/s/rows/r5/move", object(("to", 0)), []),
            ("POST", "/v1/stacks/s/rows", object(("rows", [row("n3")])), [("If-Match", "\"1\"")]),
            ("DELETE", "/v1/stacks/s/rows/nope", nil, []),
            ("POST", "/v1/stacks/s/rows", object(("rows", [object(("id", "bad"))])), []),
            ("DELETE", "/v1/stacks/s/rows/r7", nil, []),
            ("POST", "/v1/stacks/s/scroll", object(("row", "r20")), []),
            ("POST", "/v1/stacks/s/revert", object(("to", 3)), []),
            ("GET", "/v1/stacks/s/layout", nil, []),
        ]
        let a = try TestHTTPConnection(port: deferring.port), b = try TestHTTPConnection(port: immediate.port)
        for (method, path, body, headers) in script {
            let x = try a.send(method: method, path: path, headers: edge + headers, body: body?.serialized())
            let y = try b.send(method: method, path: path, headers: edge + headers, body: body?.serialized())
            let label = "\(method) \(path)"
            XCTAssertEqual(x.status, y.status, label)
            XCTAssertEqual(x.headers.filter { $0.0.lowercased() != "date" }.map { "\($0.0): \($0.1)" },
                           y.headers.filter { $0.0.lowercased() != "date" }.map { "\($0.0): \($0.1)" }, label)
            XCTAssertEqual(x.body, y.body, label)
        }
        XCTAssertEqual(try a.send(method: "GET", path: "/v1/stacks/s").header("ETag"), "\"8\"")
        // The 7 accepted mutations after the creation cannot be answered before their commit
        // is released (the refused ones may take the same path).
        XCTAssertGreaterThanOrEqual(deferring.server.deferredResponsesSent, 7, "the accepted mutations were answered later")
        XCTAssertEqual(immediate.server.deferredResponsesSent, 0)
        let metrics = try a.send(method: "GET", path: "/metrics").bodyString
        XCTAssertTrue(metrics.contains("route=\"/v1/stacks/{stack}/rows\""), "deferred answers are counted under their route")
    }
}
