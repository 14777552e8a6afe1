@testable import MicroHTTP
import TestHTTPClient
import XCTest

/// `Configuration.connectionMemory` bounds a request head (libmicrohttpd answers 431 past it)
/// but not a body, which is read through it in pieces.
final class ConnectionMemoryTests: XCTestCase {
    func testTheHeadMustFitTheConnectionMemoryAndABodyNeedNot() throws {
        let server = HTTPServer(
            configuration: .init(host: "127.0.0.1", port: 0, maxBodyBytes: 1 << 20, connectionMemory: 8192),
            handler: { request in HTTPResponse(status: 200, body: Array("\(request.header("x-pad")?.count ?? 0) \(request.body.count)".utf8)) },
            errorResponder: { _, error in HTTPResponse(status: error.status) })
        try server.start()
        defer { server.stop(gracePeriod: 0) }
        XCTAssertEqual(server.configuration.connectionMemory, 8192)
        let fits = try httpRequest(port: server.port, method: "GET", path: "/", headers: [("X-Pad", String(repeating: "a", count: 7000))])
        XCTAssertEqual(fits.status, 200)
        XCTAssertEqual(String(decoding: fits.body, as: UTF8.self), "7000 0")
        let over = try httpRequest(port: server.port, method: "GET", path: "/", headers: [("X-Pad", String(repeating: "a", count: 9000))])
        XCTAssertEqual(over.status, 431, "a head over the connection memory is refused")
        let body = try httpRequest(port: server.port, method: "POST", path: "/", body: [UInt8](repeating: 98, count: 200_000))
        XCTAssertEqual(body.status, 200)
        XCTAssertEqual(String(decoding: body.body, as: UTF8.self), "0 200000", "a body 24 times the connection memory is read whole")
        XCTAssertEqual(HTTPServer.Configuration().connectionMemory, 32 << 10, "libmicrohttpd's own default")
    }
}
