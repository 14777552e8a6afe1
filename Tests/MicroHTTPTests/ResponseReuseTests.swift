import Foundation
@testable import MicroHTTP
import TestHTTPClient
import XCTest

/// A response with a `ResponseReuse` is sent from one libmicrohttpd response per version
/// (status, fields, body storage): every send is the response it stands for, a changed field
/// or body is sent as it is, and at most `ResponseReuse.variants` versions are made.
final class ResponseReuseTests: XCTestCase {
    func testEverySendOfAReusedResponseIsTheResponseItStandsFor() throws {
        let reuse = ResponseReuse()
        let body = Array(#"{"answer": "the same bytes every time"}"#.utf8)
        let other = Array("another body of the same length!!!!!!!!".utf8)
        XCTAssertEqual(body.count, other.count)
        let kept = HTTPResponse(status: 200, headers: [("Content-Type", "application/json"), ("ETag", "\"7\"")], body: body)
        let server = HTTPServer(
            configuration: .init(host: "127.0.0.1", port: 0),
            handler: { request in
                var response = kept
                response.reuse = reuse
                // What a layer in front may change per request: a field, the status, the body.
                switch request.path {
                case "/field": response.headers.append((name: "X-Variant", value: request.header("x-variant") ?? "none"))
                case "/status": response.status = 203
                case "/body": response.body = other
                case "/copy": response.body = Array(body)  // the same bytes, another storage
                default: break
                }
                return response
            },
            errorResponder: { _, error in HTTPResponse(status: error.status) })
        try server.start()
        defer { server.stop(gracePeriod: 0) }
        let connection = try TestHTTPConnection(port: server.port)
        XCTAssertEqual(try connection.send(method: "GET", path: "/").body, body)
        XCTAssertEqual(reuse.versionsMade, 0, "nothing is made for the first send")
        for round in 0..<3 {
            for path in ["/", "/status", "/body", "/copy"] {
                let answer = try connection.send(method: "GET", path: path)
                XCTAssertEqual(answer.status, path == "/status" ? 203 : 200, "\(path), round \(round)")
                XCTAssertEqual(answer.body, path == "/body" ? other : body, "\(path), round \(round)")
                XCTAssertEqual(answer.header("content-type"), "application/json")
                XCTAssertEqual(answer.header("etag"), "\"7\"")
                XCTAssertEqual(answer.header("content-length"), String(body.count))
                XCTAssertNil(answer.header("x-variant"))
            }
            for variant in ["a", "b", "c"] {
                let answer = try connection.send(method: "GET", path: "/field", headers: [("X-Variant", variant)])
                XCTAssertEqual(answer.header("x-variant"), variant, "round \(round)")
                XCTAssertEqual(answer.body, body)
            }
            let head = try connection.send(method: "HEAD", path: "/")
            XCTAssertEqual(head.status, 200)
            XCTAssertEqual(head.body, [], "HEAD gets the fields, not the body")
        }
        // The first send made nothing; "/status", "/body", "/copy" and the first field variant
        // took the four versions; the rest were sent as they are, each time.
        XCTAssertEqual(reuse.versionsMade, ResponseReuse.variants)
    }

    func testABodyOfMadeAtOnceBytesIsMadeOnItsFirstSendASmallerOneOnItsSecond() throws {
        // Sending a big kept answer as usual would copy it: its response is made at once.
        let big = (0..<ResponseReuse.madeAtOnce).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let small = Array(big.dropLast())
        let reuses = ["/big": ResponseReuse(), "/small": ResponseReuse()]
        let server = HTTPServer(
            configuration: .init(host: "127.0.0.1", port: 0),
            handler: { request in
                var response = HTTPResponse(status: 200, body: request.path == "/big" ? big : small)
                response.reuse = reuses[request.path]
                return response
            },
            errorResponder: { _, error in HTTPResponse(status: error.status) })
        try server.start()
        defer { server.stop(gracePeriod: 0) }
        let connection = try TestHTTPConnection(port: server.port)
        for (path, body) in [("/big", big), ("/small", small)] {
            for send in 1...3 {
                let answer = try connection.send(method: "GET", path: path)
                XCTAssertEqual(answer.status, 200)
                XCTAssertTrue(answer.body == body, "\(path), send \(send): \(answer.body.count) bytes of \(body.count)")
                XCTAssertEqual(reuses[path]!.versionsMade, path == "/big" || send > 1 ? 1 : 0, "\(path), send \(send)")
            }
        }
    }

    func testAResponseOutlivesItsReuseWhileItIsSent() throws {
        // A big body still being sent when its reuse goes away (the answer forgotten): the
        // client gets all of it.
        let body = (0..<4_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let current = LockedReuse()
        let server = HTTPServer(
            configuration: .init(host: "127.0.0.1", port: 0),
            handler: { _ in
                var response = HTTPResponse(status: 200, body: body)
                response.reuse = current.use()
                return response
            },
            errorResponder: { _, error in HTTPResponse(status: error.status) })
        try server.start()
        defer { server.stop(gracePeriod: 0) }
        for _ in 0..<3 {
            var reuse: ResponseReuse? = ResponseReuse()
            weak var released = reuse
            current.set(reuse!)
            reuse = nil
            // The first send makes the response (the body is over `madeAtOnce`); the second
            // sends it, and drops the last reference to the reuse as soon as it is queued.
            for _ in 0..<2 {
                let answer = try httpRequest(port: server.port, method: "GET", path: "/")
                XCTAssertEqual(answer.status, 200)
                XCTAssertTrue(answer.body == body, "\(answer.body.count) bytes of \(body.count)")
            }
            XCTAssertTrue(eventually(10) { released == nil }, "the reuse went with the answer that made its response")
        }
    }
}

/// One reuse handed to the next two requests: on the second, it is forgotten here, so the
/// response queued (and the test's own variable) are its last holders.
private final class LockedReuse: @unchecked Sendable {
    private let lock = NSLock()
    private var reuse: ResponseReuse?
    private var uses = 0
    func set(_ value: ResponseReuse) { lock.withLock { reuse = value; uses = 0 } }
    func use() -> ResponseReuse? {
        lock.withLock {
            uses += 1
            defer { if uses == 2 { reuse = nil } }
            return reuse
        }
    }
}
