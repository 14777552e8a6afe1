import Foundation
import JSONCodec
import MicroHTTP
import ScrollStackService
import ScrollStackStore
import XCTest

/// Animated mutations, plans by revision and sampling, through the real server.
final class TransitionEndpointTests: XCTestCase {
    var server: ServerHarness!

    override func setUpWithError() throws {
        server = try ServerHarness()
        let rows: [JSON] = ["a", "b", "c"].map { id in
            object(("id", .string(id)), ("view", object(("type", "Label"))), ("size", object(("fixed", 40))), ("insets", object(("top", 0), ("left", 0), ("bottom", 0), ("right", 0))))
        }
        let created = try server.request("POST", "/v1/stacks", json: object(("id", "s"), ("viewport", object(("width", 320), ("height", 100))), ("rows", .array(rows))))
        XCTAssertEqual(created.status, 201, created.text)
    }

    override func tearDown() { server.stop() }

    func entry(_ reply: Reply, _ id: String, exit: Bool = false) -> JSON? {
        reply["transition.rows"]?.arrayValue?.first { $0["id"]?.stringValue == id && $0["exit"]?.boolValue == exit }
    }

    func testAnimatedInsertAnswersAPlanKeptWithItsRevision() throws {
        let body = object(("rows", .array([object(("id", "n"), ("view", object(("type", "Label"))), ("size", object(("fixed", 30))), ("insets", object(("top", 0), ("left", 0), ("bottom", 0), ("right", 0))))])),
                          ("at", object(("index", 1))), ("animation", true))
        let reply = try server.request("POST", "/v1/stacks/s/rows", json: body)
        XCTAssertEqual(reply.status, 200, reply.text)
        XCTAssertEqual(reply["transition.revision"]?.int64Value, 2)
        XCTAssertEqual(reply["transition.animated"]?.boolValue, true)
        XCTAssertEqual(reply["transition.timing.duration"]?.doubleValue, 0.25)
        XCTAssertEqual(reply["transition.timing.damping"]?.doubleValue, 0.8)
        XCTAssertEqual(reply["transition.timing.curve"]?.stringValue, "spring")
        let inserted = try XCTUnwrap(entry(reply, "n"))
        XCTAssertEqual(inserted["change"]?.stringValue, "insert")
        XCTAssertEqual(inserted["enter"]?.boolValue, true)
        XCTAssertEqual(inserted["from"]?["alpha"]?.doubleValue, 0)
        XCTAssertEqual(inserted["to"]?["alpha"]?.doubleValue, 1)
        XCTAssertEqual(inserted["to"]?["frame"]?["y"]?.doubleValue, 40)
        let b = try XCTUnwrap(entry(reply, "b"))
        XCTAssertEqual(b["change"]?.stringValue, "slide")
        XCTAssertEqual(b["from"]?["frame"]?["y"]?.doubleValue, 40)
        XCTAssertEqual(b["to"]?["frame"]?["y"]?.doubleValue, 70)
        XCTAssertNil(entry(reply, "a"), "a does not move")
        XCTAssertEqual(reply["transition.contentSize.from.height"]?.doubleValue, 120)
        XCTAssertEqual(reply["transition.contentSize.to.height"]?.doubleValue, 150)

        let kept = try server.request("GET", "/v1/stacks/s/transitions/2")
        XCTAssertEqual(kept.status, 200, kept.text)
        XCTAssertEqual(kept.json, reply["transition"])
        XCTAssertEqual(kept.header("etag"), "\"2\"")
    }

