import Foundation
import JSONCodec
import Synchronization
import TestHTTPClient
import XCTest

/// ETag, If-Match (412 on a stale revision) and If-None-Match (304).
final class ConditionalRequestTests: XCTestCase {
    var server: ServerHarness!

    override func setUpWithError() throws {
        server = try ServerHarness()
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: object(("id", "s"), ("rows", [row("a")]))).status, 201)
    }

    override func tearDown() {
        server.stop()
    }

    func testIfNoneMatchAnswers304WhileCurrent() throws {
        for path in ["/v1/stacks/s", "/v1/stacks/s/rows", "/v1/stacks/s/rows/a", "/v1/stacks/s/layout?window=visible", "/v1/stacks/s/hit?x=1&y=1"] {
            let current = try server.request("GET", path, headers: [("If-None-Match", "\"1\"")])
            XCTAssertEqual(current.status, 304, path)
            XCTAssertEqual(current.body, [], path)
            XCTAssertEqual(current.header("etag"), "\"1\"", path)
            XCTAssertEqual(try server.request("GET", path, headers: [("If-None-Match", "\"0\", W/\"7\"")]).status, 200, path)
        }
        XCTAssertEqual(try server.request("PATCH", "/v1/stacks/s", json: object(("spacing", 1))).status, 200)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s", headers: [("If-None-Match", "\"1\"")]).status, 200, "stale copy")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s", headers: [("If-None-Match", "W/\"2\"")]).status, 304)
        // A past revision is compared with the revision it is, not with the current one.
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s?revision=1", headers: [("If-None-Match", "\"2\"")]).status, 200)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s?revision=1", headers: [("If-None-Match", "\"1\"")]).status, 304)
    }

    func testIfMatchRefusesAStaleRevisionAndChangesNothing() throws {
        let first = try server.request("PATCH", "/v1/stacks/s", json: object(("spacing", 4)), headers: [("If-Match", "\"1\"")])
        XCTAssertEqual(first.status, 200, first.text)
        let stale = try server.request("PATCH", "/v1/stacks/s", json: object(("spacing", 9)), headers: [("If-Match", "\"1\"")])
        XCTAssertEqual(stale.status, 412)
        XCTAssertEqual(stale.errorCode, "precondition_failed")
        XCTAssertEqual(stale["error.revision"], 2)
        XCTAssertEqual(stale.header("etag"), "\"2\"")
        let stack = try server.request("GET", "/v1/stacks/s")
        XCTAssertEqual(stack["spacing"], 4)
        XCTAssertEqual(stack["revision"], 2)
        XCTAssertEqual(try server.request("POST", "/v1/stacks/s/rows", json: object(("rows", [row("b")])), headers: [("If-Match", "*")]).status, 200)
        XCTAssertEqual(try server.request("DELETE", "/v1/stacks/s", headers: [("If-Match", "\"2\"")]).status, 412)
        XCTAssertEqual(try server.request("DELETE", "/v1/stacks/s", headers: [("If-Match", "\"3\"")]).status, 204)
    }

    /// Two clients race on one stack, each sending If-Match with the revision it last saw:
    /// every update that was acknowledged is in the stack, every loser got 412 and retried.
    func testIfMatchRacesLoseNoUpdate() throws {
        let port = server.port
        let acknowledged = Mutex<[String]>([])
        let refused = Atomic<Int>(0)
        let failures = Mutex<[String]>([])
        let group = DispatchGroup()
        for client in 0..<2 {
            group.enter()
            Thread {
                defer { group.leave() }
                do {
                    let connection = try TestHTTPConnection(port: port)
                    defer { connection.close() }
                    var revision = 1
                    var step = 0
                    while step < 100 {
                        let id = "c\(client)-\(step)"
                        let response = Reply(try connection.send(
                            method: "POST", path: "/v1/stacks/s/rows",
                            headers: [("Content-Type", "application/json"), ("If-Match", "\"\(revision)\"")],
                            body: object(("rows", [row(id)])).serialized()))
                        switch response.status {
                        case 200:
                            acknowledged.withLock { $0.append(id) }
                            revision = Int(response["revision"]?.int64Value ?? 0)
                            step += 1
                        case 412:
                            refused.add(1, ordering: .relaxed)
                            revision = Int(response["error.revision"]?.int64Value ?? 0)
                        default:
                            failures.withLock { $0.append("\(response.status) \(response.text)") }
                            return
                        }
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }.start()
        }
        XCTAssertEqual(group.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(failures.withLock { $0 }, [])
        let stack = try server.request("GET", "/v1/stacks/s")
        let ids = Set((stack["rows"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue })
        let acked = acknowledged.withLock { $0 }
        XCTAssertEqual(acked.count, 200)
        XCTAssertTrue(Set(acked).isSubset(of: ids), "an acknowledged update was lost")
        XCTAssertEqual(ids.count, 201, "exactly the acknowledged rows and the first one")
        XCTAssertEqual(stack["revision"], 201)
        print("If-Match race: \(refused.load(ordering: .relaxed)) requests refused with 412 and retried")
    }
}
