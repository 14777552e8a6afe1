@testable import MicroHTTP
import XCTest

/// `HTTPRequest.header(_:)`: bytes with ASCII letters folded when every name is ASCII,
/// `lowercased()` strings otherwise, and the choice kept right when `headers` changes.
final class HTTPRequestTests: XCTestCase {
    func testHeaderLookupFoldsAsciiLettersAndFindsTheFirstOfRepeatedFields() {
        let request = HTTPRequest(method: "GET", path: "/", headers: [("Accept", "a"), ("X-Multi", "1"), ("x-multi", "2"), ("Host", "h")])
        XCTAssertEqual(request.header("accept"), "a")
        XCTAssertEqual(request.header("ACCEPT"), "a")
        XCTAssertEqual(request.header("x-MULTI"), "1")
        XCTAssertEqual(request.header("host"), "h")
        XCTAssertNil(request.header("accep"))
        XCTAssertNil(request.header("accept-encoding"))
        // `[` and `{` differ by 0x20 too, but are not letters.
        XCTAssertNil(HTTPRequest(method: "GET", path: "/", headers: [("a{", "x")]).header("a["))
    }

    func testANameOutsideAsciiIsComparedAsLowercasedStrings() {
        // The Kelvin sign lowercases to `k`: names are lowered as the request is made.
        let request = HTTPRequest(method: "GET", path: "/", headers: [("X-\u{212A}", "kelvin"), ("Caf\u{C9}", "café")])
        XCTAssertEqual(request.header("x-k"), "kelvin")
        XCTAssertEqual(request.header("CAF\u{C9}"), "café")
        XCTAssertEqual(request.header("caf\u{E9}"), "café")
        XCTAssertNil(request.header("x-q"))
    }

    func testHeadersChangedAfterwardsAreFoundTheSameWay() {
        var request = HTTPRequest(method: "GET", path: "/", headers: [("Host", "h")])
        request.headers.append((name: "caf\u{E9}", value: "1"))
        XCTAssertEqual(request.header("CAF\u{C9}"), "1")
        XCTAssertEqual(request.header("HOST"), "h")
        request.headers.removeLast()
        request.headers.append((name: "accept", value: "2"))
        XCTAssertEqual(request.header("Accept"), "2")
        XCTAssertNil(request.header("caf\u{E9}"))
    }

    /// An access log line is bounded whatever the request: the escaped target is cut at 512
    /// bytes, the method at 32, each saying how many bytes were left out.
    func testTheSummaryIsBoundedAndSaysWhatItLeftOut() {
        XCTAssertEqual(HTTPRequest(method: "GET", path: "/a", rawTarget: "/a?b=%0A").summary, "GET /a?b=%0A")
        let target = "/" + String(repeating: "\u{1}", count: 20_000)  // 4 bytes each once escaped
        let summary = HTTPRequest(method: String(repeating: "M", count: 5000), path: "/", rawTarget: target).summary
        XCTAssertEqual(summary, String(repeating: "M", count: 32) + "…(+4968 bytes) /" + String(repeating: "\\x01", count: 127) + "…(+19873 bytes)")
        XCTAssertLessThan(summary.utf8.count, 32 + 512 + 40)
        let exact = "/" + String(repeating: "a", count: 511)
        XCTAssertEqual(HTTPRequest(method: "GET", path: "/", rawTarget: exact).summary, "GET " + exact, "512 bytes are shown whole")
        XCTAssertEqual(HTTPRequest(method: "GET", path: "/", rawTarget: exact + "b").summary, "GET " + exact + "…(+1 bytes)")
    }
}
