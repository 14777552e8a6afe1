import Foundation
import JSONCodec
import MicroHTTP
import ScrollStackService
import ScrollStackStore
import TestHTTPClient
import XCTest

/// Piles over HTTP: every operation, its plan, its errors, revisions and durability.
final class PileEndpointTests: XCTestCase {
    var server: ServerHarness!

    override func setUpWithError() throws { server = try ServerHarness() }
    override func tearDown() { server.stop() }

    func card(_ id: String) -> JSON { object(("id", .string(id)), ("view", object(("type", "Card")))) }

    func makePile(_ extra: [(String, JSON)] = []) throws -> Reply {
        let reply = try server.request("POST", "/v1/piles", json: .object(JSONObject([("id", "p"), ("bounds", object(("width", 320), ("height", 480)))] + extra)))
        XCTAssertEqual(reply.status, 201, reply.text)
        return reply
    }

    func testPushPopSetUpdateWithPlans() throws {
        let created = try makePile()
        XCTAssertEqual(created["metrics.leading.relativeOffset.y"]?.doubleValue, -1)
        XCTAssertEqual(created["animation.duration"]?.doubleValue, 0.6)
        XCTAssertEqual(created.header("location"), "/v1/piles/p")
        XCTAssertEqual(try server.request("POST", "/v1/piles/p/push", json: card("a")).status, 200)
        let pushed = try server.request("POST", "/v1/piles/p/push", json: object(("id", "b"), ("controller", object(("type", "Detail"))), ("animation", true)))
        XCTAssertEqual(pushed.status, 200, pushed.text)
        XCTAssertEqual(pushed["revision"]?.int64Value, 3)
        XCTAssertEqual(pushed["pile.active"]?.stringValue, "b")
        XCTAssertEqual(pushed["pile.views[1].frame.y"]?.doubleValue, 0)
        XCTAssertEqual(pushed["transition.timing.damping"]?.doubleValue, 0.6)
        XCTAssertEqual(pushed["transition.views[0].id"]?.stringValue, "a")
        XCTAssertEqual(pushed["transition.views[0].to.frame.y"]?.doubleValue, 480, "a goes to trailing")
        XCTAssertEqual(pushed["transition.views[1].from.frame.y"]?.doubleValue, -480, "b comes from leading")
        XCTAssertEqual(pushed["transition.views[1].from.alpha"]?.doubleValue, 0)
        XCTAssertEqual(pushed["events[0].type"]?.stringValue, "viewPushed")

        let popped = try server.request("POST", "/v1/piles/p/pop?fps=30", json: object(("animation", object(("duration", 0.3)))))
        XCTAssertEqual(popped.status, 200, popped.text)
        XCTAssertEqual(popped["transition.views[0].to.frame.y"]?.doubleValue, -480, "the top goes to leading")
        XCTAssertEqual(popped["transition.views[0].removed"]?.boolValue, true)
        XCTAssertEqual(popped["transition.timing.duration"]?.doubleValue, 0.3)
        XCTAssertEqual(popped["transition.keyframes"]?.arrayValue?.last?["views"]?.arrayValue?[1]["frame"]?["y"]?.doubleValue, 0)
        XCTAssertEqual(try server.request("GET", "/v1/piles/p/transitions/4?fps=30").json, popped["transition"])

        let set = try server.request("POST", "/v1/piles/p/set", json: object(("views", .array([card("x"), card("y")]))))
        XCTAssertEqual(set["pile.views"]?.arrayValue?.count, 2)
        XCTAssertNil(set["transition"])
        let updated = try server.request("POST", "/v1/piles/p/update", json: object(("id", "x"), ("controller", object(("type", "Other")))))
        XCTAssertEqual(updated["pile.views[0].controller.type"]?.stringValue, "Other")
        let history = try server.request("GET", "/v1/piles/p/events")
        XCTAssertEqual(history["events"]?.arrayValue?.compactMap { $0["type"]?.stringValue }.filter { $0 != "activeChanged" },
                       ["viewPushed", "viewPushed", "viewPopped", "viewsSet", "viewUpdated"])
        let list = try server.request("GET", "/v1/piles")
        XCTAssertEqual(list.json?.arrayValue?.first?["viewCount"]?.int64Value, 2)
    }

