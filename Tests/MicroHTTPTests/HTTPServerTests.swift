import Dispatch
@testable import MicroHTTP
import Synchronization
import TestHTTPClient
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// Remembers what the handler and the observer saw.
final class Recorder: Sendable {
    let requests = Mutex<[HTTPRequest]>([])
    let observed = Mutex<[(method: String, path: String, status: Int, microseconds: Int)]>([])
    /// Signalled once per observation, after it is recorded.
    let observation = DispatchSemaphore(value: 0)

    var last: HTTPRequest? { requests.withLock { $0.last } }
    var count: Int { requests.withLock { $0.count } }
}

final class HTTPServerTests: XCTestCase {
    /// Echoes the request as text: method, decoded path, query, a header, body length.
    /// `/teapot` answers 418.
    static func echo(_ request: HTTPRequest) -> HTTPResponse {
        let query = request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        let text = "\(request.method) \(request.path) ?\(query) x=\(request.header("X-Test") ?? "-") body=\(request.body.count)"
        return HTTPResponse(status: request.path == "/teapot" ? 418 : 200,
                            headers: [("Content-Type", "text/plain"), ("X-Echo", "1")], body: Array(text.utf8))
    }

    static func errorResponder(_ request: HTTPRequest, _ error: HTTPError) -> HTTPResponse {
        HTTPResponse(status: error.status, headers: [("Content-Type", "text/plain")], body: Array("\(error.code): \(error.message)".utf8))
    }

    func makeServer(maxBodyBytes: Int = 1000, timeout: Int = 30, threads: Int = 2, limit: Int = 64, host: String = "127.0.0.1",
                    recorder: Recorder? = nil,
                    handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse = HTTPServerTests.echo) throws -> HTTPServer {
        let server = HTTPServer(
            configuration: .init(host: host, port: 0, threads: threads, maxBodyBytes: maxBodyBytes, connectionTimeout: timeout, connectionLimit: limit),
            handler: { request in
                recorder?.requests.withLock { $0.append(request) }
                return handler(request)
            },
            errorResponder: Self.errorResponder
        )
        server.requestObserver = { request, response, microseconds in
            recorder?.observed.withLock { $0.append((request.method, request.path, response.status, microseconds)) }
            recorder?.observation.signal()
        }
        try server.start()
        XCTAssertGreaterThan(server.port, 0, "port 0 was replaced by the bound port")
        return server
    }

    func monotonicNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    func seconds(since start: UInt64) -> Double { Double(monotonicNanoseconds() - start) / 1e9 }

    // MARK: Requests and responses

    func testEachMethodRoundTripsWithDecodedPathQueryHeadersAndBody() throws {
        let recorder = Recorder()
        let server = try makeServer(recorder: recorder)
        defer { server.stop() }
        for method in ["GET", "POST", "PUT", "PATCH", "DELETE"] {
            let body: [UInt8]? = method == "GET" ? nil : Array("hello \(method)".utf8)
            let response = try httpRequest(port: server.port, method: method, path: "/a%20b/c%C3%A9?a=1&b=x%20y&flag&c=p+q",
                                           headers: [("X-Test", "yes"), ("x-multi", "1"), ("X-Multi", "2")], body: body)
            XCTAssertEqual(response.status, 200)
            XCTAssertEqual(response.header("X-ECHO"), "1")
            XCTAssertEqual(response.header("content-type"), "text/plain")
            XCTAssertEqual(response.bodyString, "\(method) /a b/cé ?a=1&b=x y&flag=&c=p q x=yes body=\(body?.count ?? 0)")

            let request = try XCTUnwrap(recorder.last)
            XCTAssertEqual(request.method, method)
            XCTAssertEqual(request.path, "/a b/cé")
            XCTAssertEqual(request.rawPath, "/a%20b/c%C3%A9")
            XCTAssertEqual(request.query.map(\.name), ["a", "b", "flag", "c"])
            XCTAssertEqual(request.query.map(\.value), ["1", "x y", "", "p q"])
            XCTAssertEqual(request.queryValue("b"), "x y")
            XCTAssertEqual(request.queryValue("flag"), "", "a parameter without = has the value \"\"")
            XCTAssertNil(request.queryValue("missing"))
            XCTAssertEqual(request.header("x-test"), "yes")
            XCTAssertEqual(request.header("X-TEST"), "yes", "header lookup is case-insensitive")
            XCTAssertEqual(request.header("x-multi"), "1", "the first of repeated fields")
            XCTAssertEqual(request.headers.filter { $0.name == "x-multi" }.map(\.value), ["1", "2"])
            XCTAssertTrue(request.headers.allSatisfy { $0.name == $0.name.lowercased() }, "names are lower case")
            XCTAssertEqual(request.header("host"), "127.0.0.1")
            XCTAssertEqual(request.body, body ?? [])
        }
        XCTAssertEqual(try httpRequest(port: server.port, method: "GET", path: "/teapot").status, 418)
        let plain = try httpRequest(port: server.port, method: "GET", path: "/plain")
        XCTAssertEqual(recorder.last?.rawPath, "/plain")
        XCTAssertEqual(recorder.last?.query.count, 0)
        XCTAssertEqual(plain.bodyString, "GET /plain ? x=- body=0")
    }

