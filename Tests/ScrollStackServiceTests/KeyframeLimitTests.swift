import JSONCodec
import TestHTTPClient
import XCTest

/// The keyframe limit (10,000 per plan) answers 422 `invalid_value` naming `fps` wherever
/// `fps` was given: in the body or in the query, of a mutation or of a past plan's read. A
/// `?fps=` that is not an integer in 1…240 stays 400 `bad_query_parameter`. Over real HTTP.
final class KeyframeLimitTests: XCTestCase {
    var server: ServerHarness!
    /// Under-damped and long: 240 fps samples it into far more than 10,000 keyframes.
    let slowSpring = object(("damping", 0.01), ("duration", 2))

    override func setUpWithError() throws {
        server = try ServerHarness()
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: object(("id", "s"), ("rows", [row("a"), row("b")]))).status, 201)
    }

    override func tearDown() { server.stop() }

    func assertTooManyKeyframes(_ reply: Reply, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(reply.status, 422, reply.text, file: file, line: line)
        XCTAssertEqual(reply.errorCode, "invalid_value", reply.text, file: file, line: line)
        XCTAssertEqual(reply.errorField, "fps", reply.text, file: file, line: line)
        XCTAssertTrue(reply["error.message"]?.stringValue?.contains("more than 10000") == true, reply.text, file: file, line: line)
    }

    func testTheLimitIs422InTheBodyAndInTheQuery() throws {
        assertTooManyKeyframes(try server.request("POST", "/v1/stacks/s/rows/a/move", json: object(("to", 1), ("fps", 240), ("animation", slowSpring))))
        assertTooManyKeyframes(try server.request("POST", "/v1/stacks/s/rows/a/move?fps=240", json: object(("to", 1), ("animation", slowSpring))))
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s")["revision"]?.int64Value, 1, "neither changed the stack")
        // A malformed `?fps=` is the query's own fault: 400, as for every query parameter.
        for bad in ["x", "0", "241", "1.5"] {
            let reply = try server.request("POST", "/v1/stacks/s/rows/a/move?fps=\(bad)", json: object(("to", 1)))
            XCTAssertEqual(reply.status, 400, bad)
            XCTAssertEqual(reply.errorCode, "bad_query_parameter", bad)
            XCTAssertEqual(reply.errorField, "fps", bad)
        }
    }

    func testThePlanOfAPastChangeReadAtTooHighARateIs422() throws {
        let moved = try server.request("POST", "/v1/stacks/s/rows/a/move", json: object(("to", 1), ("animation", slowSpring)))
        XCTAssertEqual(moved.status, 200, moved.text)
        assertTooManyKeyframes(try server.request("GET", "/v1/stacks/s/transitions/2?fps=240"))
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s/transitions/2?fps=1").status, 200, "a rate within the limit samples it")
    }

    /// Keyframes × the plan's rows is bounded too (`AnimationRequest.maxRowSamples`, 100,000):
    /// 300 rows hidden at once with a 41-s delay at 240 fps is about 9,840 keyframes, within the
    /// frame limit, but 2.95 million row samples (it cost 9 s of CPU and a 215-MB answer).
    func testRowSamplesAreBoundedOnAMutationAndOnARead() throws {
        let rows = JSON.array((0..<300).map { row("r\($0)", 1) })
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: object(("id", "w"), ("rows", rows))).status, 201)
        let all = JSON.array((0..<300).map { JSON.integer(Int64($0)) })
        let late = object(("delay", 41), ("duration", 0.001))
        let refused = try server.request("POST", "/v1/stacks/w/rows/batch", json: object(("op", "hide"), ("rows", all), ("animation", late), ("fps", 240)))
        XCTAssertEqual(refused.status, 422, refused.text)
        XCTAssertEqual(refused.errorCode, "invalid_value")
        XCTAssertEqual(refused.errorField, "fps")
        XCTAssertTrue(refused["error.message"]?.stringValue?.contains("300 rows") == true, refused.text)
        XCTAssertTrue(refused["error.message"]?.stringValue?.contains("more than 100000") == true, refused.text)
        let unchanged = try server.request("GET", "/v1/stacks/w")
        XCTAssertEqual(unchanged["revision"]?.int64Value, 1, "the stack did not change")
        XCTAssertEqual(unchanged["rows"]?.arrayValue?.filter { $0["hidden"]?.boolValue == true }.count, 0)

        // At 1 fps the same change is 43 keyframes (0 s to 42 s) of 300 rows: made, and sampled.
        let made = try server.request("POST", "/v1/stacks/w/rows/batch", json: object(("op", "hide"), ("rows", all), ("animation", late), ("fps", 1)))
        XCTAssertEqual(made.status, 200, made.text)
        XCTAssertEqual(made["transition.keyframes"]?.arrayValue?.count, 43)
        XCTAssertEqual(made["transition.keyframes"]?.arrayValue?.first?["rows"]?.arrayValue?.count, 300)
        // Its plan read back at 240 fps is refused the same way; at 1 fps it is the answer's.
        let reread = try server.request("GET", "/v1/stacks/w/transitions/2?fps=240")
        XCTAssertEqual(reread.status, 422, reread.text)
        XCTAssertEqual(reread.errorField, "fps")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/w/transitions/2?fps=1")["keyframes"], made["transition.keyframes"])
    }

    func testPilesFollowTheSameRuleAlsoWithoutABody() throws {
        let created = try server.request("POST", "/v1/piles", json: object(("id", "p"), ("bounds", object(("width", 320), ("height", 480))),
                                                                            ("animation", slowSpring)))
        XCTAssertEqual(created.status, 201, created.text)
        for id in ["a", "b"] {
            XCTAssertEqual(try server.request("POST", "/v1/piles/p/push", json: object(("id", .string(id)), ("view", object(("type", "V"))))).status, 200)
        }
        // The pile's own slow default spring, no body at all: checked before anything is sampled.
        assertTooManyKeyframes(try server.raw("POST", "/v1/piles/p/pop?fps=240", body: [], headers: []))
        XCTAssertEqual(try server.request("GET", "/v1/piles/p")["revision"]?.int64Value, 3, "the pop was not made")
        assertTooManyKeyframes(try server.request("POST", "/v1/piles/p/pop", json: object(("fps", 240))))
        XCTAssertEqual(try server.request("POST", "/v1/piles/p/pop").status, 200)
        assertTooManyKeyframes(try server.request("GET", "/v1/piles/p/transitions/4?fps=240"))
    }
}