    func testCustomMetricsShapeThePlan() throws {
        _ = try makePile([("metrics", object(("leading", object(("relativeOffset", object(("x", 1), ("y", 0))), ("scale", 0.5))))),
                          ("animation", object(("duration", 1), ("damping", 1)))])
        let pushed = try server.request("POST", "/v1/piles/p/push", json: object(("view", object(("type", "Card"))), ("animation", true)))
        XCTAssertEqual(pushed["transition.views[0].from.frame.x"]?.doubleValue, 320)
        XCTAssertEqual(pushed["transition.views[0].from.frame.y"]?.doubleValue, 0)
        XCTAssertEqual(pushed["transition.views[0].from.scale"]?.doubleValue, 0.5)
        XCTAssertEqual(pushed["transition.timing.duration"]?.doubleValue, 1, "the pile's own default animation")
        XCTAssertEqual(pushed["transition.timing.damping"]?.doubleValue, 1)
        XCTAssertEqual(pushed["pile.views[0].id"]?.stringValue?.hasPrefix("v-"), true)
    }

    func testErrors() throws {
        _ = try makePile()
        let emptyPop = try server.request("POST", "/v1/piles/p/pop")
        XCTAssertEqual(emptyPop.status, 409)
        XCTAssertEqual(emptyPop.errorCode, "pile_empty")
        let emptyUpdate = try server.request("POST", "/v1/piles/p/update", json: object(("view", object(("type", "V")))))
        XCTAssertEqual(emptyUpdate.status, 409, emptyUpdate.text)
        XCTAssertEqual(emptyUpdate.errorCode, "pile_empty")
        _ = try server.request("POST", "/v1/piles/p/push", json: card("a"))
        XCTAssertEqual(try server.request("POST", "/v1/piles/p/pop").errorCode, "pile_last_view")
        let unknown = try server.request("POST", "/v1/piles/p/update", json: object(("id", "zz"), ("view", object(("type", "V")))))
        XCTAssertEqual(unknown.status, 422)
        XCTAssertEqual(unknown.errorCode, "unknown_view")
        XCTAssertEqual(unknown.errorField, "id")
        // Without an id, an update changes the active view (here "a", the only one).
        let active = try server.request("POST", "/v1/piles/p/update", json: object(("view", object(("type", "Grid")))))
        XCTAssertEqual(active.status, 200, active.text)
        XCTAssertEqual(active["pile.views[0].id"]?.stringValue, "a")
        XCTAssertEqual(active["pile.views[0].view.type"]?.stringValue, "Grid")
        XCTAssertEqual(active["events[0].type"]?.stringValue, "viewUpdated")
        let emptyID = try server.request("POST", "/v1/piles/p/update", json: object(("id", ""), ("view", object(("type", "V")))))
        XCTAssertEqual(emptyID.status, 422)
        XCTAssertEqual(emptyID.errorField, "id")
        XCTAssertEqual(try server.request("POST", "/v1/piles/p/push", json: card("a")).errorCode, "duplicate_id")
        XCTAssertEqual(try server.request("POST", "/v1/piles/p/push", json: object(("id", "q"))).errorField, "controller")
        XCTAssertEqual(try server.request("POST", "/v1/piles/p/push").errorCode, "unsupported_media_type")
        XCTAssertEqual(try server.raw("POST", "/v1/piles/p/push", body: [], headers: [("Content-Type", "application/json")]).errorCode, "malformed_json")
        XCTAssertEqual(try server.request("POST", "/v1/piles/p/push", json: object(("view", object(("type", "V"))), ("animation", object(("damping", 0))))).errorField,
                       "animation.damping")
        let stale = try server.request("POST", "/v1/piles/p/push", json: card("c"), headers: [("If-Match", "\"1\"")])
        XCTAssertEqual(stale.status, 412)
        XCTAssertEqual(stale["error.message"]?.stringValue?.contains("the pile's revision"), true, "a pile's 412 names the pile")
        XCTAssertEqual(try server.request("POST", "/v1/piles/nope/pop").errorCode, "pile_not_found")
        let badMetrics: [(JSON, String)] = [
            (object(("active", object(("alpha", 1.5)))), "metrics.active.alpha"),
            (object(("leading", object(("scale", -1)))), "metrics.leading.scale"),
            (object(("trailing", object(("insets", object(("left", 200), ("right", 200)))))), "metrics.trailing.insets"),
            (object(("sideways", object())), "metrics.sideways"),
        ]
        for (metrics, field) in badMetrics {
            let reply = try server.request("POST", "/v1/piles", json: object(("id", "q"), ("bounds", object(("width", 320), ("height", 480))), ("metrics", metrics)))
            XCTAssertEqual(reply.status, 422, reply.text)
            XCTAssertEqual(reply.errorField, field, reply.text)
        }
        XCTAssertEqual(try server.request("POST", "/v1/piles", json: object(("id", "q"))).errorField, "bounds")
        XCTAssertEqual(try server.request("POST", "/v1/piles", json: object(("bounds", object(("width", -1), ("height", 1))))).errorField, "bounds.width")
        XCTAssertEqual(try server.request("GET", "/v1/piles/p")["revision"]?.int64Value, 3, "no failed request made a revision (the push and the update did)")
        XCTAssertEqual(try server.request("GET", "/v1/piles/p/transitions/1").errorCode, "transition_not_found")
        XCTAssertEqual(try server.request("DELETE", "/v1/piles/p").status, 204)
        XCTAssertEqual(try server.request("GET", "/v1/piles/p").status, 404)
    }

