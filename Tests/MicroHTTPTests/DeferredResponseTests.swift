import Foundation
import MicroHTTP
import Synchronization
import TestHTTPClient
import TestSeeds
import XCTest

/// Answers given later from another thread (`DeferredResponse`): the connection waits
/// suspended, holding no server thread; each answer is sent once, to its own request; a
/// client gone meanwhile frees everything; stop and request deadlines still work.
final class DeferredResponseTests: XCTestCase {
    /// The deferred answers the handler made, by request path.
    final class Pending: Sendable {
        let byPath = Mutex<[String: DeferredResponse]>([:])
        var count: Int { byPath.withLock { $0.count } }
        func take(_ path: String) -> DeferredResponse? { byPath.withLock { $0[path] } }
    }

    /// One server thread: paths under `/later/` are answered later (with an `X-Step` header
    /// added by a `map` step); others are echoed at once.
    func makeServer(pending: Pending, limit: Int = 64, requestDeadline: Double = 60) throws -> HTTPServer {
        let server = HTTPServer(
            configuration: .init(host: "127.0.0.1", port: 0, threads: 1, maxBodyBytes: 1000, connectionTimeout: 30,
                                 connectionLimit: limit, requestDeadline: requestDeadline),
            handler: { request in
                guard request.path.hasPrefix("/later/") else { return HTTPServerTests.echo(request) }
                XCTAssertTrue(request.acceptsDeferredResponse, "a server's requests accept deferred answers")
                let deferred = DeferredResponse()
                pending.byPath.withLock { $0[request.path] = deferred }
                return HTTPResponse.deferred(deferred).mapped { response in
                    var response = response
                    response.headers.append((name: "X-Step", value: "mapped"))
                    return response
                }
            },
            errorResponder: HTTPServerTests.errorResponder
        )
        try server.start()
        return server
    }

    static func answer(_ text: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", "text/plain")], body: Array(text.utf8))
    }

