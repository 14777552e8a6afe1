import JSONCodec
import XCTest

/// Errors over HTTP for members that are valid elsewhere: the answer says what to add, or
/// where the member goes, instead of only "not a known field".
final class ErrorHintTests: XCTestCase {
    var harness: ServerHarness!

    override func setUpWithError() throws { harness = try ServerHarness() }
    override func tearDown() { harness.stop() }

    func create(_ row: JSON) throws -> Reply {
        try harness.request("POST", "/v1/stacks", json: object(("id", "s"), ("rows", [row])))
    }

    func fitRow(content: JSON) -> JSON {
        object(("id", "a"), ("controller", object(("type", "VC"))), ("content", content))
    }

    func assertError(_ reply: Reply, _ code: String, _ field: String, saying words: [String], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(reply.status, 422, reply.text, file: file, line: line)
        XCTAssertEqual(reply.errorCode, code, reply.text, file: file, line: line)
        XCTAssertEqual(reply.errorField, field, reply.text, file: file, line: line)
        let message = reply["error.message"]?.stringValue ?? ""
        for word in words { XCTAssertTrue(message.contains(word), "\(message) lacks \(word)", file: file, line: line) }
    }

    func testChildrenSpacingAndPaddingNeedStack() throws {
        let child = object(("width", 10), ("height", 10))
        for (key, value) in [("children", JSON.array([child])), ("spacing", 4), ("padding", object(("top", 2)))] {
            assertError(try create(fitRow(content: object((key, value)))), "missing_field", "rows[0].content.stack",
                        saying: ["\"\(key)\" needs \"stack\"", "vertical"])
        }
        // Nested: the path names the child.
        let nested = object(("stack", "vertical"), ("children", [object(("children", [child]))]))
        assertError(try create(fitRow(content: nested)), "missing_field", "rows[0].content.children[0].stack", saying: ["needs \"stack\""])
        // With the stack, it is accepted.
        XCTAssertEqual(try create(fitRow(content: object(("stack", "vertical"), ("children", [child])))).status, 201)
    }

    func testTextStylingNeedsText() throws {
        assertError(try create(fitRow(content: object(("width", 100), ("maxLines", 2)))), "missing_field", "rows[0].content.text",
                    saying: ["\"maxLines\" needs \"text\""])
        // Two kinds at once: which to keep.
        assertError(try create(fitRow(content: object(("stack", "vertical"), ("text", "hi")))), "invalid_value", "rows[0].content.text",
                    saying: ["one kind", "\"stack\", \"text\""])
    }

    func testDescriptorMembersOnTheRowSayWhereTheyGo() throws {
        let bare = object(("id", "a"), ("type", "VC"), ("size", object(("fixed", 44))))
        assertError(try create(bare), "missing_field", "rows[0].controller", saying: ["\"type\" goes inside a \"controller\""])
        let beside = object(("id", "a"), ("view", object(("type", "Label"))), ("props", object(("x", 1))), ("size", object(("fixed", 44))))
        assertError(try create(beside), "unknown_field", "rows[0].props", saying: ["belongs inside \"view\""])
        // The same through the rows route.
        XCTAssertEqual(try harness.request("POST", "/v1/stacks", json: object(("id", "t"))).status, 201)
        let inserted = try harness.request("POST", "/v1/stacks/t/rows", json: object(("rows", [bare])))
        assertError(inserted, "missing_field", "rows[0].controller", saying: ["goes inside"])
        // A member known nowhere still lists what is allowed.
        let typo = object(("id", "a"), ("controller", object(("type", "VC"))), ("colour", 1), ("size", object(("fixed", 44))))
        assertError(try create(typo), "unknown_field", "rows[0].colour", saying: ["expected one of"])
    }

    func testStackInsetsSayWhichOnes() throws {
        let created = try harness.request("POST", "/v1/stacks", json: object(("id", "u"), ("insets", object(("left", 8)))))
        assertError(created, "unknown_field", "insets", saying: ["\"contentInsets\"", "\"rowInsets\""])
        XCTAssertEqual(try harness.request("GET", "/v1/stacks/u").status, 404)
        XCTAssertEqual(try harness.request("POST", "/v1/stacks", json: object(("id", "u"))).status, 201)
        assertError(try harness.request("PATCH", "/v1/stacks/u", json: object(("size", object(("fixed", 3))))), "unknown_field", "size",
                    saying: ["\"viewport\""])
        XCTAssertEqual(try harness.request("GET", "/v1/stacks/u")["revision"], 1)
    }
}