    func testPercentZeroZeroIsNeverDecoded() throws {
        let recorder = Recorder()
        let server = try makeServer(recorder: recorder)
        defer { server.stop() }
        let connection = try TestHTTPConnection(port: server.port)
        defer { connection.close() }
        let refused = try connection.send(method: "DELETE", path: "/stacks/victim%00/rows/x", body: Array("body".utf8))
        XCTAssertEqual(refused.status, 400, "a decoded NUL would cut the path short")
        XCTAssertEqual(refused.bodyString, "bad_request: the path holds %00, an encoded NUL, which no path segment may hold")
        XCTAssertNil(refused.header("connection"), "the request was read whole: the connection stays open")
        XCTAssertEqual(recorder.count, 0, "the handler never runs")
        _ = try connection.send(method: "GET", path: "/stacks/x?k=a%00b&%2541=%41")
        let request = try XCTUnwrap(recorder.last)
        XCTAssertEqual(request.query.map(\.value), ["a%00b", "A"], "in the query, %00 stays as it is")
        XCTAssertEqual(request.query.map(\.name), ["k", "%41"], "decoded once")
    }

    func testResponseStatusHeadersAndEmptyBodies() throws {
        let server = try makeServer { request in
            switch request.path {
            case "/created": return HTTPResponse(status: 201, headers: [("Location", "/x/1"), ("X-A", "1"), ("X-B", "2")], body: [0, 1, 2, 255])
            case "/none": return HTTPResponse(status: 204)
            default: return HTTPResponse(status: 404, body: Array("nope".utf8))
            }
        }
        defer { server.stop() }
        let connection = try TestHTTPConnection(port: server.port)
        let created = try connection.send(method: "POST", path: "/created", body: [])
        XCTAssertEqual(created.status, 201)
        XCTAssertEqual(created.header("location"), "/x/1")
        XCTAssertEqual(created.headers.filter { $0.0.hasPrefix("x-") }.map(\.0), ["x-a", "x-b"], "in order")
        XCTAssertEqual(created.body, [0, 1, 2, 255], "bytes as they are")
        XCTAssertEqual(created.header("content-length"), "4", "set by libmicrohttpd")
        XCTAssertEqual(try connection.send(method: "GET", path: "/none").status, 204)
        let missing = try connection.send(method: "GET", path: "/missing")
        XCTAssertEqual(missing.status, 404)
        XCTAssertEqual(missing.bodyString, "nope")
        let head = try connection.send(method: "HEAD", path: "/missing")
        XCTAssertEqual(head.header("content-length"), "4")
        XCTAssertEqual(head.body, [], "HEAD: no body sent")
        XCTAssertEqual(try connection.send(method: "GET", path: "/missing").bodyString, "nope", "still in step after HEAD")
    }

