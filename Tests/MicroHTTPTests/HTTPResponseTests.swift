@testable import MicroHTTP
import XCTest

/// `HTTPResponse` keeps its members in one shared box: it must still behave as a value.
final class HTTPResponseTests: XCTestCase {
    func testEveryMemberSetOnACopyLeavesTheOriginalAsItWas() {
        let original = HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: Array("{}".utf8))
        let reuse = ResponseReuse()
        let deferred = DeferredResponse()
        var copy = original
        copy.status = 404
        copy.headers.append((name: "Vary", value: "Accept-Encoding"))
        copy.body.append(UInt8(ascii: "\n"))
        copy.gzipBody = [1, 2, 3]
        copy.reuse = reuse
        copy.deferred = deferred
        copy.keptStream = true

        XCTAssertEqual(original.status, 200)
        XCTAssertEqual(original.headers.map(\.name), ["Content-Type"])
        XCTAssertEqual(original.body, Array("{}".utf8))
        XCTAssertNil(original.gzipBody)
        XCTAssertNil(original.reuse)
        XCTAssertNil(original.deferred)
        XCTAssertFalse(original.keptStream)

        XCTAssertEqual(copy.status, 404)
        XCTAssertEqual(copy.headers.map(\.name), ["Content-Type", "Vary"])
        XCTAssertEqual(copy.body, Array("{}\n".utf8))
        XCTAssertEqual(copy.gzipBody, [1, 2, 3])
        XCTAssertTrue(copy.reuse === reuse)
        XCTAssertTrue(copy.deferred === deferred)
        XCTAssertTrue(copy.keptStream)
    }

    func testTheOriginalChangedLeavesACopyAsItWas() {
        var original = HTTPResponse(status: 201, headers: [("ETag", "\"1\"")], body: [7])
        let copy = original
        original.headers[0].value = "\"2\""
        original.body[0] = 8
        XCTAssertEqual(copy.header("etag"), "\"1\"")
        XCTAssertEqual(copy.body, [7])
        XCTAssertEqual(original.header("ETag"), "\"2\"")
        XCTAssertEqual(original.body, [8])
    }

    func testHeaderNamesCompareWithAsciiLettersFoldedOnly() {
        let response = HTTPResponse(status: 200, headers: [("Content-Type", "a"), ("X-\u{212A}", "b"), ("ETag", "c")])
        XCTAssertEqual(response.header("content-type"), "a")
        XCTAssertEqual(response.header("CONTENT-TYPE"), "a")
        XCTAssertEqual(response.header("etag"), "c")
        XCTAssertNil(response.header("content-typ"))
        XCTAssertNil(response.header("content_type"))
        // A fold is only between ASCII letters: `[` (0x5B) and `{` (0x7B) differ by 0x20 too.
        XCTAssertNil(HTTPResponse(status: 200, headers: [("a[", "x")]).header("a{"))
        XCTAssertEqual(response.header("x-\u{212A}"), "b")
    }
}
