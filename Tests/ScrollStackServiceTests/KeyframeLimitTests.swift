import Jansson
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
