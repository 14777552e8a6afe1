import MicroHTTP
import TestHTTPClient
import XCTest

/// Requests a hostile client sends over a raw socket: the server refuses each with 400 (or
/// the status named) and closes, the handler never sees it, and nothing after it on the
/// connection is run as another request.
final class HostileRequestTests: XCTestCase {
    var recorder: Recorder!
    var server: HTTPServer!

    override func setUpWithError() throws {
        let recorder = Recorder()
        self.recorder = recorder
        server = HTTPServer(
            configuration: .init(host: "127.0.0.1", port: 0, threads: 2, maxBodyBytes: 1000, connectionTimeout: 5, connectionLimit: 64),
            handler: { request in
                recorder.requests.withLock { $0.append(request) }
                return HTTPServerTests.echo(request)
            },
            errorResponder: HTTPServerTests.errorResponder
        )
        try server.start()
    }

    override func tearDown() {
        server.stop()
    }

    /// Sends `bytes` on a fresh connection and reads one response; asserts the connection is
    /// then closed without another response.
    func refuse(_ bytes: [UInt8], status: Int = 400, _ message: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let connection = try TestHTTPConnection(port: server.port, timeout: 5)
        defer { connection.close() }
        try connection.sendRaw(bytes)
        let response = try connection.readResponse()
        XCTAssertEqual(response.status, status, response.bodyString, file: file, line: line)
        XCTAssertEqual(response.bodyString, message, file: file, line: line)
        XCTAssertEqual(response.header("connection")?.lowercased(), "close", file: file, line: line)
        XCTAssertTrue(connection.isClosedByServer(within: 3), "closed after the answer", file: file, line: line)
        XCTAssertThrowsError(try connection.readResponse(), "no second response", file: file, line: line)
        XCTAssertEqual(recorder.count, 0, "the handler never ran", file: file, line: line)
    }

    func head(_ requestLine: String, _ fields: String = "") -> [UInt8] {
        Array("\(requestLine)\r\nHost: x\r\n\(fields)\r\n".utf8)
    }

    /// Where `\0` stands for the raw byte 0x00.
    func bytes(_ text: String) -> [UInt8] {
        Array(text.replacingOccurrences(of: "\\0", with: "\u{0}").utf8)
    }

    func testARawNULNeverCutsTheRequestLineShort() throws {
        try refuse(bytes("DELETE /stacks/victim\\0/rows/v0 HTTP/1.1\r\nHost: x\r\n\r\n"),
                   "bad_request: the request target holds a NUL byte (0x00)")
        try refuse(bytes("GET /x?a=1\\0&b=2 HTTP/1.1\r\nHost: x\r\n\r\n"), "bad_request: the request target holds a NUL byte (0x00)")
        try refuse(bytes("DELETE\\0GET /x HTTP/1.1\r\nHost: x\r\n\r\n"), "bad_request: the method holds a NUL byte (0x00)")
        try refuse(bytes("GET\\0 /x HTTP/1.1\r\nHost: x\r\n\r\n"), "bad_request: the method holds a NUL byte (0x00)")
        try refuse(head("GE(T /x HTTP/1.1"), "bad_request: the method is not an HTTP token")
    }

    func testARawNULInAHeaderIsRefused() throws {
        try refuse(bytes("GET /x HTTP/1.1\r\nHost: x\r\nX-Test: a\\0b\r\n\r\n"), "bad_request: the header X-Test holds a NUL byte (0x00), or a line starts with one")
        try refuse(bytes("GET /x HTTP/1.1\r\nHost: x\r\nX-Test: a\\0\r\nX-Other: 1\r\n\r\n"), "bad_request: the header X-Test holds a NUL byte (0x00) or is folded over two lines")
        // A line starting with NUL would end the head early, and the rest become a request.
        try refuse(bytes("POST /x HTTP/1.1\r\nHost: x\r\n\\0\r\nDELETE /victim HTTP/1.1\r\nHost: x\r\n\r\n"),
                   "bad_request: the header Host holds a NUL byte (0x00), or a line starts with one")
        try refuse(bytes("GET /x HTTP/1.1\r\n\\0junk\r\n\r\n"), "bad_request: the request line is followed by a NUL byte (0x00)")
    }