    func testKeepAliveServesManyRequestsOnOneConnection() throws {
        let recorder = Recorder()
        let server = try makeServer(recorder: recorder)
        defer { server.stop() }
        let connection = try TestHTTPConnection(port: server.port)
        defer { connection.close() }
        for i in 0..<100 {
            let method = ["GET", "POST", "PUT", "PATCH", "DELETE"][i % 5]
            let body: [UInt8]? = method == "GET" ? nil : Array("\(i)".utf8)
            let response = try connection.send(method: method, path: "/n\(i)?i=\(i)", body: body)
            XCTAssertEqual(response.status, 200)
            XCTAssertEqual(response.bodyString, "\(method) /n\(i) ?i=\(i) x=- body=\(body?.count ?? 0)")
            XCTAssertNil(response.header("connection"), "the connection stays open")
        }
        XCTAssertEqual(recorder.count, 100)
        XCTAssertFalse(connection.isClosedByServer(within: 0.05))
    }

    func testRequestObserverSeesEveryResponse() throws {
        let recorder = Recorder()
        let server = try makeServer(maxBodyBytes: 10, recorder: recorder)
        defer { server.stop() }
        _ = try httpRequest(port: server.port, method: "GET", path: "/teapot")
        _ = try httpRequest(port: server.port, method: "POST", path: "/big", body: [UInt8](repeating: 1, count: 11))
        let observed = recorder.observed.withLock { $0 }
        XCTAssertEqual(observed.map(\.method), ["GET", "POST"])
        XCTAssertEqual(observed.map(\.path), ["/teapot", "/big"])
        XCTAssertEqual(observed.map(\.status), [418, 413])
        XCTAssertTrue(observed.allSatisfy { $0.microseconds >= 0 && $0.microseconds < 5_000_000 })
    }

    // MARK: Body limit

    func testBodyExactlyAtTheLimitIsAcceptedAndOneByteMoreIsRefused() throws {
        let recorder = Recorder()
        let server = try makeServer(maxBodyBytes: 1000, recorder: recorder)
        defer { server.stop() }
        let ok = try httpRequest(port: server.port, method: "POST", path: "/", body: [UInt8](repeating: 65, count: 1000))
        XCTAssertEqual(ok.status, 200)
        XCTAssertEqual(ok.bodyString, "POST / ? x=- body=1000")
        XCTAssertEqual(recorder.last?.body.count, 1000)

        let connection = try TestHTTPConnection(port: server.port)
        defer { connection.close() }
        let over = try connection.send(method: "POST", path: "/over", body: [UInt8](repeating: 65, count: 1001))
        XCTAssertEqual(over.status, 413)
        XCTAssertEqual(over.bodyString, "payload_too_large: the body is larger than the limit of 1000 bytes", "from the error responder")
        XCTAssertEqual(over.header("connection")?.lowercased(), "close")
        XCTAssertTrue(connection.isClosedByServer(within: 2), "the connection is closed after the 413")
        XCTAssertEqual(recorder.count, 1, "the handler never saw the refused request")
    }

    func testDeclaredContentLengthOverTheLimitIsRefusedBeforeTheBodyIsSent() throws {
        let server = try makeServer(maxBodyBytes: 1000)
        defer { server.stop() }
        let connection = try TestHTTPConnection(port: server.port)
        defer { connection.close() }
        try connection.sendRaw(Array("POST /big HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999\r\n\r\n".utf8))
        let response = try connection.readResponse()
        XCTAssertEqual(response.status, 413)
        XCTAssertTrue(response.bodyString.hasPrefix("payload_too_large"))
        XCTAssertEqual(response.header("connection")?.lowercased(), "close")
        XCTAssertTrue(connection.isClosedByServer(within: 2))

        // With `Expect: 100-continue` the client is told no before it sends anything (no 100).
        let expecting = try TestHTTPConnection(port: server.port)
        defer { expecting.close() }
        try expecting.sendRaw(Array("PUT /big HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 1001\r\n\r\n".utf8))
        XCTAssertEqual(try expecting.readHead().status, 413)
    }

