import JSONCodec
import XCTest

/// Every error status, with its code and field, and proof that a rejected request changes nothing.
final class ErrorTests: XCTestCase {
    var server: ServerHarness!

    override func setUpWithError() throws {
        server = try ServerHarness()
        let created = try server.request("POST", "/v1/stacks", json: object(("id", "s"), ("rows", [row("a"), row("b")])))
        XCTAssertEqual(created.status, 201, created.text)
    }

    override func tearDown() {
        server.stop()
    }

    /// Sends a request and checks status, code and field; then checks the stack is unchanged.
    func expect(_ method: String, _ path: String, json: JSON? = nil, raw: [UInt8]? = nil, contentType: String? = "application/json",
                status: Int, code: String, field: String?, file: StaticString = #filePath, line: UInt = #line) throws {
        let before = try server.request("GET", "/v1/stacks/s")
        let reply: Reply
        if let raw {
            reply = try server.raw(method, path, body: raw, headers: contentType.map { [("Content-Type", $0)] } ?? [])
        } else if let json, contentType != "application/json" {
            reply = try server.raw(method, path, body: json.serialized(), headers: contentType.map { [("Content-Type", $0)] } ?? [])
        } else {
            reply = try server.request(method, path, json: json)
        }
        XCTAssertEqual(reply.status, status, reply.text, file: file, line: line)
        XCTAssertEqual(reply.errorCode, code, reply.text, file: file, line: line)
        XCTAssertEqual(reply.errorField, field, reply.text, file: file, line: line)
        XCTAssertEqual(reply["error.status"], .integer(Int64(status)), file: file, line: line)
        XCTAssertFalse(reply["error.message"]?.stringValue?.isEmpty ?? true, file: file, line: line)
        XCTAssertEqual(reply.header("content-type"), "application/json", file: file, line: line)
        let after = try server.request("GET", "/v1/stacks/s")
        XCTAssertEqual(after.json, before.json, "a rejected request changed the stack", file: file, line: line)
    }

    func testMalformedJSONNamesLineAndColumn() throws {
        try expect("POST", "/v1/stacks/s/rows", raw: Array("{\n  \"rows\": [\n".utf8), status: 400, code: "malformed_json", field: nil)
        let reply = try server.raw("POST", "/v1/stacks/s/rows", body: Array("{\"rows\": [}".utf8), headers: [("Content-Type", "application/json")])
        XCTAssertTrue(reply["error.message"]?.stringValue?.contains("line 1, column") ?? false, reply.text)
        try expect("POST", "/v1/stacks/s/rows", raw: [], status: 400, code: "malformed_json", field: nil)
    }

    func testBadQueryParameters() throws {
        try expect("GET", "/v1/stacks/s/layout?offset=abc", status: 400, code: "bad_query_parameter", field: "offset")
        try expect("GET", "/v1/stacks/s/layout?window=some", status: 400, code: "bad_query_parameter", field: "window")
        try expect("GET", "/v1/stacks/s/layout?width=-1", status: 400, code: "bad_query_parameter", field: "width")
        try expect("GET", "/v1/stacks/s/layout?zoom=2", status: 400, code: "bad_query_parameter", field: "zoom")
        try expect("GET", "/v1/stacks/s/hit?x=1", status: 400, code: "bad_query_parameter", field: "y")
        try expect("GET", "/v1/stacks/s/rows?first=maybe", status: 400, code: "bad_query_parameter", field: "first")
    }

