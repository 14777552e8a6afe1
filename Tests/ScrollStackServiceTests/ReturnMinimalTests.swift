import JSONCodec
import XCTest

/// `Prefer: return=minimal` on writes over HTTP: the answer identifies the result (id,
/// revision, ETag, `Location` for a create) without echoing the model.
final class ReturnMinimalTests: XCTestCase {
    var harness: ServerHarness!

    override func setUpWithError() throws { harness = try ServerHarness(maxBodyBytes: 4 << 20) }
    override func tearDown() { harness.stop() }

    static let minimal = ("Prefer", "return=minimal")

    func assertMinimal(_ reply: Reply, status: Int, id: String, revision: Int, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(reply.status, status, reply.text, file: file, line: line)
        XCTAssertEqual(reply.header("preference-applied"), "return=minimal", file: file, line: line)
        XCTAssertEqual(reply.header("etag"), "\"\(revision)\"", file: file, line: line)
        XCTAssertEqual(reply.json, object(("id", .string(id)), ("revision", .integer(Int64(revision)))), reply.text, file: file, line: line)
    }

    func testCreatingABigStackAnswersOnlyItsIdentity() throws {
        let rows = JSON.array((0..<5000).map { row("row-\($0)") })
        let created = try harness.request("POST", "/v1/stacks", json: object(("id", "big"), ("rows", rows)), headers: [Self.minimal])
        assertMinimal(created, status: 201, id: "big", revision: 1)
        XCTAssertEqual(created.header("location"), "/v1/stacks/big")
        XCTAssertLessThan(created.body.count, 40)
        // The stack was made whole.
        let read = try harness.request("GET", "/v1/stacks/big/rows/at/4999")
        XCTAssertEqual(read["id"]?.stringValue, "row-4999")
        // Without the preference (or with return=representation) the model is echoed.
        for headers in [[], [("Prefer", "return=representation")]] {
            let full = try harness.request("POST", "/v1/stacks", json: object(("rows", rows)), headers: headers)
            XCTAssertEqual(full.status, 201)
            XCTAssertNil(full.header("preference-applied"))
            XCTAssertEqual(full["rows"]?.arrayValue?.count, 5000)
        }
        // A generated id is told.
        let generated = try harness.request("POST", "/v1/stacks", json: object(("rows", [row("a")])), headers: [Self.minimal])
        let id = try XCTUnwrap(generated["id"]?.stringValue)
        assertMinimal(generated, status: 201, id: id, revision: 1)
        XCTAssertEqual(generated.header("location"), "/v1/stacks/\(id)")
    }

    func testMutationsAnswerIdAndRevision() throws {
        XCTAssertEqual(try harness.request("POST", "/v1/stacks", json: object(("id", "s"), ("rows", [row("a"), row("b")]))).status, 201)
        // The preference among others, in any case, quoted or not.
        let inserted = try harness.request("POST", "/v1/stacks/s/rows", json: object(("rows", [row("c")])),
                                           headers: [("Prefer", "respond-async, RETURN=\"minimal\"")])
        assertMinimal(inserted, status: 200, id: "s", revision: 2)
        assertMinimal(try harness.request("PATCH", "/v1/stacks/s", json: object(("spacing", 4)), headers: [Self.minimal]), status: 200, id: "s", revision: 3)
        assertMinimal(try harness.request("PUT", "/v1/stacks/s/rows/a", json: row("a", 80), headers: [Self.minimal, ("If-Match", "\"3\"")]),
                      status: 200, id: "s", revision: 4)
        // A scroll's answer would add the window: minimal leaves it out too.
        assertMinimal(try harness.request("POST", "/v1/stacks/s/scroll", json: object(("offset", object(("y", 10)))), headers: [Self.minimal]),
                      status: 200, id: "s", revision: 5)
        assertMinimal(try harness.request("DELETE", "/v1/stacks/s/rows/b", headers: [Self.minimal]), status: 200, id: "s", revision: 6)
        let stack = try harness.request("GET", "/v1/stacks/s")
        XCTAssertEqual(stack["rows"]?.arrayValue?.compactMap { $0["id"]?.stringValue }, ["a", "c"])
        XCTAssertEqual(stack["rows[0].size.fixed"], 80)
        XCTAssertEqual(stack["spacing"], 4)
        // The events were recorded as without the preference.
        let events = try harness.request("GET", "/v1/stacks/s/events")
        XCTAssertEqual(events["events"]?.arrayValue?.compactMap { $0["revision"]?.doubleValue }.last, 6)
        // Errors are errors: the preference changes nothing in them.
        let refused = try harness.request("PATCH", "/v1/stacks/s", json: object(("spacing", "wide")), headers: [Self.minimal])
        XCTAssertEqual(refused.status, 422)
        XCTAssertNil(refused.header("preference-applied"))
        let stale = try harness.request("PATCH", "/v1/stacks/s", json: object(("spacing", 2)), headers: [Self.minimal, ("If-Match", "\"1\"")])
        XCTAssertEqual(stale.status, 412)
    }
}