    func testChunkedBodiesAreLimitedToo() throws {
        let recorder = Recorder()
        let server = try makeServer(maxBodyBytes: 1000, recorder: recorder)
        defer { server.stop() }
        func chunked(_ sizes: [Int]) -> [UInt8] {
            var bytes = Array("POST /chunked HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
            for size in sizes {
                bytes += Array("\(String(size, radix: 16))\r\n".utf8) + [UInt8](repeating: 66, count: size) + Array("\r\n".utf8)
            }
            return bytes + Array("0\r\n\r\n".utf8)
        }
        let connection = try TestHTTPConnection(port: server.port)
        defer { connection.close() }
        try connection.sendRaw(chunked([600, 400]))
        XCTAssertEqual(try connection.readResponse().bodyString, "POST /chunked ? x=- body=1000", "exactly the limit")
        try connection.sendRaw(chunked([600, 401]))
        let over = try connection.readResponse()
        XCTAssertEqual(over.status, 413)
        XCTAssertEqual(over.header("connection")?.lowercased(), "close")
        XCTAssertTrue(connection.isClosedByServer(within: 2))
        XCTAssertEqual(recorder.count, 1)

        // Far over (more than twice the limit): answered, and closed without reading it all.
        let flood = try TestHTTPConnection(port: server.port)
        defer { flood.close() }
        try? flood.sendRaw(chunked(Array(repeating: 500, count: 10)))
        XCTAssertEqual(try flood.readResponse().status, 413)
        XCTAssertEqual(try httpRequest(port: server.port, method: "GET", path: "/").status, 200)
        XCTAssertTrue(eventually { server.requestsInFlight == 0 })
    }

    /// Regression: a chunked body over the limit was answered only once it ended, so a client
    /// that waits for an answer before sending more (or sends slowly) waited for the timeout.
    func testAChunkedBodyOverTheLimitIsAnsweredAtOnce() throws {
        let recorder = Recorder()
        let server = try makeServer(maxBodyBytes: 1000, timeout: 30, recorder: recorder)
        defer { server.stop() }
        let connection = try TestHTTPConnection(port: server.port, timeout: 5)
        defer { connection.close() }
        let start = monotonicNanoseconds()
        var bytes = Array("POST /chunked HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        bytes += Array("5dc\r\n".utf8) + [UInt8](repeating: 66, count: 1500) + Array("\r\n".utf8)
        try connection.sendRaw(bytes)  // and no last chunk: the body is still open
        let response = try connection.readResponse()
        XCTAssertEqual(response.status, 413)
        XCTAssertEqual(response.bodyString, "payload_too_large: the body is larger than the limit of 1000 bytes")
        XCTAssertEqual(response.header("connection")?.lowercased(), "close")
        XCTAssertNotNil(response.header("date"))
        XCTAssertTrue(connection.isClosedByServer(within: 3), "the answer is complete: the server's side is shut")
        XCTAssertLessThan(seconds(since: start), 10, "answered long before the 30 s timeout")
        XCTAssertEqual(recorder.count, 0, "the handler never ran")
        XCTAssertEqual(recorder.observation.wait(timeout: .now() + 10), .success, "the observer was told")
        XCTAssertEqual(recorder.observed.withLock { $0.map(\.status) }, [413], "the observer saw the 413")
        connection.close()
        XCTAssertTrue(eventually { server.requestsInFlight == 0 }, "the rest of the body is not waited for once the client leaves")
    }

    // MARK: Connections

    func testStalledClientIsClosedByTheTimeoutAndItsSlotFreed() throws {
        // One thread, one connection: while the stalled client holds the only slot, nobody
        // else is served.
        let server = try makeServer(timeout: 1, threads: 1, limit: 1)
        defer { server.stop() }
        let stalled = try TestHTTPConnection(port: server.port)
        defer { stalled.close() }
        let start = monotonicNanoseconds()
        try stalled.sendRaw(Array("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\nabc".utf8))
        XCTAssertTrue(eventually { server.requestsInFlight == 1 }, "the stalled request holds the slot")
        let waiting = try TestHTTPConnection(port: server.port)
        defer { waiting.close() }
        let response = try waiting.send(method: "GET", path: "/waited")
        XCTAssertEqual(response.status, 200, "served once the stalled connection is gone")
        XCTAssertGreaterThan(seconds(since: start), 0.8, "not before the stalled connection timed out")
        XCTAssertTrue(stalled.isClosedByServer(within: 3))
        XCTAssertLessThan(seconds(since: start), 10, "closed within seconds, not at the 30 s default")
        XCTAssertThrowsError(try stalled.readResponse(), "closed without an answer")
        waiting.close()  // (kept alive, it holds the only slot)
        XCTAssertEqual(try httpRequest(port: server.port, method: "GET", path: "/").status, 200)
        XCTAssertTrue(eventually { server.requestsInFlight == 0 })
    }

    func testAbandonedAndMalformedRequestsReleaseTheirState() throws {
        let server = try makeServer()
        defer { server.stop() }
        // A malformed header line: libmicrohttpd answers 400 itself; the handler never runs.
        let malformed = try TestHTTPConnection(port: server.port)
        try malformed.sendRaw(Array("GET /x HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n".utf8))
        XCTAssertEqual(try malformed.readResponse().status, 400)
        malformed.close()
        // Gone after the request line, and gone in the middle of a body.
        let lineOnly = try TestHTTPConnection(port: server.port)
        try lineOnly.sendRaw(Array("GET /x HTTP/1.1\r\nHost: x\r\n".utf8))
        let halfBody = try TestHTTPConnection(port: server.port)
        try halfBody.sendRaw(Array("POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc".utf8))
        XCTAssertTrue(eventually { server.requestsInFlight > 0 })
        lineOnly.close()
        halfBody.close()
        XCTAssertTrue(eventually { server.requestsInFlight == 0 }, "\(server.requestsInFlight) requests still held")
    }

    /// Regression: with epoll, libmicrohttpd 0.9.75 froze (until connections timed out) when
    /// 128 or more connections were ready at once on a thread at its connection limit.
    func testABusyServerAtItsConnectionLimitKeepsAnswering() throws {
        let server = try makeServer(threads: 1, limit: 128) { _ in HTTPResponse(status: 200, body: Array("ok".utf8)) }
        defer { server.stop() }
        let port = server.port
        let served = Atomic<Int>(0)
        let failed = Atomic<Int>(0)
        let deadline = Date().addingTimeInterval(0.5)
        let clients = startThreads(136) { _ in
            // 10 s: far beyond the half second the clients over the limit wait in the backlog,
            // far below the 30 s the freeze lasted.
            guard let connection = try? TestHTTPConnection(port: port, timeout: 10) else {
                failed.add(1, ordering: .relaxed)
                return
            }
            defer { connection.close() }
            while Date() < deadline {
                guard (try? connection.send(method: "GET", path: "/"))?.bodyString == "ok" else {
                    failed.add(1, ordering: .relaxed)
                    return
                }
                served.add(1, ordering: .relaxed)
            }
        }
        XCTAssertEqual(clients.wait(timeout: .now() + 60), .success, "every client finished")
        XCTAssertEqual(failed.load(ordering: .relaxed), 0, "no client waited 10 s for an answer")
        // (Not a speed test: every client answered, none waited 10 s.)
        XCTAssertGreaterThanOrEqual(served.load(ordering: .relaxed), 136, "every client was answered")
        XCTAssertEqual(try httpRequest(port: port, method: "GET", path: "/").status, 200)
    }

    func testConcurrentClients() throws {
        let server = try makeServer()
        defer { server.stop() }
        let failures = Atomic<Int>(0)
        let answered = Atomic<Int>(0)
        let port = server.port
        let threads = startThreads(8) { t in
            guard let connection = try? TestHTTPConnection(port: port) else {
                failures.add(1, ordering: .relaxed)
                return
            }
            for i in 0..<200 {
                let response = try? connection.send(method: "POST", path: "/t\(t)/\(i)", body: Array("\(i)".utf8))
                if response?.bodyString == "POST /t\(t)/\(i) ? x=- body=\(String(i).count)" {
                    answered.add(1, ordering: .relaxed)
                } else {
                    failures.add(1, ordering: .relaxed)
                }
            }
            connection.close()
        }
        XCTAssertEqual(threads.wait(timeout: .now() + 30), .success, "every client finished")
        XCTAssertEqual(failures.load(ordering: .relaxed), 0)
        XCTAssertEqual(answered.load(ordering: .relaxed), 1600)
    }

    func testIPv6Loopback() throws {
        let server = try makeServer(host: "::1")
        defer { server.stop() }
        let connection = try TestHTTPConnection(port: server.port, host: "::1")
        defer { connection.close() }
        XCTAssertEqual(try connection.send(method: "GET", path: "/six").bodyString, "GET /six ? x=- body=0")
    }

    func testStartFailuresAreDescriptive() throws {
        let server = try makeServer()
        defer { server.stop() }
        let second = HTTPServer(configuration: .init(port: server.port), handler: Self.echo, errorResponder: Self.errorResponder)
        XCTAssertThrowsError(try second.start()) { error in
            XCTAssertTrue("\(error)".contains("cannot bind 127.0.0.1:\(server.port)"), "\(error)")
            XCTAssertTrue("\(error)".contains("in use"), "\(error)")
        }
        let badHost = HTTPServer(configuration: .init(host: "localhost", port: 0), handler: Self.echo, errorResponder: Self.errorResponder)
        XCTAssertThrowsError(try badHost.start()) { XCTAssertTrue("\($0)".contains("not an IPv4 or IPv6 address"), "\($0)") }
        let badPort = HTTPServer(configuration: .init(port: 70000), handler: Self.echo, errorResponder: Self.errorResponder)
        XCTAssertThrowsError(try badPort.start())
        XCTAssertThrowsError(try server.start(), "a server starts once")
        XCTAssertEqual(try httpRequest(port: server.port, method: "GET", path: "/").status, 200, "still serving")
    }

    // MARK: Stopping

    func testStopLetsRequestsInFlightFinishThenRefuses() throws {
        // `/slow` holds its thread until the test releases it (10 s at most).
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let server = try makeServer { request in
            if request.path == "/slow" {
                entered.signal()
                _ = release.wait(timeout: .now() + 10)
            }
            return Self.echo(request)
        }
        let port = server.port
        let slow = Mutex<Result<TestHTTPResponse, any Error>?>(nil)
        let request = startThreads(1) { _ in
            let result = Result { try httpRequest(port: port, method: "GET", path: "/slow") }
            slow.withLock { $0 = result }
        }
        XCTAssertEqual(entered.wait(timeout: .now() + 5), .success, "the handler holds /slow now")
        // Opened only now, so that the other worker thread accepts it: the one holding /slow
        // is not polling. (Opened first, it could share that thread and wait behind /slow.)
        let idle = try TestHTTPConnection(port: port)
        defer { idle.close() }
        XCTAssertEqual(try idle.send(method: "GET", path: "/first").status, 200)
        let stopped = Atomic<Bool>(false)
        let stopper = startThreads(1) { _ in
            server.stop()
            stopped.store(true, ordering: .sequentiallyConsistent)
        }
        // Stopping has begun once new connections are refused (no event says so: polled).
        XCTAssertTrue(eventually { (try? TestHTTPConnection(port: port)) == nil }, "stop() quiesces the listening socket")
        // While stopping: a kept-alive connection is still answered, and told to close.
        let late = try idle.send(method: "GET", path: "/late")
        XCTAssertEqual(late.status, 200)
        XCTAssertEqual(late.header("connection")?.lowercased(), "close")

        XCTAssertFalse(stopped.load(ordering: .sequentiallyConsistent), "stop waits for the request in flight")
        let released = monotonicNanoseconds()
        release.signal()
        XCTAssertEqual(stopper.wait(timeout: .now() + 5), .success, "stop returns once the request is answered")
        XCTAssertLessThan(seconds(since: released), 5, "and no longer (the grace period is 10 s)")
        XCTAssertEqual(request.wait(timeout: .now() + 5), .success)
        let response = try XCTUnwrap(slow.withLock { $0 }).get()
        XCTAssertEqual(response.status, 200, "the request in flight got its answer")
        XCTAssertEqual(response.bodyString, "GET /slow ? x=- body=0")

        XCTAssertThrowsError(try TestHTTPConnection(port: port), "new connections are refused") { error in
            XCTAssertTrue("\(error)".contains("refused"), "\(error)")
        }
        XCTAssertTrue(idle.isClosedByServer(within: 1))
        let again = monotonicNanoseconds()
        server.stop()  // idempotent
        server.stop(gracePeriod: 0)
        XCTAssertLessThan(seconds(since: again), 5, "nothing left to wait for (the grace period is 10 s)")
    }

    func testStopBeforeStartAndWithNothingInFlight() throws {
        let never = HTTPServer(configuration: .init(port: 0), handler: Self.echo, errorResponder: Self.errorResponder)
        never.stop()
        XCTAssertEqual(never.port, 0)
        let server = try makeServer()
        let idle = try TestHTTPConnection(port: server.port)
        defer { idle.close() }
        XCTAssertEqual(try idle.send(method: "GET", path: "/").status, 200)
        let start = monotonicNanoseconds()
        server.stop()
        XCTAssertLessThan(seconds(since: start), 5, "an idle keep-alive connection does not hold up stop for the 10 s grace period")
        XCTAssertTrue(idle.isClosedByServer(within: 1))
    }

    // MARK: Streams

    func testStreamedResponseIsSentChunkedAsWritten() throws {
        let stream = HTTPStream()
        let closed = DispatchSemaphore(value: 0)
        stream.onClose { closed.signal() }
        let server = try makeServer { request in
            request.path == "/stream"
                ? HTTPResponse(status: 200, headers: [("Content-Type", "text/event-stream")], stream: stream)
                : HTTPServerTests.echo(request)
        }
        defer { server.stop() }
        let connection = try TestHTTPConnection(port: server.port)
        defer { connection.close() }
        try connection.sendRaw(Array("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        let head = try connection.readHead()
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.headers.first { $0.0 == "transfer-encoding" }?.1, "chunked")
        stream.write(Array("one\n".utf8))
        XCTAssertEqual(try connection.readChunk().map { String(decoding: $0, as: UTF8.self) }, "one\n")
        // (The suspension is no event: polled.)
        XCTAssertTrue(eventually { stream.isSuspended }, "nothing to send: the connection is suspended; a write resumes it")
        stream.write(Array("two\n".utf8))
        XCTAssertEqual(try connection.readChunk().map { String(decoding: $0, as: UTF8.self) }, "two\n")
        stream.close()
        XCTAssertNil(try connection.readChunk(), "the last chunk")
        XCTAssertEqual(closed.wait(timeout: .now() + 5), .success, "the stream was told it closed")
        XCTAssertEqual(try connection.send(method: "GET", path: "/after").status, 200, "the connection is reusable")
    }

    func testStopEndsOpenStreams() throws {
        let stream = HTTPStream()
        let server = try makeServer { _ in HTTPResponse(status: 200, stream: stream) }
        let connection = try TestHTTPConnection(port: server.port)
        defer { connection.close() }
        try connection.sendRaw(Array("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        XCTAssertEqual(try connection.readHead().status, 200)
        stream.write(Array("x".utf8))
        XCTAssertEqual(try connection.readChunk(), Array("x".utf8))
        let start = monotonicNanoseconds()
        server.stop()
        XCTAssertLessThan(seconds(since: start), 5, "the stream did not hold up stop for the 10 s grace period")
        XCTAssertTrue(stream.isClosed)
        stream.write(Array("ignored".utf8))
        XCTAssertNil(try? connection.readChunk(), "the stream ended (or the connection closed): nothing more arrives")
    }
}