    func testControlBytesFoldedLinesAndBadNamesAreRefused() throws {
        try refuse(head("GET /x HTTP/1.1", "X-Test: a\u{1B}[2Jb\r\n"), "bad_request: the header X-Test holds the control byte 0x1B")
        try refuse(head("GET /x HTTP/1.1", "X-Test: a\rb\r\n"), "bad_request: the header X-Test holds the control byte 0x0D")
        try refuse(head("GET /x HTTP/1.1", "X-Test: a\r\n folded\r\n"), "bad_request: the header Host holds a NUL byte (0x00) or is folded over two lines")
        try refuse(head("GET /x HTTP/1.1", "X(Test): a\r\n"), "bad_request: the header name \"X(Test)\" is not an HTTP token")
        try refuse(head("GET /a\u{01}b HTTP/1.1"), "bad_request: the request target holds the byte 0x01; encode it as %01")
        try refuse(head("GET /a b HTTP/1.1"), "bad_request: the request target holds the byte 0x20; encode it as %20")
    }

    /// What the checks must let through: bare LF line ends, spaces around values, empty
    /// values, blank lines before the request, HTTP/1.0 without headers, cookies.
    func testCleanHeadsInEveryAllowedShapePass() throws {
        let shapes = [
            "GET /ok HTTP/1.1\nHost: x\nX-Test: v  \n\n",
            "GET /ok HTTP/1.1\r\nHost: x\r\nX-Test:\t v \t\r\nX-Empty:\r\nX-Blank:   \r\nCookie: a=b; c=d\r\n\r\n",
            "\r\n\r\nGET /ok?q=%41&r HTTP/1.1\r\nHost: x\r\nX-Test: é ü\r\n\r\n",
            "GET /ok HTTP/1.0\r\n\r\n",
        ]
        for shape in shapes {
            let connection = try TestHTTPConnection(port: server.port, timeout: 5)
            defer { connection.close() }
            try connection.sendRaw(Array(shape.utf8))
            let response = try connection.readResponse()
            XCTAssertEqual(response.status, 200, shape.debugDescription)
        }
        XCTAssertEqual(recorder.count, shapes.count)
        XCTAssertEqual(recorder.requests.withLock { $0.map { $0.header("x-test") } }, ["v  ", "v \t", "é ü", nil])
        XCTAssertEqual(recorder.requests.withLock { $0[1].header("x-empty") }, "")
    }

    // MARK: Framing (RFC 9112 §6.3)

