import MicroHTTP
import Synchronization
import TestHTTPClient
import XCTest

#if canImport(Glibc)
import Glibc
#endif

final class HTTPServerTests: XCTestCase {
    /// Echoes the request as text: method, path, query, a header, body length.
    static func echo(_ request: HTTPRequest) -> HTTPResponse {
        if request.path == "/slow" { usleep(300_000) }
        let query = request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        let text = "\(request.method) \(request.path) ?\(query) x=\(request.header("X-Test") ?? "-") body=\(request.body.count)"
        return HTTPResponse(status: request.path == "/teapot" ? 418 : 200, headers: [("Content-Type", "text/plain"), ("X-Echo", "1")], body: Array(text.utf8))
    }

    func makeServer(maxBodyBytes: Int = 1000, timeout: Int = 30, threads: Int = 2, limit: Int = 64) throws -> HTTPServer {
        let server = HTTPServer(
            configuration: .init(host: "127.0.0.1", port: 0, threads: threads, maxBodyBytes: maxBodyBytes, connectionTimeout: timeout, connectionLimit: limit),
            handler: Self.echo,
            errorResponder: { _, error in HTTPResponse(status: error.status, body: Array("\(error.code): \(error.message)".utf8)) }
        )
        try server.start()
        XCTAssertGreaterThan(server.port, 0)
        return server
    }

    func testMethodsPathsQueriesHeadersAndBodies() throws {
        let server = try makeServer()
        defer { server.stop() }
        for method in ["GET", "POST", "PUT", "PATCH", "DELETE"] {
            let response = try httpRequest(port: server.port, method: method, path: "/a%20b/c?x=1&y=two%20words&flag",
                                           headers: [("X-Test", "yes")], body: method == "GET" ? nil : Array("hello".utf8))
            XCTAssertEqual(response.status, 200)
            XCTAssertEqual(response.bodyString, "\(method) /a b/c ?x=1&y=two words&flag= x=yes body=\(method == "GET" ? 0 : 5)")
            XCTAssertEqual(response.header("x-echo"), "1")
        }
        XCTAssertEqual(try httpRequest(port: server.port, method: "GET", path: "/teapot").status, 418)
    }

    func testKeepAliveServesManyRequestsOnOneConnection() throws {
        let server = try makeServer()
        defer { server.stop() }
        let connection = try TestHTTPConnection(port: server.port)
        defer { connection.close() }
        for i in 0..<100 {
            let response = try connection.send(method: i % 2 == 0 ? "GET" : "POST", path: "/n\(i)", body: i % 2 == 0 ? nil : [1, 2, 3])
            XCTAssertEqual(response.status, 200)
            XCTAssertNotEqual(response.header("connection")?.lowercased(), "close")
        }
    }

    func testBodyLimit() throws {
        let server = try makeServer(maxBodyBytes: 1000)
        defer { server.stop() }
        let ok = try httpRequest(port: server.port, method: "POST", path: "/", body: [UInt8](repeating: 65, count: 1000))
        XCTAssertEqual(ok.bodyString, "POST / ? x=- body=1000")
        let over = try httpRequest(port: server.port, method: "POST", path: "/", body: [UInt8](repeating: 65, count: 1001))
        XCTAssertEqual(over.status, 413)
        XCTAssertTrue(over.bodyString.hasPrefix("payload_too_large"))
        XCTAssertEqual(over.header("connection")?.lowercased(), "close")
        // Declared too large: answered before a byte of the body is sent.
        let connection = try TestHTTPConnection(port: server.port)
        defer { connection.close() }
        try connection.sendRaw(Array("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999\r\n\r\n".utf8))
        XCTAssertEqual(try connection.readResponse().status, 413)
    }

    func testStalledClientIsClosedByTheTimeout() throws {
        let server = try makeServer(timeout: 1)
        defer { server.stop() }
        let connection = try TestHTTPConnection(port: server.port)
        defer { connection.close() }
        try connection.sendRaw(Array("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\nabc".utf8))
        XCTAssertThrowsError(try connection.readResponse(), "the server closes the connection without answering")
        XCTAssertEqual(try httpRequest(port: server.port, method: "GET", path: "/").status, 200)
    }

    func testConcurrentClients() throws {
        let server = try makeServer()
        defer { server.stop() }
        let failures = Atomic<Int>(0)
        let port = server.port
        let threads = (0..<8).map { t in
            Thread {
                guard let connection = try? TestHTTPConnection(port: port) else {
                    failures.add(1, ordering: .relaxed)
                    return
                }
                for i in 0..<200 {
                    let response = try? connection.send(method: "POST", path: "/t\(t)/\(i)", body: Array("\(i)".utf8))
                    if response?.bodyString != "POST /t\(t)/\(i) ? x=- body=\(String(i).count)" { failures.add(1, ordering: .relaxed) }
                }
                connection.close()
            }
        }
        threads.forEach { $0.start() }
        let deadline = Date().addingTimeInterval(60)
        while threads.contains(where: { !$0.isFinished }) && Date() < deadline { usleep(10_000) }
        XCTAssertTrue(threads.allSatisfy { $0.isFinished })
        XCTAssertEqual(failures.load(ordering: .relaxed), 0)
    }

    func testStopLetsRequestsInFlightFinishThenRefuses() throws {
        let server = try makeServer()
        let port = server.port
        let result = Mutex<TestHTTPResponse?>(nil)
        let request = Thread { result.withLock { $0 = try? httpRequest(port: port, method: "GET", path: "/slow") } }
        request.start()
        usleep(100_000)
        server.stop()
        while !request.isFinished { usleep(10_000) }
        XCTAssertEqual(result.withLock { $0?.status }, 200, "the request in flight got its answer")
        XCTAssertThrowsError(try httpRequest(port: port, method: "GET", path: "/"), "no longer accepting")
        server.stop()  // idempotent
    }

    func testBindingAPortInUseThrows() throws {
        let server = try makeServer()
        defer { server.stop() }
        let second = HTTPServer(configuration: .init(port: server.port), handler: Self.echo, errorResponder: { _, e in HTTPResponse(status: e.status) })
        XCTAssertThrowsError(try second.start()) { error in
            XCTAssertTrue("\(error)".contains("cannot bind"), "\(error)")
        }
        let bad = HTTPServer(configuration: .init(host: "not-an-ip", port: 0), handler: Self.echo, errorResponder: { _, e in HTTPResponse(status: e.status) })
        XCTAssertThrowsError(try bad.start())
    }
}