    func testRuleViolationsAre422WithTheirField() throws {
        let rows = "/v1/stacks/s/rows"
        try expect("POST", rows, json: object(("rows", [row("x"), object(("id", "y"), ("view", object(("type", "V"))), ("size", object(("fixed", -1))))])),
                   status: 422, code: "invalid_value", field: "rows[1].size.fixed")
        try expect("POST", rows, json: object(("rows", [object(("id", "y"), ("view", object(("type", "V"))), ("size", object(("fixed", "tall"))))])),
                   status: 422, code: "wrong_type", field: "rows[0].size.fixed")
        try expect("POST", rows, json: object(("rows", [object(("id", "y"), ("view", object(("type", "V"))))])),
                   status: 422, code: "missing_field", field: "rows[0].size")
        try expect("POST", rows, json: object(("rows", [object(("id", "y"), ("size", object(("fixed", 1))))])),
                   status: 422, code: "missing_field", field: "rows[0].controller")
        try expect("POST", rows, json: object(("rows", [object(("id", "y"), ("view", object(("type", "V"))), ("size", "fit"))])),
                   status: 422, code: "invalid_value", field: "rows[0].content")
        try expect("POST", rows, json: object(("rows", [object(("id", "y"), ("view", object(("type", "V"))), ("size", object(("fixed", 1))), ("colour", "red"))])),
                   status: 422, code: "unknown_field", field: "rows[0].colour")
        try expect("POST", rows, json: object(("rows", [row("x")]), ("at", object(("index", 3)))), status: 422, code: "index_out_of_range", field: "at.index")
        try expect("POST", rows, json: object(("rows", [row("x")]), ("at", object(("before", "nope")))), status: 422, code: "unknown_row", field: "at.before")
        try expect("POST", rows, json: object(("rows", [])), status: 422, code: "empty_batch", field: "rows")
        try expect("POST", rows, json: object(("rows", "x")), status: 422, code: "wrong_type", field: "rows")
        try expect("POST", rows, json: object(("rows", [object(("id", "y"), ("view", object(("type", "V"))), ("size", object(("fixed", .null))))])),
                   status: 422, code: "missing_field", field: "rows[0].size.fixed")
        try expect("POST", "/v1/stacks/s/rows/a/move", json: object(("to", 2)), status: 422, code: "index_out_of_range", field: "to")
        try expect("POST", "/v1/stacks/s/rows/a/move", json: object(("to", 1.5)), status: 422, code: "wrong_type", field: "to")
        try expect("POST", "/v1/stacks/s/rows/batch", json: object(("op", "hide"), ("rows", ["a", "zz"])), status: 422, code: "unknown_row", field: "rows[1]")
        try expect("POST", "/v1/stacks/s/rows/batch", json: object(("op", "remove"), ("rows", ["a", 0])), status: 422, code: "invalid_value", field: "rows[1]")
        try expect("POST", "/v1/stacks/s/rows/batch", json: object(("op", "fold"), ("rows", ["a"])), status: 422, code: "invalid_value", field: "op")
        try expect("POST", "/v1/stacks/s/rows/batch", json: object(("op", "insets"), ("rows", ["a"])), status: 422, code: "missing_field", field: "insets")
        try expect("PATCH", "/v1/stacks/s", json: object(("viewport", object(("width", -3)))), status: 422, code: "invalid_value", field: "viewport.width")
        try expect("PATCH", "/v1/stacks/s", json: object(("separator", object(("color", "blue")))), status: 422, code: "invalid_value", field: "separator.color")
        try expect("PATCH", "/v1/stacks/s", json: object(("axis", "diagonal")), status: 422, code: "invalid_value", field: "axis")
        try expect("PATCH", "/v1/stacks/s", json: object(), status: 422, code: "invalid_value", field: nil)
        try expect("PATCH", "/v1/stacks/s/rows/a", json: object(("insets", object(("top", -1)))), status: 422, code: "invalid_value", field: "insets.top")
        try expect("PATCH", "/v1/stacks/s/rows/a", json: object(("size", "fit")), status: 422, code: "invalid_value", field: "content")
        try expect("POST", "/v1/stacks/s/scroll", json: object(("to", "top"), ("row", "a")), status: 422, code: "invalid_value", field: "to")
        try expect("POST", "/v1/stacks/s/scroll", json: object(("row", "zz")), status: 422, code: "unknown_row", field: "row")
        try expect("POST", "/v1/stacks", json: object(("id", "has space")), status: 422, code: "invalid_value", field: "id")
        try expect("POST", "/v1/stacks/s/rows", json: .array([]), status: 422, code: "wrong_type", field: nil)
        // null only means something where the API says so (clearing an override).
        try expect("POST", "/v1/stacks/s/scroll", json: object(("offset", object(("y", .null)))), status: 422, code: "wrong_type", field: "offset.y")
        try expect("PATCH", "/v1/stacks/s", json: object(("separator", object(("color", .null)))), status: 422, code: "wrong_type", field: "separator.color")
        // Numbers have sane bounds, so sums never overflow.
        try expect("PATCH", "/v1/stacks/s", json: object(("spacing", 2e9)), status: 422, code: "invalid_value", field: "spacing")
        try expect("POST", "/v1/stacks/s/scroll", json: object(("offset", object(("y", 1e16)))), status: 422, code: "invalid_value", field: "offset.y")
        // Integers beyond 64 bits are a parser limit: 400 with line and column.
        try expect("POST", "/v1/stacks/s/rows/a/move", raw: Array(#"{"to": 99999999999999999999}"#.utf8), status: 400, code: "malformed_json", field: nil)
    }

    func testNotFound() throws {
        try expect("GET", "/v1/stacks/nope", status: 404, code: "stack_not_found", field: nil)
        try expect("POST", "/v1/stacks/nope/rows", json: object(("rows", [row("x")])), status: 404, code: "stack_not_found", field: nil)
        try expect("GET", "/v1/stacks/s/rows/nope", status: 404, code: "row_not_found", field: nil)
        try expect("GET", "/v1/stacks/s/rows/at/2", status: 404, code: "row_not_found", field: nil)
        try expect("PATCH", "/v1/stacks/s/rows/nope", json: object(("hidden", true)), status: 404, code: "row_not_found", field: nil)
        try expect("DELETE", "/v1/stacks/s/rows/nope", status: 404, code: "row_not_found", field: nil)
        try expect("GET", "/v2/anything", status: 404, code: "route_not_found", field: nil)
    }

    func testMethodNotAllowedListsAllow() throws {
        let reply = try server.request("PUT", "/v1/stacks")
        XCTAssertEqual(reply.status, 405)
        XCTAssertEqual(reply.header("allow"), "GET, HEAD, POST, OPTIONS")
        XCTAssertEqual(reply.errorCode, "method_not_allowed")
        XCTAssertEqual(try server.request("POST", "/v1/stacks/s/layout").header("allow"), "GET, HEAD, OPTIONS")
    }

    /// Regressions found by fuzzing the API.
    func testFuzzedInputs() throws {
        // %00 in a path is refused: it must not cut the path short and reach another resource.
        XCTAssertEqual(try server.request("DELETE", "/v1/stacks/s%00/rows/x").errorCode, "bad_request")
        XCTAssertEqual(try server.request("DELETE", "/v1/stacks/s/rows/a%00b").errorCode, "bad_request")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s")["rows"]?.arrayValue?.count, 2, "nothing was removed")
        // Integer query parameters are integers, in range; no trap on huge values.
        for query in ["limit=1e300", "after=-1e300", "after=1e19", "after=0.5", "limit=0"] {
            let reply = try server.request("GET", "/v1/stacks/s/events?" + query)
            XCTAssertEqual(reply.status, 400, query)
            XCTAssertEqual(reply.errorCode, "bad_query_parameter", query)
        }
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s/events?after=1e300", headers: [("Accept", "text/event-stream")]).status, 400)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s?revision=1e300").status, 400)
        // Layout overrides are bounded like the settings they override.
        try expect("GET", "/v1/stacks/s/layout?width=2e9", status: 400, code: "bad_query_parameter", field: "width")
        try expect("GET", "/v1/stacks/s/layout?offset=1e300", status: 400, code: "bad_query_parameter", field: "offset")
        // A bad query is a 400 even with a matching If-None-Match.
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s/layout?window=bogus", headers: [("If-None-Match", "*")]).status, 400)
        // HEAD is answered like GET, without a body.
        let head = try server.request("HEAD", "/healthz")
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.body, [])
    }

    func testPartialFractionsStayStrictlyBetweenZeroAndOne() throws {
        for y in [1e-7, 67.9999999] {
            let reply = try server.request("POST", "/v1/layout", json: object(("offset", object(("x", 0), ("y", .real(y)))),
                                                                                ("rows", [row("a", 44)])))
            XCTAssertEqual(reply["rows[0].visibility"], "partial", "y = \(y)")
            let fraction = reply["rows[0].visibleFraction"]?.doubleValue ?? -1
            XCTAssertTrue(fraction > 0 && fraction < 1, "y = \(y): \(fraction)")
        }
    }

    func testDuplicateIdsAre409() throws {
        try expect("POST", "/v1/stacks", json: object(("id", "s")), status: 409, code: "duplicate_id", field: "id")
        try expect("POST", "/v1/stacks/s/rows", json: object(("rows", [row("a")])), status: 409, code: "duplicate_id", field: "rows[0].id")
        try expect("POST", "/v1/stacks/s/rows", json: object(("rows", [row("x"), row("x")])), status: 409, code: "duplicate_id", field: "rows[1].id")
        try expect("PUT", "/v1/stacks/s/rows/a", json: row("b"), status: 409, code: "duplicate_id", field: "id")
    }

    func testNotJSONIs415() throws {
        try expect("POST", "/v1/stacks/s/rows", json: object(("rows", [row("x")])), contentType: "application/x-www-form-urlencoded",
                   status: 415, code: "unsupported_media_type", field: nil)
        try expect("POST", "/v1/stacks/s/rows", json: object(("rows", [row("x")])), contentType: nil,
                   status: 415, code: "unsupported_media_type", field: nil)
        let withCharset = try server.raw("POST", "/v1/stacks/s/rows", body: object(("rows", [row("x")])).serialized(),
                                         headers: [("Content-Type", "application/json; charset=utf-8")])
        XCTAssertEqual(withCharset.status, 200, withCharset.text)
    }
}
