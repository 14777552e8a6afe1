import Foundation
import JSONCodec
import MicroHTTP
@testable import ScrollStackService
import TestHTTPClient
import XCTest

/// Big answers streamed over real HTTP: the same bytes as the whole-body answers, chunked,
/// and a client that stops reading holds nothing once its connection times out.
final class StreamedAnswerTests: XCTestCase {
    /// A service streaming every answer of at least `rows` rows.
    func service(streamingFrom rows: Int) -> StackService {
        var limits = ServiceLimits()
        limits.streamedAnswerRows = rows
        return StackService(limits: limits)
    }

    /// A create body of `count` rows: fixed, fit, hidden and inset rows, and a paging carousel.
    func stackBody(_ count: Int, paging: Bool = false) throws -> JSON {
        let rows = (0..<count).map { i -> String in
            switch i % 5 {
            case 0: return #"{"id": "r\#(i)", "view": {"type": "V"}, "size": {"fixed": \#(Double(i % 7) * 10.5 + 1)}}"#
            case 1: return #"{"id": "r\#(i)", "controller": {"type": "C", "instance": "i\#(i)"}, "content": {"aspectRatio": 1.5}}"#
            case 2: return #"{"id": "r\#(i)", "view": {"type": "V"}, "size": {"fixed": 33.333}, "hidden": true}"#
            case 3: return #"{"id": "r\#(i)", "view": {"type": "V", "props": {"a": [1, "x"]}}, "content": {"stack": "vertical", "children": [{"height": 10}, {"height": 20.5}]}}"#
            default: return #"{"id": "r\#(i)", "view": {"type": "V"}, "size": {"fixed": 44}, "insets": {"top": 1, "left": 2, "bottom": 3, "right": 4}}"#
            }
        }
        let carousel = paging ? #", "paging": {"size": {"fraction": 1}}, "pageIndicator": true"# : ""
        return try JSON.parse(Array(#"{"id": "big", "viewport": {"width": 375, "height": 667}\#(carousel), "rows": [\#(rows.joined(separator: ","))]}"#.utf8))
    }

    func testStreamedAnswersAreTheWholeAnswersBytes() throws {
        let streaming = try ServerHarness(service: service(streamingFrom: 100), maxBodyBytes: 8 << 20)
        let whole = try ServerHarness(service: service(streamingFrom: .max), maxBodyBytes: 8 << 20)
        defer {
            streaming.stop()
            whole.stop()
        }
        for paging in [false, true] {
            let body = try stackBody(1500, paging: paging)
            for server in [streaming, whole] {
                _ = try? server.request("DELETE", "/v1/stacks/big")
                XCTAssertEqual(try server.request("POST", "/v1/stacks", json: body).status, 201)
                let insert = try JSON.parse(Array(#"{"at": {"index": 700}, "rows": [{"id": "new", "view": {"type": "V"}, "size": {"fixed": 12.5}}]}"#.utf8))
                XCTAssertEqual(try server.request("POST", "/v1/stacks/big/rows", json: insert).status, 200)
            }
            for path in ["/v1/stacks/big/layout", "/v1/stacks/big/layout?offset=5000", "/v1/stacks/big/layout?content=frames&width=500",
                         "/v1/stacks/big/layout?scrollTo=r900", "/v1/stacks/big", "/v1/stacks/big?revision=1"] {
                let streamed = try streaming.request("GET", path, headers: [("Accept-Encoding", "gzip")])
                let expected = try whole.request("GET", path)
                XCTAssertEqual(streamed.status, 200, path)
                XCTAssertEqual(streamed.header("transfer-encoding")?.lowercased(), "chunked", path)
                XCTAssertNil(streamed.header("content-encoding"), "streamed answers are not compressed")
                XCTAssertNotNil(expected.header("content-length"), path)
                XCTAssertEqual(streamed.header("etag"), expected.header("etag"), path)
                XCTAssertGreaterThan(expected.body.count, 100_000, path)
                XCTAssertTrue(streamed.body == expected.body, "\(path) (paging \(paging)): \(streamed.body.count) bytes streamed, \(expected.body.count) whole")
            }
            let conditional = try streaming.request("GET", "/v1/stacks/big/layout", headers: [("If-None-Match", "\"2\"")])
            XCTAssertEqual(conditional.status, 304)
        }
    }

    func testAClientThatStopsReadingHoldsNothingOnceItsConnectionTimesOut() throws {
        // Three seconds: long enough that the stalled answer is still being produced when the
        // test looks, on a loaded machine too.
        let server = try ServerHarness(service: service(streamingFrom: 100), connectionTimeout: 3)
        defer { server.stop() }
        let create = HTTPRequest(method: "POST", path: "/v1/stacks", headers: [("Content-Type", "application/json")],
                                 body: try stackBody(40_000).serialized())
        XCTAssertEqual(server.service.handle(create).status, 201)
        let before = HTTPBodySource.live
        // A client with a 4 KiB receive buffer asks for the layout (about 12 MB) and reads
        // only the first bytes of the answer.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        var small: Int32 = 4096
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(server.port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        XCTAssertEqual(connected, 0)
        let request = Array("GET /v1/stacks/big/layout HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        XCTAssertEqual(request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }, request.count)
        var first = [UInt8](repeating: 0, count: 512)
        XCTAssertGreaterThan(recv(fd, &first, first.count, 0), 0)
        XCTAssertTrue(String(decoding: first, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
        XCTAssertEqual(HTTPBodySource.live, before + 1, "the answer is being produced")
        XCTAssertEqual(try server.request("GET", "/healthz").status, 200, "others are answered meanwhile")
        // The server can send nothing more; the connection times out after 3 seconds of that.
        // Polled under a deadline: the count of live sources announces no change.
        XCTAssertTrue(eventually(20) { HTTPBodySource.live == before })
        XCTAssertEqual(HTTPBodySource.live, before, "the stalled answer's source (and its copy of the stack) is released")
    }
}
