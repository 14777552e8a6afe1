import Foundation
import JSONCodec
import TestHTTPClient
import XCTest

/// `PUT /v1/stacks/{stack}` (create or replace the whole stack) and
/// `POST /v1/stacks/{stack}/copy` over HTTP, on a server and across a daemon's restart.
final class StackDocumentTests: XCTestCase {
    var harness: ServerHarness!

    override func setUpWithError() throws { harness = try ServerHarness() }
    override func tearDown() { harness.stop() }

    static let first = object(("spacing", 4), ("rows", [row("a"), row("b", 60)]))
    static let second = object(("id", "doc"), ("axis", "horizontal"), ("rows", [row("x", 10), row("y", 20), row("z", 30)]))

    func ids(_ reply: Reply) -> [String] { reply["rows"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? [] }

    func testPutCreatesThenReplacesAsOneRevision() throws {
        let created = try harness.request("PUT", "/v1/stacks/doc", json: Self.first)
        XCTAssertEqual(created.status, 201, created.text)
        XCTAssertEqual(created.header("location"), "/v1/stacks/doc")
        XCTAssertEqual(created.header("etag"), "\"1\"")
        XCTAssertEqual(ids(created), ["a", "b"])

        let replaced = try harness.request("PUT", "/v1/stacks/doc", json: Self.second, headers: [("If-Match", "\"1\"")])
        XCTAssertEqual(replaced.status, 200, replaced.text)
        XCTAssertEqual(replaced["revision"], 2)
        XCTAssertEqual(replaced.header("etag"), "\"2\"")
        let now = try harness.request("GET", "/v1/stacks/doc")
        XCTAssertEqual(ids(now), ["x", "y", "z"])
        XCTAssertEqual(now["axis"]?.stringValue, "horizontal")
        XCTAssertEqual(now["spacing"], 0, "what the body leaves out is the default, not the old value")
        // One revision in the history, and the old document is still revision 1.
        let events = try harness.request("GET", "/v1/stacks/doc/events")
        XCTAssertEqual(Set(events["events"]?.arrayValue?.compactMap { $0["revision"]?.doubleValue } ?? []), [2])
        XCTAssertEqual(ids(try harness.request("GET", "/v1/stacks/doc?revision=1")), ["a", "b"])

        // Conditions: a stale If-Match, create-only on an existing stack, If-Match on a missing one.
        let stale = try harness.request("PUT", "/v1/stacks/doc", json: Self.first, headers: [("If-Match", "\"1\"")])
        XCTAssertEqual(stale.status, 412)
        XCTAssertEqual(stale.header("etag"), "\"2\"")
        let exists = try harness.request("PUT", "/v1/stacks/doc", json: Self.first, headers: [("If-None-Match", "*")])
        XCTAssertEqual(exists.status, 412)
        XCTAssertEqual(exists.errorCode, "precondition_failed")
        XCTAssertEqual(try harness.request("PUT", "/v1/stacks/missing", json: Self.first, headers: [("If-Match", "*")]).status, 412)
        XCTAssertEqual(try harness.request("GET", "/v1/stacks/missing").status, 404)
        XCTAssertEqual(try harness.request("PUT", "/v1/stacks/fresh", json: Self.first, headers: [("If-None-Match", "*")]).status, 201)
        XCTAssertEqual(try harness.request("GET", "/v1/stacks/doc")["revision"], 2, "refused PUTs changed nothing")

        // Bad input: another id in the body, another If-None-Match, a bad document.
        let otherID = try harness.request("PUT", "/v1/stacks/doc", json: object(("id", "else")))
        XCTAssertEqual(otherID.status, 422)
        XCTAssertEqual(otherID.errorField, "id")
        XCTAssertEqual(try harness.request("PUT", "/v1/stacks/doc", json: Self.first, headers: [("If-None-Match", "\"2\"")]).errorCode, "bad_header")
        let bad = try harness.request("PUT", "/v1/stacks/doc", json: object(("spacing", "wide"), ("rows", [row("a")])))
        XCTAssertEqual(bad.status, 422, bad.text)
        XCTAssertEqual(try harness.request("GET", "/v1/stacks/doc")["revision"], 2)
        XCTAssertEqual(try harness.request("PUT", "/v1/stacks/bad%20id", json: Self.first).status, 422)

        // A minimal answer, as for other writes.
        let quiet = try harness.request("PUT", "/v1/stacks/doc", json: Self.first, headers: [("Prefer", "return=minimal")])
        XCTAssertEqual(quiet.json, object(("id", "doc"), ("revision", 3)))
    }

    func testCopyAtARevision() throws {
        XCTAssertEqual(try harness.request("PUT", "/v1/stacks/doc", json: Self.first).status, 201)
        XCTAssertEqual(try harness.request("PUT", "/v1/stacks/doc", json: Self.second).status, 200)
        let past = try harness.request("POST", "/v1/stacks/doc/copy", json: object(("id", "then"), ("revision", 1)))
        XCTAssertEqual(past.status, 201, past.text)
        XCTAssertEqual(past.header("location"), "/v1/stacks/then")
        XCTAssertEqual(past["revision"], 1)
        XCTAssertEqual(ids(past), ["a", "b"])
        XCTAssertEqual(try harness.request("GET", "/v1/stacks/then")["spacing"], 4)
        let current = try harness.request("POST", "/v1/stacks/doc/copy", json: object())
        XCTAssertEqual(current.status, 201)
        let generated = try XCTUnwrap(current["id"]?.stringValue)
        XCTAssertEqual(ids(try harness.request("GET", "/v1/stacks/\(generated)")), ["x", "y", "z"])
        // The copy has a history of its own: changing it leaves the source alone.
        XCTAssertEqual(try harness.request("DELETE", "/v1/stacks/then/rows/a").status, 200)
        XCTAssertEqual(ids(try harness.request("GET", "/v1/stacks/doc?revision=1")), ["a", "b"])

        XCTAssertEqual(try harness.request("POST", "/v1/stacks/doc/copy", json: object(("revision", 9))).errorCode, "revision_not_found")
        XCTAssertEqual(try harness.request("POST", "/v1/stacks/doc/copy", json: object(("id", "then"))).errorCode, "duplicate_id")
        XCTAssertEqual(try harness.request("POST", "/v1/stacks/nope/copy", json: object()).errorCode, "stack_not_found")
        XCTAssertEqual(try harness.request("POST", "/v1/stacks/doc/copy", json: object(("at", 1))).errorCode, "unknown_field")
    }

    func testReplaceAndCopySurviveARestart() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ssdocument-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let arguments = ["--data-dir", directory.appendingPathComponent("data").path, "--log-level", "notice"]
        let json = [("Content-Type", "application/json")]
        let daemon = try Daemon.start(arguments)
        XCTAssertEqual(try httpRequest(port: daemon.port, method: "PUT", path: "/v1/stacks/doc", headers: json, body: Self.first.serialized()).status, 201)
        XCTAssertEqual(try httpRequest(port: daemon.port, method: "PUT", path: "/v1/stacks/doc", headers: json, body: Self.second.serialized()).status, 200)
        XCTAssertEqual(try httpRequest(port: daemon.port, method: "POST", path: "/v1/stacks/doc/copy", headers: json,
                                       body: object(("id", "then"), ("revision", 1)).serialized()).status, 201)
        let before = try httpRequest(port: daemon.port, method: "GET", path: "/v1/stacks/doc").body
        XCTAssertEqual(try daemon.stop(), 0)

        let again = try Daemon.start(arguments)
        defer { _ = try? again.stop() }
        let doc = Reply(try httpRequest(port: again.port, method: "GET", path: "/v1/stacks/doc"))
        XCTAssertEqual(doc.status, 200)
        XCTAssertTrue(doc.body == before, "the replaced stack reads back the same")
        XCTAssertEqual(doc["revision"], 2)
        XCTAssertEqual(ids(doc), ["x", "y", "z"])
        XCTAssertEqual(ids(Reply(try httpRequest(port: again.port, method: "GET", path: "/v1/stacks/doc?revision=1"))), ["a", "b"])
        let copy = Reply(try httpRequest(port: again.port, method: "GET", path: "/v1/stacks/then"))
        XCTAssertEqual(copy["revision"], 1)
        XCTAssertEqual(ids(copy), ["a", "b"])
    }
}