    func testRestartKeepsPilesAndPlans() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("piles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("journal.sqlite").path
        func call(_ service: StackService, _ method: String, _ path: String, _ body: JSON? = nil) -> JSON? {
            let response = service.handle(HTTPRequest(method: method, path: path, headers: body == nil ? [] : [("Content-Type", "application/json")],
                                                      body: body?.serialized() ?? []))
            return try? JSON.parse(response.body)
        }
        let service = StackService(journal: try StackJournal(path: path, snapshotInterval: 2))
        XCTAssertEqual(try service.restore(), 0)
        _ = call(service, "POST", "/v1/stacks", object(("id", "s")))
        _ = call(service, "POST", "/v1/piles", object(("id", "p"), ("bounds", object(("width", 100), ("height", 200)))))
        for _ in 0..<3 { _ = call(service, "POST", "/v1/piles/p/push", object(("view", object(("type", "Card"))), ("animation", true))) }
        let popped = call(service, "POST", "/v1/piles/p/pop", object(("animation", true)))
        let before = call(service, "GET", "/v1/piles/p")
        let restarted = StackService(journal: try StackJournal(path: path, snapshotInterval: 2))
        XCTAssertEqual(try restarted.restore(), 2, "one stack and one pile")
        XCTAssertEqual(call(restarted, "GET", "/v1/piles/p"), before)
        XCTAssertEqual(call(restarted, "GET", "/v1/piles/p/transitions/5"), popped?["transition"])
        XCTAssertEqual(call(restarted, "POST", "/v1/piles/p/pop")?["revision"]?.int64Value, 6)
    }

    /// Live events: the backlog after Last-Event-ID, then each new revision, once, in order.
    func testLiveEventsAndConditionalReads() throws {
        _ = try makePile()
        _ = try server.request("POST", "/v1/piles/p/push", json: card("a"))
        let connection = try TestHTTPConnection(port: server.port, timeout: 10)
        try connection.sendRaw(Array("GET /v1/piles/p/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\nLast-Event-ID: 1\r\n\r\n".utf8))
        let (status, _) = try connection.readHead()
        XCTAssertEqual(status, 200)
        var buffer = ""
        func next() throws -> (id: String, data: JSON)? {
            while true {
                if let end = buffer.range(of: "\n\n") {
                    let lines = buffer[..<end.lowerBound].split(separator: "\n")
                    buffer.removeSubrange(..<end.upperBound)
                    let id = lines.first { $0.hasPrefix("id: ") }.map { String($0.dropFirst(4)) } ?? ""
                    let data = lines.first { $0.hasPrefix("data: ") }.map { String($0.dropFirst(6)) } ?? ""
                    return (id, try JSON.parse(Array(data.utf8)))
                }
                guard let chunk = try connection.readChunk() else { return nil }
                buffer += String(decoding: chunk, as: UTF8.self)
            }
        }
        let backlog = try XCTUnwrap(try next())
        XCTAssertEqual(backlog.id, "2")
        XCTAssertEqual(backlog.data["events"]?.arrayValue?.first?["type"]?.stringValue, "viewPushed")
        _ = try server.request("POST", "/v1/piles/p/push", json: card("b"))
        let live = try XCTUnwrap(try next())
        XCTAssertEqual(live.id, "3")
        XCTAssertEqual(live.data["events"]?.arrayValue?.first?["id"]?.stringValue, "b")

        let current = try server.request("GET", "/v1/piles/p", headers: [("If-None-Match", "\"3\"")])
        XCTAssertEqual(current.status, 304)
        XCTAssertEqual(try server.request("GET", "/v1/piles/p", headers: [("If-None-Match", "\"2\"")]).status, 200)
        XCTAssertEqual(try server.request("DELETE", "/v1/piles/p", headers: [("If-Match", "\"2\"")]).status, 412)
        XCTAssertEqual(try server.request("DELETE", "/v1/piles/p", headers: [("If-Match", "\"3\"")]).status, 204)
        XCTAssertNil(try next(), "deleting the pile ends its streams")
    }

}