    /// Sends a request without reading its answer.
    func ask(_ connection: TestHTTPConnection, _ path: String) throws {
        try connection.sendRaw(Array("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
    }

    func testAnAnswerCompletedFromAnotherThreadIsSentOnceAndKeepAliveGoesOn() throws {
        let pending = Pending()
        let server = try makeServer(pending: pending)
        defer { server.stop() }
        let connection = try TestHTTPConnection(port: server.port)
        try ask(connection, "/later/a")
        XCTAssertTrue(eventually { pending.take("/later/a")?.isSuspended == true }, "the connection waits suspended")
        // The only server thread is free meanwhile.
        XCTAssertEqual(try httpRequest(port: server.port, method: "GET", path: "/now").status, 200)
        let deferred = try XCTUnwrap(pending.take("/later/a"))
        let completed = DispatchSemaphore(value: 0)
        let results = Mutex<[Bool]>([])
        Thread {
            let first = deferred.complete(Self.answer("first"))
            let second = deferred.complete(Self.answer("second"))
            results.withLock { $0 = [first, second] }
            completed.signal()
        }.start()
        XCTAssertEqual(completed.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(results.withLock { $0 }, [true, false], "the first completion wins")
        let response = try connection.readResponse()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.bodyString, "first")
        XCTAssertEqual(response.header("X-Step"), "mapped", "the map step applied when sent")
        XCTAssertNil(response.header("Connection"), "kept alive")
        XCTAssertEqual(try connection.send(method: "GET", path: "/next").status, 200, "the connection serves the next request")
        XCTAssertTrue(eventually { server.pendingDeferredResponses == 0 && server.requestsInFlight == 0 })
    }

    func testAnAnswerCompletedBeforeTheHandlerReturnsIsSentAtOnce() throws {
        let server = HTTPServer(
            configuration: .init(host: "127.0.0.1", port: 0, threads: 1),
            handler: { _ in
                let deferred = DeferredResponse()
                deferred.complete(Self.answer("early"))
                return .deferred(deferred)
            },
            errorResponder: HTTPServerTests.errorResponder
        )
        try server.start()
        defer { server.stop() }
        let connection = try TestHTTPConnection(port: server.port)
        for _ in 0..<3 { XCTAssertEqual(try connection.send(method: "GET", path: "/x").bodyString, "early") }
    }

    func testAClientGoneBeforeTheAnswerFreesItsSlotAndTheLateAnswerIsANoOp() throws {
        let pending = Pending()
        let server = try makeServer(pending: pending, limit: 2)
        defer { server.stop() }
        for round in 0..<4 {
            let paths = ["/later/\(round)-0", "/later/\(round)-1"]
            let connections = try paths.map { path in
                let connection = try TestHTTPConnection(port: server.port)
                try ask(connection, path)
                return connection
            }
            XCTAssertTrue(eventually { server.pendingDeferredResponses == 2 }, "round \(round): both slots held by waiting answers")
            connections.forEach { $0.close() }
            XCTAssertTrue(eventually { server.pendingDeferredResponses == 0 && server.requestsInFlight == 0 && server.openConnections == 0 },
                          "round \(round): the hang-ups free every slot: \(server.pendingDeferredResponses) answers, \(server.openConnections) connections")
            for path in paths {
                let deferred = try XCTUnwrap(pending.take(path))
                XCTAssertTrue(deferred.isCancelled)
                XCTAssertFalse(deferred.complete(Self.answer("late")), "a completion after the client left does nothing")
            }
            XCTAssertEqual(try httpRequest(port: server.port, method: "GET", path: "/after").status, 200, "round \(round): a new client is served")
        }
    }

    func testStopWithAnswersPendingCancelsThemAndReturns() throws {
        let pending = Pending()
        let server = try makeServer(pending: pending)
        let connections = try (0..<5).map { i in
            let connection = try TestHTTPConnection(port: server.port)
            try ask(connection, "/later/\(i)")
            return connection
        }
        XCTAssertTrue(eventually { server.pendingDeferredResponses == 5 })
        let stopped = DispatchSemaphore(value: 0)
        Thread {
            server.stop(gracePeriod: 0.2)
            stopped.signal()
        }.start()
        XCTAssertEqual(stopped.wait(timeout: .now() + 20), .success, "stop returns with answers still pending")
        for (i, connection) in connections.enumerated() {
            XCTAssertTrue(connection.isClosedByServer(within: 5), "connection \(i) closed unanswered")
            let deferred = try XCTUnwrap(pending.take("/later/\(i)"))
            XCTAssertTrue(deferred.isCancelled)
            XCTAssertFalse(deferred.complete(Self.answer("late")), "completing after the stop does nothing")
        }
    }

    func testAnAnswerCompletedDuringTheStopsGracePeriodIsSentWithConnectionClose() throws {
        let pending = Pending()
        let server = try makeServer(pending: pending)
        let connection = try TestHTTPConnection(port: server.port)
        try ask(connection, "/later/x")
        XCTAssertTrue(eventually { server.pendingDeferredResponses == 1 })
        let stopped = DispatchSemaphore(value: 0)
        let port = server.port
        Thread {
            server.stop(gracePeriod: 30)
            stopped.signal()
        }.start()
        // The stop has begun once new connections are refused.
        XCTAssertTrue(eventually { (try? TestHTTPConnection(port: port, timeout: 1)) == nil })
        XCTAssertTrue(try XCTUnwrap(pending.take("/later/x")).complete(Self.answer("during")))
        let response = try connection.readResponse()
        XCTAssertEqual(response.bodyString, "during")
        XCTAssertEqual(response.header("Connection")?.lowercased(), "close")
        XCTAssertEqual(stopped.wait(timeout: .now() + 20), .success, "the stop ends once the answer is sent, before its grace period")
    }

    func testManyConcurrentAnswersEachReachTheirOwnRequest() throws {
        let pending = Pending()
        let server = try makeServer(pending: pending, limit: 128)
        defer { server.stop() }
        let clients = 64, rounds = 3
        let failures = Mutex<[String]>([])
        let seed = TestSeed.seed("DeferredResponseTests.testManyConcurrentAnswersEachReachTheirOwnRequest")
        var random = SeededRandom(seed)
        for round in 0..<rounds {
            let port = server.port
            let group = startThreads(clients) { i in
                do {
                    let response = try TestHTTPConnection(port: port).send(method: "GET", path: "/later/\(round)/\(i)")
                    if response.bodyString != "answer \(round)/\(i)" { failures.withLock { $0.append("\(i) got \(response.bodyString)") } }
                } catch {
                    failures.withLock { $0.append("\(i): \(error)") }
                }
            }
            // Every request waits at once, on one server thread.
            XCTAssertTrue(eventually(20) { server.pendingDeferredResponses == clients }, "round \(round): \(server.pendingDeferredResponses) waiting")
            var shuffled = Array(0..<clients)
            shuffled.shuffle(using: &random)
            let order = shuffled
            DispatchQueue.concurrentPerform(iterations: clients) { k in
                let i = order[k]
                pending.take("/later/\(round)/\(i)")?.complete(Self.answer("answer \(round)/\(i)"))
            }
            XCTAssertEqual(group.wait(timeout: .now() + 30), .success)
            XCTAssertEqual(failures.withLock { $0 }, [], "round \(round)")
        }
    }

    func testRequestDeadlinesStillHoldAroundADeferredAnswer() throws {
        let pending = Pending()
        let server = try makeServer(pending: pending, requestDeadline: 1)
        defer { server.stop() }
        let connection = try TestHTTPConnection(port: server.port)
        try ask(connection, "/later/slow")
        XCTAssertTrue(eventually { server.pendingDeferredResponses == 1 })
        // A connection that never sends its request is cut at the deadline: once it is, the
        // deadline has passed for the waiting answer too, which is not cut (its request is whole).
        let idle = try TestHTTPConnection(port: server.port)
        XCTAssertTrue(idle.isClosedByServer(within: 10), "the idle connection is cut at its deadline")
        XCTAssertTrue(try XCTUnwrap(pending.take("/later/slow")).complete(Self.answer("late but whole")))
        XCTAssertEqual(try connection.readResponse().bodyString, "late but whole")
        // The next request on the connection is timed again from the answer.
        try connection.sendRaw(Array("GET /next HTTP/1.1\r\n".utf8))
        XCTAssertTrue(connection.isClosedByServer(within: 10), "a request left unfinished after the answer is cut at its deadline")
    }
}
