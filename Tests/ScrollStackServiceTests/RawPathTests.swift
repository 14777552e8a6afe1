import Foundation
import JSONCodec
import MicroHTTP
import ScrollStackCore
@testable import ScrollStackService
@testable import ScrollStackStore
import TestHTTPClient
import XCTest

/// Paths are routed as received and each segment decoded on its own.
final class RawPathTests: XCTestCase {
    func testARowWhoseIdHoldsASlashIsReachedWithAnEncodedSlash() throws {
        let server = try ServerHarness()
        defer { server.stop() }
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: object(("id", "s"), ("rows", [row("a/b"), row("a"), row("50%"), row("batch")]))).status, 201)

        let read = try server.request("GET", "/v1/stacks/s/rows/a%2Fb")
        XCTAssertEqual(read.status, 200, read.text)
        XCTAssertEqual(read["id"]?.stringValue, "a/b")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s/rows/a%2fb").status, 200, "either case of hex digits")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s/rows/50%25")["id"]?.stringValue, "50%")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s/rows/%62atch")["id"]?.stringValue, "batch", "a row named like a literal, encoded")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s/rows/a/b").errorCode, "route_not_found", "a raw slash separates")

        let patched = try server.request("PATCH", "/v1/stacks/s/rows/a%2Fb", json: object(("hidden", .bool(true))))
        XCTAssertEqual(patched.status, 200, patched.text)
        XCTAssertEqual(patched["changed[0].id"]?.stringValue, "a/b")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s/rows/a")["hidden"], .bool(false), "the row `a` is untouched")

        let removed = try server.request("DELETE", "/v1/stacks/s/rows/a%2Fb")
        XCTAssertEqual(removed.status, 200, removed.text)
        XCTAssertEqual(removed["removed[0].id"]?.stringValue, "a/b")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s/rows/a%2Fb").errorCode, "row_not_found")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s/rows/a").status, 200, "the row `a` is still there")
    }

    /// The journal keeps raw paths, so a restart replays `a%2Fb` to the same row.
    func testRestartReplaysEncodedSlashes() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ssraw-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let before: [UInt8]
        do {
            let service = StackService(journal: try StackJournal(path: path))
            XCTAssertEqual(try service.restore(), 0)
            XCTAssertEqual(call(service, "POST", "/v1/stacks", object(("id", "s"), ("rows", [row("a/b"), row("a%41")]))).status, 201)
            XCTAssertEqual(call(service, "PATCH", "/v1/stacks/s/rows/a%2Fb", object(("hidden", .bool(true)))).status, 200)
            XCTAssertEqual(call(service, "PATCH", "/v1/stacks/s/rows/a%2541", object(("hidden", .bool(true)))).status, 200)
            before = call(service, "GET", "/v1/stacks/s").body
        }
        let restarted = StackService(journal: try StackJournal(path: path))
        XCTAssertEqual(try restarted.restore(), 1)
        XCTAssertEqual(String(decoding: call(restarted, "GET", "/v1/stacks/s").body, as: UTF8.self), String(decoding: before, as: UTF8.self))
    }

    private func call(_ service: StackService, _ method: String, _ path: String, _ body: JSON? = nil) -> HTTPResponse {
        service.handle(HTTPRequest(method: method, path: path, headers: body == nil ? [] : [("Content-Type", "application/json")],
                                   body: body?.serialized() ?? []))
    }
}