    func testSamplingAddsKeyframesUntilRest() throws {
        let reply = try server.request("POST", "/v1/stacks/s/rows/b/move?fps=60",
                                       json: object(("to", 2), ("animation", object(("duration", 0.5), ("damping", 0.5)))))
        XCTAssertEqual(reply.status, 200, reply.text)
        let frames = try XCTUnwrap(reply["transition.keyframes"]?.arrayValue)
        let rest = try XCTUnwrap(reply["transition.timing.restTime"]?.doubleValue)
        XCTAssertEqual(reply["transition.fps"]?.int64Value, 60)
        XCTAssertEqual(frames.count, Int((rest * 60).rounded(.up)) + 1)
        XCTAssertEqual(frames.first?["progress"]?.doubleValue, 0)
        XCTAssertEqual(frames.last?["progress"]?.doubleValue, 1)
        XCTAssertEqual(frames.last?["time"]?.doubleValue, rest)
        XCTAssertGreaterThan(frames.compactMap { $0["progress"]?.doubleValue }.max() ?? 0, 1.1, "damping 0.5 overshoots")
        func y(_ frame: JSON, _ id: String) -> Double? {
            frame["rows"]?.arrayValue?.first { $0["id"]?.stringValue == id }?["frame"]?["y"]?.doubleValue
        }
        XCTAssertEqual(y(frames[0], "b"), 40)
        XCTAssertEqual(y(frames.last!, "b"), 80)
        XCTAssertEqual(y(frames.last!, "c"), 40)
        // The same sampling, later, from the journal.
        let later = try server.request("GET", "/v1/stacks/s/transitions/2?fps=60")
        XCTAssertEqual(later.json, reply["transition"])
        // And a body's fps.
        let hidden = try server.request("PATCH", "/v1/stacks/s/rows/a", json: object(("hidden", true), ("fps", 30)))
        XCTAssertEqual(hidden["transition.animated"]?.boolValue, false)
        XCTAssertEqual(hidden["transition.fps"]?.int64Value, 30)
    }

