import MicroHTTP
import TestHTTPClient
import XCTest

/// `HTTPServer.headGate`: a request it answers is answered once its head is read, before any
/// of its body, without `100 Continue`; one it lets through is read and handled as before.
final class HeadGateTests: XCTestCase {
    var recorder: Recorder!
    var server: HTTPServer!

    override func setUpWithError() throws {
        let recorder = Recorder()
        self.recorder = recorder
        server = HTTPServer(
            configuration: .init(host: "127.0.0.1", port: 0, threads: 2, maxBodyBytes: 1 << 20, connectionTimeout: 5, connectionLimit: 16),
            handler: { request in
                recorder.requests.withLock { $0.append(request) }
                return HTTPServerTests.echo(request)
            },
            errorResponder: HTTPServerTests.errorResponder
        )
        server.headGate = { request in
            guard request.header("Authorization") != "Bearer good" else { return nil }
            return HTTPResponse(status: 401, headers: [("Content-Type", "text/plain")], body: Array("no: \(request.method) \(request.rawTarget)".utf8))
        }
        try server.start()
    }

    override func tearDown() {
        server.stop(gracePeriod: 0)
    }

    func head(_ authorization: String) -> [UInt8] {
        Array("POST /upload?x=1 HTTP/1.1\r\nHost: x\r\nAuthorization: \(authorization)\r\nExpect: 100-continue\r\nContent-Length: 500000\r\n\r\n".utf8)
    }

    func testARefusedRequestIsAnsweredBeforeItsBodyWithoutContinue() throws {
        let connection = try TestHTTPConnection(port: server.port, timeout: 5)
        defer { connection.close() }
        try connection.sendRaw(head("Bearer bad"))
        // Read the very first status line: no `100 Continue` before the answer.
        let (status, headers) = try connection.readHead()
        XCTAssertEqual(status, 401)
        XCTAssertEqual(headers.first { $0.0 == "connection" }?.1.lowercased(), "close")
        XCTAssertTrue(connection.isClosedByServer(within: 3), "closed, the body unread")
        XCTAssertEqual(recorder.count, 0, "the handler never ran")
    }

    func testARefusedRequestWithoutExpectIsAnsweredAtOnceToo() throws {
        let connection = try TestHTTPConnection(port: server.port, timeout: 5)
        defer { connection.close() }
        // The head and 10 bytes of the 500,000 declared: the answer does not wait for the rest.
        try connection.sendRaw(Array("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 500000\r\n\r\n0123456789".utf8))
        let response = try connection.readResponse()
        XCTAssertEqual(response.status, 401)
        XCTAssertEqual(response.bodyString, "no: POST /upload")
        XCTAssertEqual(recorder.count, 0)
    }

    func testALetThroughRequestGetsContinueAndIsHandled() throws {
        let connection = try TestHTTPConnection(port: server.port, timeout: 5)
        defer { connection.close() }
        try connection.sendRaw(head("Bearer good"))
        XCTAssertEqual(try connection.readHead().status, 100)
        try connection.sendRaw([UInt8](repeating: 0x61, count: 500_000))
        let response = try connection.readResponse()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.bodyString, "POST /upload ?x=1 x=- body=500000")
        XCTAssertEqual(try connection.send(method: "GET", path: "/next", headers: [("Authorization", "Bearer good")]).status, 200, "kept alive")
    }
}
