import Foundation
import JSONCodec
import MicroHTTP
import ScrollStackService
import ScrollStackStore
import TestHTTPClient
import XCTest

/// Pile metrics with a 3D `transform` over HTTP: decoding and its errors, the echo, matrices in
/// plan states and keyframes, and piles without transforms answering as they always have.
final class PileTransformTests: XCTestCase {
    var server: ServerHarness!

    override func setUpWithError() throws { server = try ServerHarness() }
    override func tearDown() { server.stop() }

    func card(_ id: String) -> JSON { object(("id", .string(id)), ("view", object(("type", "Card")))) }
    func numbers(_ json: JSON?) -> [Double]? { json?.arrayValue?.compactMap(\.doubleValue) }
    let identity: [Double] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]

    func makePile(leading: JSON? = nil, active: JSON? = nil) throws {
        var metrics: [(String, JSON)] = []
        if let leading { metrics.append(("leading", object(("transform", leading)))) }
        if let active { metrics.append(("active", object(("transform", active)))) }
        let reply = try server.request("POST", "/v1/piles", json: object(("id", "p"), ("bounds", object(("width", 320), ("height", 480))),
                                                                         ("metrics", .object(JSONObject(metrics))), ("views", .array([card("a")]))))
        XCTAssertEqual(reply.status, 201, reply.text)
    }

    func pushLinear(_ fps: Int, duration: Double = 1) throws -> Reply {
        let reply = try server.request("POST", "/v1/piles/p/push?fps=\(fps)", json: object(("id", "b"), ("view", object(("type", "Card"))),
                                                                                           ("animation", object(("curve", "linear"), ("duration", .number(duration))))))
        XCTAssertEqual(reply.status, 200, reply.text)
        return reply
    }

    /// The answers of a pile without transforms, byte for byte as before transforms existed;
    /// an empty `transform` is none.
    func testPilesWithoutTransformsAnswerByteForByteAsBefore() throws {
        for transform: JSON? in [nil, .array([])] {
            defer { _ = try? server.request("DELETE", "/v1/piles/p") }
            var leading: [(String, JSON)] = [("scale", 0.5), ("translate", object(("x", 3)))]
            if let transform { leading.append(("transform", transform)) }
            let created = try server.request("POST", "/v1/piles", json: object(("id", "p"), ("bounds", object(("width", 320), ("height", 480))),
                                                                               ("metrics", object(("leading", .object(JSONObject(leading))))),
                                                                               ("views", .array([card("a")]))))
            XCTAssertEqual(created.status, 201, created.text)
            let pushed = try pushLinear(5, duration: 0.4)
            XCTAssertEqual(pushed.text, Self.pushAnswer)
            XCTAssertEqual(try server.request("POST", "/v1/piles/p/pop", json: object(("animation", true))).status, 200)
            XCTAssertEqual(try server.request("GET", "/v1/piles/p").text, Self.getAnswer)
        }
    }

    /// Pile's example: `CATransform3DConcat(perspective, rotation)` for the leading metric.
    func testMetricsAreEchoedAndEveryStateCarriesItsMatrix() throws {
        let example = JSON.array([object(("perspective", 1000)), object(("rotate", object(("angle", 90), ("y", 1))))])
        try makePile(leading: example)
        let pile = try server.request("GET", "/v1/piles/p")
        XCTAssertEqual(pile["metrics.leading.transform"], .array([object(("perspective", 1000)),
                                                                  object(("rotate", object(("angle", 90), ("x", 0), ("y", 1), ("z", 0))))]))
        XCTAssertNil(pile["metrics.active.transform"], "a metric without a transform has no member")
        XCTAssertEqual(numbers(pile["views[0].transform"]), identity, "the active view at rest: its metric's matrix")

        let pushed = try pushLinear(4)
        // P · R: the rotation's rows, with m34 = −1/1000 from the perspective.
        let turned: [Double] = [0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, -0.001, 0, 0, 0, 1]
        XCTAssertEqual(pushed["transition.views[1].id"]?.stringValue, "b")
        XCTAssertEqual(numbers(pushed["transition.views[1].from.transform"]), turned)
        XCTAssertEqual(numbers(pushed["transition.views[1].to.transform"]), identity)
        XCTAssertEqual(numbers(pushed["transition.views[0].from.transform"]), identity, "every state carries one, identity included")
        XCTAssertEqual(numbers(pushed["transition.views[0].to.transform"]), identity)
        let keyframes = try XCTUnwrap(pushed["transition.keyframes"]?.arrayValue)
        XCTAssertEqual(keyframes.count, 5)
        XCTAssertEqual(numbers(keyframes.first?["views"]?.arrayValue?[1]["transform"]), turned, "p = 0: from")
        XCTAssertEqual(numbers(keyframes.last?["views"]?.arrayValue?[1]["transform"]), identity, "p = 1: to")
        XCTAssertEqual(numbers(keyframes[2]["views"]?.arrayValue?[0]["transform"]), identity)
        XCTAssertEqual(try server.request("GET", "/v1/piles/p/transitions/2?fps=4").json, pushed["transition"], "kept in the journal as answered")
        XCTAssertEqual(try server.request("GET", "/v1/piles/p/transitions/2").json?["views"]?.arrayValue?[1]["from"]?["transform"], pushed["transition.views[1].from.transform"])
    }

    func testAQuarterTurnIsAnEighthHalfway() throws {
        try makePile(leading: .array([object(("rotate", object(("angle", 90))))]))
        let pushed = try pushLinear(2)
        let half = 0.5.squareRoot()
        let rounded = (half * 1_000_000).rounded() / 1_000_000
        XCTAssertEqual(pushed["transition.keyframes[1].progress"]?.doubleValue, 0.5)
        XCTAssertEqual(numbers(pushed["transition.keyframes[1].views[1].transform"]),
                       [rounded, rounded, 0, 0, -rounded, rounded, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
        XCTAssertEqual(numbers(pushed["transition.views[1].from.transform"]), [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
                       "about z by default; −0 is written 0")
    }

    /// A matrix entry too large to round to 10⁻⁶ (a perspective of 10⁻³⁰³ gives m34 = −10³⁰³,
    /// a million times which is not finite) is answered as it is, never as null, and the plan
    /// keeping it reads back.
    func testAHugeEntryIsAnsweredAsANumber() throws {
        try makePile(active: .array([object(("perspective", 1e-303))]))
        var expected = identity
        expected[11] = -1e303
        XCTAssertEqual(numbers(try server.request("GET", "/v1/piles/p")["views[0].transform"]), expected)
        let pushed = try pushLinear(2)
        XCTAssertEqual(pushed["transition.views[0].from.transform"]?.arrayValue?.count, 16, pushed.text)
        XCTAssertEqual(numbers(pushed["transition.views[0].from.transform"]), expected)
        let kept = try server.request("GET", "/v1/piles/p/transitions/2?fps=2")
        XCTAssertEqual(kept.status, 200, kept.text)
        XCTAssertEqual(kept.json, pushed["transition"], "kept in the journal as answered")
    }

    func testCompositionAppliesTheFirstOperationFirst() throws {
        try makePile(active: .array([object(("translate", object(("x", 10)))), object(("rotate", object(("angle", 90)))),
                                     object(("scale", object(("x", 2))))]))
        // (10, 0, 0) turned a quarter to (0, 10, 0), then scaled along x (0 stays 0).
        XCTAssertEqual(numbers(try server.request("GET", "/v1/piles/p")["views[0].transform"]), [0, 1, 0, 0, -2, 0, 0, 0, 0, 0, 1, 0, 0, 10, 0, 1])
    }

    func testDecodingErrorsNameTheExactMember() throws {
        let cases: [(String, JSON, String, String)] = [
            ("active", .array([object(("perspective", 500)), object(("rotate", object(("angle", 40_000), ("y", 1))))]), "metrics.active.transform[1].rotate.angle", "invalid_value"),
            ("leading", .array([object(("perspective", 0))]), "metrics.leading.transform[0].perspective", "invalid_value"),
            ("leading", .array([object(("rotate", object(("angle", 10), ("x", 0), ("y", 0), ("z", 0))))]), "metrics.leading.transform[0].rotate", "invalid_value"),
            ("trailing", .array([object(("translate", object(("z", 2e9))))]), "metrics.trailing.transform[0].translate.z", "invalid_value"),
            ("active", .array([object(("scale", object(("x", "wide"))))]), "metrics.active.transform[0].scale.x", "wrong_type"),
            ("active", .array([object(("rotate", object(("y", 1))))]), "metrics.active.transform[0].rotate.angle", "missing_field"),
            ("active", .array([object(("skew", 10))]), "metrics.active.transform[0].skew", "unknown_field"),
            ("active", .array([object(("rotate", object(("angle", 1), ("w", 1))))]), "metrics.active.transform[0].rotate.w", "unknown_field"),
            ("active", .array([object()]), "metrics.active.transform[0]", "invalid_value"),
            ("active", .array([object(("perspective", 500), ("scale", object()))]), "metrics.active.transform[0]", "invalid_value"),
            ("active", object(("perspective", 500)), "metrics.active.transform", "wrong_type"),
        ]
        for (position, transform, field, code) in cases {
            let reply = try server.request("POST", "/v1/piles", json: object(("id", "q"), ("bounds", object(("width", 320), ("height", 480))),
                                                                             ("metrics", object((position, object(("transform", transform)))))))
            XCTAssertEqual(reply.status, 422, reply.text)
            XCTAssertEqual(reply.errorField, field, reply.text)
            XCTAssertEqual(reply.errorCode, code, reply.text)
        }
        XCTAssertEqual(try server.request("GET", "/v1/piles/q").status, 404)
    }

    func testASingularMatrixSwitchesHalfway() throws {
        try makePile(leading: .array([object(("scale", object(("x", 0))))]))
        let pushed = try pushLinear(4)
        let flat: [Double] = [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        XCTAssertEqual(pushed["transition.keyframes[1].progress"]?.doubleValue, 0.25)
        XCTAssertEqual(numbers(pushed["transition.keyframes[1].views[1].transform"]), flat, "before half way: from")
        XCTAssertEqual(numbers(pushed["transition.keyframes[2].views[1].transform"]), identity, "from half way: to")
    }

    /// Snapshots write each metric's transform as the GET answer echoes it, and read it back.
    func testRestartKeepsTransforms() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pile-transforms-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("journal.sqlite").path
        func call(_ service: StackService, _ method: String, _ path: String, _ body: JSON? = nil, fps: Int? = nil) -> JSON? {
            let response = service.handle(HTTPRequest(method: method, path: path, query: fps.map { [("fps", "\($0)")] } ?? [],
                                                      headers: body == nil ? [] : [("Content-Type", "application/json")], body: body?.serialized() ?? []))
            return try? JSON.parse(response.body)
        }
        let service = StackService(journal: try StackJournal(path: path, snapshotInterval: 2))
        XCTAssertEqual(try service.restore(), 0)
        let transform = JSON.array([object(("perspective", 700)), object(("rotate", object(("angle", -60), ("x", 1)))), object(("translate", object(("z", 20))))])
        let created = call(service, "POST", "/v1/piles", object(("id", "p"), ("bounds", object(("width", 100), ("height", 200))),
                                                     ("metrics", object(("trailing", object(("transform", transform))))), ("views", .array([card("a")]))))
        XCTAssertEqual(created?["revision"]?.int64Value, 1, "\(String(describing: created))")
        for id in ["b", "c", "d"] { _ = call(service, "POST", "/v1/piles/p/push", object(("id", .string(id)), ("view", object(("type", "Card"))), ("animation", true))) }
        let popped = call(service, "POST", "/v1/piles/p/pop", object(("animation", true)), fps: 20)
        XCTAssertEqual(popped?["transition"]?["views"]?.arrayValue?[1]["from"]?["transform"]?.arrayValue?.count, 16)
        let before = call(service, "GET", "/v1/piles/p")
        XCTAssertEqual(before?["metrics"]?["trailing"]?["transform"]?.arrayValue?.count, 3)
        let restarted = StackService(journal: try StackJournal(path: path, snapshotInterval: 2))
        XCTAssertEqual(try restarted.restore(), 1)
        XCTAssertEqual(call(restarted, "GET", "/v1/piles/p"), before)
        XCTAssertEqual(call(restarted, "GET", "/v1/piles/p/transitions/5", fps: 20), popped?["transition"])
    }

    static let pushAnswer = #"{"revision":2,"pile":{"id":"p","revision":2,"bounds":{"x":0,"y":0,"width":320,"height":480},"metrics":{"leading":{"alpha":0,"insets":{"top":0,"left":0,"bottom":0,"right":0},"offset":{"x":0,"y":0},"relativeOffset":{"x":0,"y":-1},"scale":0.5,"translate":{"x":3,"y":0}},"active":{"alpha":1,"insets":{"top":0,"left":0,"bottom":0,"right":0},"offset":{"x":0,"y":0},"relativeOffset":{"x":0,"y":0},"scale":1,"translate":{"x":0,"y":0}},"trailing":{"alpha":0,"insets":{"top":0,"left":0,"bottom":0,"right":0},"offset":{"x":0,"y":0},"relativeOffset":{"x":0,"y":1},"scale":1,"translate":{"x":0,"y":0}}},"animation":{"duration":0.6,"delay":0,"damping":0.6,"initialVelocity":0,"curve":"spring"},"active":"b","views":[{"id":"a","index":0,"view":{"type":"Card"},"active":false},{"id":"b","index":1,"view":{"type":"Card"},"active":true,"frame":{"x":0,"y":0,"width":320,"height":480},"alpha":1,"translate":{"x":0,"y":0},"scale":1}]},"events":[{"type":"viewPushed","id":"b","index":1},{"type":"activeChanged","from":"a","to":"b"}],"transition":{"revision":2,"animated":true,"timing":{"duration":0.4,"delay":0,"curve":"linear","controlPoints":[0,0,1,1],"restTime":0.4},"views":[{"id":"a","role":"exit","removed":false,"from":{"frame":{"x":0,"y":0,"width":320,"height":480},"alpha":1,"translate":{"x":0,"y":0},"scale":1},"to":{"frame":{"x":0,"y":480,"width":320,"height":480},"alpha":0,"translate":{"x":0,"y":0},"scale":1}},{"id":"b","role":"enter","removed":false,"from":{"frame":{"x":0,"y":-480,"width":320,"height":480},"alpha":0,"translate":{"x":3,"y":0},"scale":0.5},"to":{"frame":{"x":0,"y":0,"width":320,"height":480},"alpha":1,"translate":{"x":0,"y":0},"scale":1}}],"fps":5,"keyframes":[{"time":0,"progress":0,"views":[{"id":"a","frame":{"x":0,"y":0,"width":320,"height":480},"alpha":1,"translate":{"x":0,"y":0},"scale":1},{"id":"b","frame":{"x":0,"y":-480,"width":320,"height":480},"alpha":0,"translate":{"x":3,"y":0},"scale":0.5}]},{"time":0.2,"progress":0.5,"views":[{"id":"a","frame":{"x":0,"y":240,"width":320,"height":480},"alpha":0.5,"translate":{"x":0,"y":0},"scale":1},{"id":"b","frame":{"x":0,"y":-240,"width":320,"height":480},"alpha":0.5,"translate":{"x":1.5,"y":0},"scale":0.75}]},{"time":0.4,"progress":1,"views":[{"id":"a","frame":{"x":0,"y":480,"width":320,"height":480},"alpha":0,"translate":{"x":0,"y":0},"scale":1},{"id":"b","frame":{"x":0,"y":0,"width":320,"height":480},"alpha":1,"translate":{"x":0,"y":0},"scale":1}]}]}}"#
    static let getAnswer = #"{"id":"p","revision":3,"bounds":{"x":0,"y":0,"width":320,"height":480},"metrics":{"leading":{"alpha":0,"insets":{"top":0,"left":0,"bottom":0,"right":0},"offset":{"x":0,"y":0},"relativeOffset":{"x":0,"y":-1},"scale":0.5,"translate":{"x":3,"y":0}},"active":{"alpha":1,"insets":{"top":0,"left":0,"bottom":0,"right":0},"offset":{"x":0,"y":0},"relativeOffset":{"x":0,"y":0},"scale":1,"translate":{"x":0,"y":0}},"trailing":{"alpha":0,"insets":{"top":0,"left":0,"bottom":0,"right":0},"offset":{"x":0,"y":0},"relativeOffset":{"x":0,"y":1},"scale":1,"translate":{"x":0,"y":0}}},"animation":{"duration":0.6,"delay":0,"damping":0.6,"initialVelocity":0,"curve":"spring"},"active":"a","views":[{"id":"a","index":0,"view":{"type":"Card"},"active":true,"frame":{"x":0,"y":0,"width":320,"height":480},"alpha":1,"translate":{"x":0,"y":0},"scale":1}]}"#
}
