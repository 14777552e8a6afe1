import JSONCodec
import MicroHTTP
@testable import ScrollStackService
import TestHTTPClient
import XCTest

/// The rows list streamed over real HTTP: chunked, and byte for byte the list the
/// same server answers whole below the streaming threshold, with the same ETag.
final class StreamedRowsTests: XCTestCase {
    func service(streamingFrom rows: Int) -> StackService {
        var limits = ServiceLimits()
        limits.streamedAnswerRows = rows
        return StackService(limits: limits)
    }

    /// `count` rows cycling through controller and view rows with props, insets, separators,
    /// hidden rows and ids that need escaping.
    func stackBody(_ count: Int) throws -> JSON {
        let rows = (0..<count).map { i -> String in
            switch i % 6 {
            case 0: return #"{"id": "r\#(i)", "view": {"type": "V"}, "size": {"fixed": \#(Double(i % 7) * 10.5 + 1)}}"#
            case 1: return #"{"id": "r\#(i)", "controller": {"type": "C", "instance": "i\#(i)"}, "content": {"aspectRatio": 1.5}}"#
            case 2: return #"{"id": "r\#(i)\"q\u00e9", "view": {"type": "V"}, "size": {"fixed": 33.333}, "hidden": true}"#
            case 3: return ##"{"id": "r\##(i)", "controller": {"type": "D", "props": {"a": [1, "x", null]}}, "size": {"fixed": 20}, "separator": {"thickness": 2, "color": "#ff0000"}}"##
            case 4: return #"{"id": "r\#(i)", "controller": {"type": "C"}, "size": {"fixed": 44}, "insets": {"top": 1, "left": 2, "bottom": 3, "right": 4}, "tappable": true}"#
            default: return #"{"id": "r\#(i)", "view": {"type": "V", "props": {"k": "v"}}, "content": {"stack": "vertical", "children": [{"height": 10}]}, "highlightable": false}"#
            }
        }
        return try JSON.parse(Array(#"{"id": "big", "viewport": {"width": 375, "height": 667}, "rows": [\#(rows.joined(separator: ","))]}"#.utf8))
    }

    func testStreamedRowsListsAreTheWholeListsBytes() throws {
        let streaming = try ServerHarness(service: service(streamingFrom: 100), maxBodyBytes: 8 << 20)
        let whole = try ServerHarness(service: service(streamingFrom: .max), maxBodyBytes: 8 << 20)
        defer {
            streaming.stop()
            whole.stop()
        }
        let body = try stackBody(3000)
        for server in [streaming, whole] {
            XCTAssertEqual(try server.request("POST", "/v1/stacks", json: body).status, 201)
            let insert = try JSON.parse(Array(#"{"at": {"index": 1700}, "rows": [{"id": "new", "controller": {"type": "C"}, "size": {"fixed": 12.5}}]}"#.utf8))
            XCTAssertEqual(try server.request("POST", "/v1/stacks/big/rows", json: insert).status, 200)
        }
        for path in ["/v1/stacks/big/rows", "/v1/stacks/big/rows?controller=C", "/v1/stacks/big/rows?controller=D",
                     "/v1/stacks/big/rows?controller=none"] {
            let streamed = try streaming.request("GET", path, headers: [("Accept-Encoding", "gzip")])
            let expected = try whole.request("GET", path)
            XCTAssertEqual(streamed.status, 200, path)
            XCTAssertEqual(expected.status, 200, path)
            XCTAssertEqual(streamed.header("transfer-encoding")?.lowercased(), "chunked", path)
            XCTAssertNil(streamed.header("content-encoding"), "streamed answers are not compressed")
            XCTAssertNotNil(expected.header("content-length"), path)
            XCTAssertEqual(streamed.header("etag"), "\"2\"", path)
            XCTAssertEqual(streamed.header("etag"), expected.header("etag"), path)
            XCTAssertTrue(streamed.body == expected.body, "\(path): \(streamed.body.count) bytes streamed, \(expected.body.count) whole")
        }
        let all = try JSON.parse(try streaming.request("GET", "/v1/stacks/big/rows").body)
        XCTAssertEqual(all["rows"]?.arrayValue?.count, 3001)
        // Pages, a first match and an instance stay whole answers (they are bounded).
        for path in ["/v1/stacks/big/rows?from=10&limit=5", "/v1/stacks/big/rows?controller=C&first=true", "/v1/stacks/big/rows?instance=i7"] {
            let answer = try streaming.request("GET", path)
            XCTAssertEqual(answer.status, 200, path)
            XCTAssertNotNil(answer.header("content-length"), path)
            XCTAssertTrue(answer.body == (try whole.request("GET", path).body), path)
        }
        XCTAssertEqual(try streaming.request("GET", "/v1/stacks/big/rows", headers: [("If-None-Match", "\"2\"")]).status, 304)
    }
}