    func testEveryChangeKeepsAPlanEvenUnanimated() throws {
        let reply = try server.request("DELETE", "/v1/stacks/s/rows/a")
        XCTAssertEqual(reply.status, 200, reply.text)
        XCTAssertNil(reply["transition"], "not asked for")
        let kept = try server.request("GET", "/v1/stacks/s/transitions/2")
        XCTAssertEqual(kept["animated"]?.boolValue, false)
        let removed = kept["rows"]?.arrayValue?.first { $0["id"]?.stringValue == "a" }
        XCTAssertEqual(removed?["exit"]?.boolValue, true)
        XCTAssertEqual(removed?["to"]?["frame"]?["height"]?.doubleValue, 0)

        let animated = try server.raw("DELETE", "/v1/stacks/s/rows/b", body: Array(#"{"animation": {"duration": 0.4}}"#.utf8),
                                      headers: [("Content-Type", "application/json")])
        XCTAssertEqual(animated.status, 200, animated.text)
        XCTAssertEqual(animated["transition.timing.duration"]?.doubleValue, 0.4)
        XCTAssertEqual(animated["transition.timing.damping"]?.doubleValue, 0.8)

        let scrolled = try server.request("POST", "/v1/stacks/s/scroll", json: object(("offset", object(("y", 10))), ("animation", true)))
        XCTAssertEqual(scrolled["transition.offset.to.y"]?.doubleValue, 10)
        XCTAssertEqual(scrolled["transition.rows"]?.arrayValue?.count, 0)

        let axis = try server.request("PATCH", "/v1/stacks/s", json: object(("axis", "horizontal"), ("animation", true)))
        XCTAssertEqual(axis["transition.axis.to"]?.stringValue, "horizontal")
        XCTAssertEqual(axis["transition.rows[0].change"]?.stringValue, "layout")
    }

    func testRowLooksAreStoredAndUsedByHideAndShow() throws {
        let look = object(("hide", object(("alpha", 0), ("translate", object(("x", -30))), ("scale", 0.8))))
        let patched = try server.request("PATCH", "/v1/stacks/s/rows/b", json: object(("transition", look)))
        XCTAssertEqual(patched.status, 200, patched.text)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s/rows/b")["transition.hide.scale"]?.doubleValue, 0.8)
        let hidden = try server.request("PATCH", "/v1/stacks/s/rows/b", json: object(("hidden", true), ("animation", true)))
        let b = try XCTUnwrap(entry(hidden, "b"))
        XCTAssertEqual(b["change"]?.stringValue, "hide")
        XCTAssertEqual(b["to"]?["alpha"]?.doubleValue, 0)
        XCTAssertEqual(b["to"]?["translate"]?["x"]?.doubleValue, -30)
        XCTAssertEqual(b["to"]?["frame"]?["height"]?.doubleValue, 0)
        XCTAssertEqual(b["to"]?["hidden"]?.boolValue, true)
        let bad = try server.request("PATCH", "/v1/stacks/s/rows/b", json: object(("transition", object(("show", object(("alpha", 2)))))))
        XCTAssertEqual(bad.status, 422)
        XCTAssertEqual(bad.errorField, "transition.show.alpha")
    }

    func testBadAnimationsAndUnknownTransitions() throws {
        let cases: [(JSON, String, String)] = [
            (object(("to", 1), ("animation", object(("damping", 0)))), "animation.damping", "invalid_value"),
            (object(("to", 1), ("animation", object(("damping", 1.5)))), "animation.damping", "invalid_value"),
            (object(("to", 1), ("animation", object(("duration", 0)))), "animation.duration", "invalid_value"),
            (object(("to", 1), ("animation", object(("delay", -1)))), "animation.delay", "invalid_value"),
            (object(("to", 1), ("animation", object(("speed", 1)))), "animation.speed", "unknown_field"),
            (object(("to", 1), ("animation", "yes")), "animation", "wrong_type"),
            (object(("to", 1), ("fps", 0)), "fps", "invalid_value"),
            (object(("to", 1), ("fps", 1.5)), "fps", "wrong_type"),
            (object(("to", 1), ("fps", 240), ("animation", object(("damping", 0.01), ("duration", 2)))), "fps", "invalid_value"),
        ]
        for (body, field, code) in cases {
            let reply = try server.request("POST", "/v1/stacks/s/rows/a/move", json: body)
            XCTAssertEqual(reply.status, 422, "\(body): \(reply.text)")
            XCTAssertEqual(reply.errorField, field, reply.text)
            XCTAssertEqual(reply.errorCode, code, reply.text)
        }
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s")["revision"]?.int64Value, 1, "nothing changed")
        XCTAssertEqual(try server.request("POST", "/v1/stacks/s/rows/a/move?fps=x", json: object(("to", 1))).errorField, "fps")
        let tooMany = try server.request("POST", "/v1/stacks/s/rows/a/move?fps=240", json: object(("to", 1), ("animation", object(("damping", 0.01), ("duration", 2)))))
        XCTAssertEqual(tooMany.status, 422, tooMany.text)
        XCTAssertEqual(tooMany.errorField, "fps")
        let first = try server.request("GET", "/v1/stacks/s/transitions/1")
        XCTAssertEqual(first.status, 404)
        XCTAssertEqual(first.errorCode, "transition_not_found")
        let future = try server.request("GET", "/v1/stacks/s/transitions/9")
        XCTAssertEqual(future.status, 404)
        XCTAssertEqual(future.errorCode, "revision_not_found")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/nope/transitions/2").errorCode, "stack_not_found")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s/transitions/2?frames=3").errorField, "frames")
    }

    func testRestartKeepsPlans() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("transitions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("journal.sqlite").path
        func call(_ service: StackService, _ method: String, _ path: String, _ body: JSON? = nil) -> JSON? {
            let response = service.handle(HTTPRequest(method: method, path: path, headers: body == nil ? [] : [("Content-Type", "application/json")],
                                                      body: body?.serialized() ?? []))
            return try? JSON.parse(response.body)
        }
        let service = StackService(journal: try StackJournal(path: path))
        XCTAssertEqual(try service.restore(), 0)
        _ = call(service, "POST", "/v1/stacks", object(("id", "k"), ("rows", .array([row("a"), row("b")]))))
        let answered = call(service, "POST", "/v1/stacks/k/rows/a/move", object(("to", 1), ("animation", true)))
        let restarted = StackService(journal: try StackJournal(path: path))
        XCTAssertEqual(try restarted.restore(), 1)
        XCTAssertEqual(call(restarted, "GET", "/v1/stacks/k/transitions/2"), answered?["transition"])
        XCTAssertNotNil(answered?["transition"]?["rows"])
    }
}