    /// A request with `fields` and `body`, followed on the same connection by a second
    /// request that must never run.
    func framed(_ fields: String, _ body: String, version: String = "HTTP/1.1") -> [UInt8] {
        Array("POST /first \(version)\r\nHost: x\r\n\(fields)\r\n\(body)DELETE /second HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
    }

    /// Refused by libmicrohttpd itself (its own short HTML body): still `status`, closed,
    /// nothing run.
    func refusedByLibrary(_ bytes: [UInt8], status: Int = 400, file: StaticString = #filePath, line: UInt = #line) throws {
        let connection = try TestHTTPConnection(port: server.port, timeout: 5)
        defer { connection.close() }
        try connection.sendRaw(bytes)
        XCTAssertEqual(try connection.readHead().status, status, file: file, line: line)
        XCTAssertTrue(connection.isClosedByServer(within: 3), "closed after the answer", file: file, line: line)
        XCTAssertEqual(recorder.count, 0, "the handler never ran", file: file, line: line)
    }

    func testConflictingContentLengthsAreRefusedAndTheRestNeverRuns() throws {
        try refuse(framed("Content-Length: 0\r\nContent-Length: 5\r\n", ""),
                   "bad_request: the request has 2 Content-Length fields; send one")
        try refuse(framed("Content-Length: 2\r\nContent-Length: 2\r\n", "{}"),
                   "bad_request: the request has 2 Content-Length fields; send one")
    }

    /// A `Content-Length` that is not a decimal number, which libmicrohttpd refuses before any
    /// handler runs (with its own HTML page, its head sent twice), gets the error responder's
    /// answer naming the field, in one response.
    func testMalformedContentLengthsGetTheErrorRespondersAnswer() throws {
        for (value, shown) in [("2, 2", "2, 2"), ("-1", "-1"), ("+2", "+2"), ("", ""), ("0x2", "0x2"), ("two", "two"), ("2\u{1}", "2\\x01")] {
            try refuse(framed("Content-Length: \(value)\r\n", "{}"),
                       "bad_request: the Content-Length field \"\(shown)\" is not a decimal number of bytes")
        }
        try refuse(framed("Content-Length: 99999999999999999999999\r\n", "{}"), status: 413,
                   "payload_too_large: the body is larger than the limit of 1000 bytes")
    }

    func testHTTP11NeedsExactlyOneHost() throws {
        try refuse(Array("GET /x HTTP/1.1\r\nX-Test: 1\r\n\r\n".utf8), "bad_request: an HTTP/1.1 request needs a Host field")
        try refuse(Array("GET /x HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n".utf8), "bad_request: the request has 2 Host fields; send one")
        try refuse(Array("GET /x HTTP/1.1\r\nHost: a\r\nhost: a\r\n\r\n".utf8), "bad_request: the request has 2 Host fields; send one")
        try refuse(Array("GET /x HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n".utf8), "bad_request: the request has 2 Host fields; send one")
    }

    /// Query parameters are parsed by the server, not kept in libmicrohttpd's connection
    /// memory (where about 500 did not fit and the connection was closed unanswered): 1,000
    /// arrive, decoded, in order.
    func testThousandsOfQueryParametersAreServed() throws {
        let query = (0..<1000).map { "p\($0)=v+\($0)%21" }.joined(separator: "&") + "&flag&&nul=%00"
        let connection = try TestHTTPConnection(port: server.port, timeout: 5)
        defer { connection.close() }
        try connection.sendRaw(Array("GET /q?\(query) HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        XCTAssertEqual(try connection.readResponse().status, 200)
        let received = try XCTUnwrap(recorder.last).query
        XCTAssertEqual(received.count, 1002)
        XCTAssertEqual(received[567].name, "p567")
        XCTAssertEqual(received[567].value, "v 567!")
        XCTAssertEqual(received[1000].name, "flag")
        XCTAssertEqual(received[1000].value, "")
        XCTAssertEqual(received[1001].value, "%00", "%00 stays encoded")
        XCTAssertEqual(try XCTUnwrap(recorder.last).path, "/q")
        XCTAssertEqual(try connection.send(method: "GET", path: "/again?a=1").status, 200, "kept alive")
    }

    func testTransferEncodingMustBeChunkedAloneAndLast() throws {
        try refuse(framed("Content-Length: 5\r\nTransfer-Encoding: chunked\r\n", "0\r\n\r\n"),
                   "bad_request: the request has both Transfer-Encoding and Content-Length; send one")
        try refuse(framed("Transfer-Encoding: chunked\r\nContent-Length: 5\r\n", "0\r\n\r\n"),
                   "bad_request: the request has both Transfer-Encoding and Content-Length; send one")
        try refuse(framed("Transfer-Encoding: gzip\r\n", "abc"),
                   "bad_request: the final transfer coding must be chunked, or the body's end cannot be known")
        try refuse(framed("Transfer-Encoding: chunked, gzip\r\n", "0\r\n\r\n"),
                   "bad_request: the final transfer coding must be chunked, or the body's end cannot be known")
        try refuse(framed("Transfer-Encoding: gzip, chunked\r\n", "0\r\n\r\n"), status: 501,
                   "not_implemented: the transfer coding gzip is not supported; send the body chunked only")
        try refuse(framed("Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n", "0\r\n\r\n"),
                   "bad_request: chunked is applied more than once")
        try refuse(framed("Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n", "0\r\n\r\n"), status: 501,
                   "not_implemented: the transfer coding gzip is not supported; send the body chunked only")
        try refuse(framed("Transfer-Encoding: chunked;x=1\r\n", "0\r\n\r\n"),
                   "bad_request: Transfer-Encoding must be one field saying exactly chunked")
        try refuse(framed("Transfer-Encoding: chunked\r\n", "0\r\n\r\n", version: "HTTP/1.0"),
                   "bad_request: an HTTP/1.0 request cannot use Transfer-Encoding")
    }

    func testInvalidChunksAreRefused() throws {
        for chunks in ["zz\r\n{}\r\n0\r\n\r\n", "-1\r\n{}\r\n0\r\n\r\n", "2 \r\n{}\r\n0\r\n\r\n",
                       "0x2\r\n{}\r\n0\r\n\r\n", "2\r\n{}XX0\r\n\r\n", ";x\r\n{}\r\n0\r\n\r\n"] {
            try refusedByLibrary(framed("Transfer-Encoding: chunked\r\n", chunks))
        }
        try refusedByLibrary(framed("Transfer-Encoding: chunked\r\n", "fffffffffffffffffffff\r\n{}\r\n0\r\n\r\n"), status: 413)
    }

    /// The forms that are fine: one `chunked` in any case, chunk extensions, one length.
    func testValidFramingIsServedOnAKeptAliveConnection() throws {
        let connection = try TestHTTPConnection(port: server.port, timeout: 5)
        defer { connection.close() }
        try connection.sendRaw(Array("POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: Chunked\r\n\r\n2;ext=1\r\n{}\r\n0\r\n\r\n".utf8))
        XCTAssertEqual(try connection.readResponse().bodyString, "POST /a ? x=- body=2")
        try connection.sendRaw(Array("POST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc".utf8))
        XCTAssertEqual(try connection.readResponse().bodyString, "POST /b ? x=- body=3")
        XCTAssertEqual(recorder.count, 2)
    }
}
