import Foundation
import JSONCodec
import MicroHTTP
import ScrollStackService
import ScrollStackStore
import TestHTTPClient
import TestSeeds
import XCTest

/// Pile animations with a timing curve (`linear`, `easeIn`, `easeOut`, `easeInOut`) instead of
/// the spring, over HTTP: the keyframes follow the cubic Bézier of the curve's
/// `CAMediaTimingFunction`, the answers echo the curve, decoding is strict, and curved piles
/// and plans survive a restart. Answers round computed numbers to 6 decimals, so the
/// reference values are compared after the same rounding, or within a millionth.
final class PileCurveTests: XCTestCase {
    var server: ServerHarness!

    override func setUpWithError() throws { server = try ServerHarness() }
    override func tearDown() { server.stop() }

    /// `CAMediaTimingFunction`'s control points (x1, y1, x2, y2) of each named curve.
    static let controlPoints: [String: [Double]] = [
        "linear": [0, 0, 1, 1], "easeIn": [0.42, 0, 1, 1], "easeOut": [0, 0, 0.58, 1], "easeInOut": [0.42, 0, 0.58, 1],
    ]

    /// The reference: one coordinate of the Bézier, B(s) = 3(1−s)²s·p1 + 3(1−s)s²·p2 + s³.
    static func bezier(_ s: Double, _ p1: Double, _ p2: Double) -> Double { 3 * (1 - s) * (1 - s) * s * p1 + 3 * (1 - s) * s * s * p2 + s * s * s }

    /// The reference progress at `fraction` of the duration: x(s) = fraction solved by Newton's
    /// method (kept within 0…1), y(s) answered. A method of its own, not the service's.
    static func expected(_ curve: String, at fraction: Double) -> Double {
        let p = controlPoints[curve]!
        if fraction <= 0 { return 0 }
        if fraction >= 1 { return 1 }
        var s = fraction
        for _ in 0..<200 {
            let x = bezier(s, p[0], p[2]) - fraction
            // x'(s) = 3(1−s)²·x1 + 6(1−s)s·(x2 − x1) + 3s²·(1 − x2)
            let slope = 3 * (1 - s) * (1 - s) * p[0] + 6 * (1 - s) * s * (p[2] - p[0]) + 3 * s * s * (1 - p[2])
            guard abs(x) > 1e-15, slope > 0 else { break }
            s = min(1, max(0, s - x / slope))
        }
        return bezier(s, p[1], p[3])
    }

    /// A computed number as answers write it: rounded to 6 decimals.
    static func answered(_ value: Double) -> Double { (value * 1_000_000).rounded() / 1_000_000 }

    func makePile(_ id: String = "p", height: Double = 200, animation: JSON? = nil) throws -> Reply {
        var members: [(String, JSON)] = [("id", .string(id)), ("bounds", object(("width", 100), ("height", .number(height)))),
                                         ("views", .array([object(("id", "a"), ("view", object(("type", "Card"))))]))]
        if let animation { members.append(("animation", animation)) }
        let reply = try server.request("POST", "/v1/piles", json: .object(JSONObject(members)))
        XCTAssertEqual(reply.status, 201, reply.text)
        return reply
    }

    func push(_ id: String, on pile: String = "p", animation: JSON?, fps: Int? = nil) throws -> Reply {
        var members: [(String, JSON)] = [("id", .string(id)), ("view", object(("type", "Card")))]
        if let animation { members.append(("animation", animation)) }
        if let fps { members.append(("fps", .integer(Int64(fps)))) }
        return try server.request("POST", "/v1/piles/\(pile)/push", json: .object(JSONObject(members)))
    }

    func keyframes(_ reply: Reply) -> [JSON] { reply["transition.keyframes"]?.arrayValue ?? [] }

    /// The entering view's y in a keyframe (leading y = −height → active y = 0).
    func enteringY(_ frame: JSON, id: String) -> Double? {
        frame["views"]?.arrayValue?.first { $0["id"]?.stringValue == id }?["frame"]?["y"]?.doubleValue
    }

    func testEaseInOutIsHalfwayAtHalfTime() throws {
        _ = try makePile()
        let reply = try push("b", animation: object(("curve", "easeInOut"), ("duration", 1)), fps: 4)
        XCTAssertEqual(reply.status, 200, reply.text)
        let frames = keyframes(reply)
        XCTAssertEqual(frames.compactMap { $0["time"]?.doubleValue }, [0, 0.25, 0.5, 0.75, 1])
        let progress = frames.compactMap { $0["progress"]?.doubleValue }
        guard progress.count == 5 else { return XCTFail("five keyframes: \(reply.text)") }
        // x(½) = 3·¼·½·0.42 + 3·½·¼·0.58 + ⅛ = ½ and y(½) = 3·½·¼ + ⅛ = ½: the curve is symmetric.
        XCTAssertEqual(progress[2], 0.5)
        XCTAssertEqual(progress[0], 0)
        XCTAssertEqual(progress[4], 1)
        // Symmetric about the middle: p(¼) + p(¾) = 1; slow at the ends: p(¼) ≈ 0.1292.
        XCTAssertEqual(progress[1] + progress[3], 1, accuracy: 1e-12)
        XCTAssertEqual(progress[1], 0.129162)
        XCTAssertEqual(progress[1], Self.answered(Self.expected("easeInOut", at: 0.25)))
        XCTAssertEqual(enteringY(frames[2], id: "b"), -100, "halfway down from one height up")
    }

    func testEaseInIsWellBelowHalfAtHalfTimeAndEaseOutAbove() throws {
        _ = try makePile()
        let easeIn = try push("b", animation: object(("curve", "easeIn"), ("duration", 0.5)), fps: 4)
        XCTAssertEqual(easeIn.status, 200, easeIn.text)
        let p = try XCTUnwrap(keyframes(easeIn).first { $0["time"]?.doubleValue == 0.25 }?["progress"]?.doubleValue)
        XCTAssertLessThan(p, 0.35, "easeIn starts slowly")
        XCTAssertEqual(p, 0.315357)
        XCTAssertEqual(p, Self.answered(Self.expected("easeIn", at: 0.5)))
        let easeOut = try push("c", animation: object(("curve", "easeOut"), ("duration", 0.5)), fps: 4)
        let q = try XCTUnwrap(keyframes(easeOut).first { $0["time"]?.doubleValue == 0.25 }?["progress"]?.doubleValue)
        XCTAssertEqual(q, 0.684643, "easeOut is easeIn turned about the middle: 1 − 0.315357")
        let linear = try push("d", animation: object(("curve", "linear"), ("duration", 0.5)), fps: 8)
        for frame in keyframes(linear) {
            let time = try XCTUnwrap(frame["time"]?.doubleValue)
            XCTAssertEqual(try XCTUnwrap(frame["progress"]?.doubleValue), time / 0.5, accuracy: 1e-6, "linear: the progress is the elapsed fraction")
        }
    }

    func testTheTimingEchoesTheCurve() throws {
        _ = try makePile()
        let reply = try push("b", animation: object(("curve", "easeOut"), ("duration", 0.4), ("delay", 0.1)))
        XCTAssertEqual(reply.status, 200, reply.text)
        let timing = try XCTUnwrap(reply["transition.timing"]?.objectValue)
        XCTAssertEqual(timing["curve"]?.stringValue, "easeOut")
        XCTAssertEqual(timing["controlPoints"]?.arrayValue?.compactMap(\.doubleValue), [0, 0, 0.58, 1])
        XCTAssertEqual(timing["duration"]?.doubleValue, 0.4)
        XCTAssertEqual(timing["delay"]?.doubleValue, 0.1)
        XCTAssertEqual(try XCTUnwrap(timing["restTime"]?.doubleValue), 0.5, accuracy: 1e-12)
        for member in ["damping", "initialVelocity", "stiffness", "dampingCoefficient", "settleTime"] {
            XCTAssertNil(timing[member], "\(member) is a spring's")
        }
        let spring = try push("c", animation: true)
        XCTAssertEqual(spring["transition.timing.curve"]?.stringValue, "spring")
        XCTAssertEqual(spring["transition.timing.damping"]?.doubleValue, 0.6)
    }

    /// Every keyframe of random curves, durations, delays and rates against the reference.
    func testRandomCurvedKeyframesFollowTheBezier() throws {
        let seed = TestSeed.seed("curved pile keyframes")
        var rng = SeededRandom(seed)
        _ = try makePile()
        let curves = ["linear", "easeIn", "easeOut", "easeInOut"]
        var checked = 0
        for c in 0..<40 {
            let curve = curves[c % curves.count]
            let duration = 0.05 + Double(rng.next() % 2000) / 1000
            let delay = rng.next() % 3 == 0 ? Double(rng.next() % 500) / 1000 : 0
            let fps = [10, 24, 30, 60, 120][Int(rng.next() % 5)]
            let reply = try push("v\(c)", animation: object(("curve", .string(curve)), ("duration", .number(duration)), ("delay", .number(delay))), fps: fps)
            XCTAssertEqual(reply.status, 200, "seed \(seed) case \(c): \(reply.text)")
            let frames = keyframes(reply)
            XCTAssertEqual(frames.count, KeyframeCount.expected(rest: delay + duration, fps: fps), "seed \(seed) case \(c)")
            for (i, frame) in frames.enumerated() {
                // The sample times: i / fps before rest, then the rest time.
                let time = i == frames.count - 1 ? delay + duration : Double(i) / Double(fps)
                XCTAssertEqual(try XCTUnwrap(frame["time"]?.doubleValue), time, accuracy: 5.1e-7, "seed \(seed) case \(c) frame \(i)")
                let expected = time <= delay ? 0 : Self.expected(curve, at: (time - delay) / duration)
                let what = "seed \(seed) case \(c): \(curve) \(duration) s after \(delay) s at \(time) s"
                XCTAssertEqual(try XCTUnwrap(frame["progress"]?.doubleValue), expected, accuracy: 5.1e-7, what)
                XCTAssertEqual(try XCTUnwrap(enteringY(frame, id: "v\(c)")), -200 + 200 * expected, accuracy: 6e-7, what)
                checked += 1
            }
            XCTAssertEqual(frames.last?["progress"]?.doubleValue, 1, "seed \(seed) case \(c): exactly at rest")
        }
        print("curved pile keyframes (seed \(seed)): \(checked) keyframes checked")
    }

    func testADefaultCurveIsThePilesAndItsPlansReadBack() throws {
        let created = try makePile(animation: object(("curve", "easeIn"), ("duration", 0.3), ("delay", 0.05)))
        XCTAssertEqual(created.json?["animation"], object(("duration", 0.3), ("delay", 0.05), ("curve", "easeIn")))
        let pushed = try push("b", animation: true, fps: 20)
        XCTAssertEqual(pushed["transition.timing.curve"]?.stringValue, "easeIn")
        XCTAssertEqual(pushed["transition.timing.duration"]?.doubleValue, 0.3)
        // Members not given come from the pile's default: its curve included.
        let longer = try push("c", animation: object(("duration", 0.6)))
        XCTAssertEqual(longer["transition.timing.curve"]?.stringValue, "easeIn")
        XCTAssertEqual(longer["transition.timing.delay"]?.doubleValue, 0.05)
        // Back to the spring: its members are Pile's.
        let spring = try push("d", animation: object(("curve", "spring")))
        XCTAssertEqual(spring["transition.timing.damping"]?.doubleValue, 0.6)
        XCTAssertEqual(spring["transition.timing.duration"]?.doubleValue, 0.3)
        let revision = try XCTUnwrap(pushed["revision"]?.int64Value)
        let read = try server.request("GET", "/v1/piles/p/transitions/\(revision)?fps=20")
        XCTAssertEqual(read.status, 200, read.text)
        XCTAssertEqual(read.json?["keyframes"], pushed["transition.keyframes"], "a read samples the kept plan as the answer did")
        let spring0 = try server.request("POST", "/v1/piles", json: object(("id", "s"), ("bounds", object(("width", 1), ("height", 1)))))
        XCTAssertEqual(spring0["animation.curve"]?.stringValue, "spring", "the default spring says so")
    }

    func testCurvesAreDecodedStrictly() throws {
        _ = try makePile()
        let bad: [(JSON, String)] = [
            (object(("curve", "bounce")), "animation.curve"),
            (object(("curve", "EaseIn")), "animation.curve"),
            (object(("curve", 3)), "animation.curve"),
            (object(("curve", "easeIn"), ("damping", 0.5)), "animation.damping"),
            (object(("curve", "linear"), ("initialVelocity", 1)), "animation.initialVelocity"),
            (object(("curve", "easeOut"), ("duration", 0)), "animation.duration"),
            (object(("curve", "easeInOut"), ("delay", -1)), "animation.delay"),
            (object(("curve", "easeInOut"), ("bounce", 1)), "animation.bounce"),
        ]
        for (animation, field) in bad {
            let reply = try push("x", animation: animation)
            XCTAssertTrue([400, 422].contains(reply.status), reply.text)
            XCTAssertEqual(reply.errorField, field, reply.text)
            let create = try server.request("POST", "/v1/piles", json: object(("id", "q"), ("bounds", object(("width", 1), ("height", 1))), ("animation", animation)))
            XCTAssertEqual(create.errorField, field, create.text)
        }
        XCTAssertEqual(try push("x", animation: object(("curve", "bounce")))["error.status"]?.int64Value, 422)
        // A curved default takes no spring member either.
        _ = try makePile("c", animation: object(("curve", "easeIn")))
        XCTAssertEqual(try push("x", on: "c", animation: object(("damping", 0.5))).errorField, "animation.damping")
        // Too many keyframes of a long curve: 422 naming fps.
        let long = try push("x", animation: object(("curve", "linear"), ("duration", 3600)), fps: 240)
        XCTAssertEqual(long.status, 422, long.text)
        XCTAssertEqual(long.errorField, "fps")
        XCTAssertEqual(long["error.message"]?.stringValue?.contains("linear curve"), true, long.text)
        // Rows keep the spring: a stack takes "curve": "spring" and refuses the others.
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: object(("id", "s"))).status, 201)
        let curved = try server.request("POST", "/v1/stacks/s/rows", json: object(("rows", [row("r")]), ("animation", object(("curve", "easeIn")))))
        XCTAssertEqual(curved.status, 422, curved.text)
        XCTAssertEqual(curved.errorField, "animation.curve")
        let sprung = try server.request("POST", "/v1/stacks/s/rows", json: object(("rows", [row("r")]), ("animation", object(("curve", "spring")))))
        XCTAssertEqual(sprung.status, 200, sprung.text)
        XCTAssertEqual(sprung["transition.timing.curve"]?.stringValue, "spring")
        XCTAssertEqual(try server.request("GET", "/v1/piles/p")["revision"]?.int64Value, 1, "no refused request made a revision")
    }

    func testRestartKeepsCurvedPilesAndPlans() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pile-curves-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("journal.sqlite").path
        func call(_ service: StackService, _ method: String, _ path: String, _ body: JSON? = nil, fps: Int? = nil) -> JSON? {
            let response = service.handle(HTTPRequest(method: method, path: path, query: fps.map { [("fps", String($0))] } ?? [],
                                                      headers: body == nil ? [] : [("Content-Type", "application/json")], body: body?.serialized() ?? []))
            return try? JSON.parse(response.body)
        }
        let service = StackService(journal: try StackJournal(path: path, snapshotInterval: 2))
        XCTAssertEqual(try service.restore(), 0)
        _ = call(service, "POST", "/v1/piles", object(("id", "p"), ("bounds", object(("width", 100), ("height", 200))),
                                                      ("animation", object(("curve", "easeInOut"), ("duration", 0.5), ("delay", 0.1)))))
        for _ in 0..<3 { _ = call(service, "POST", "/v1/piles/p/push", object(("view", object(("type", "Card"))), ("animation", true))) }
        let popped = call(service, "POST", "/v1/piles/p/pop", object(("animation", object(("curve", "easeIn"), ("duration", 0.25)))))
        XCTAssertEqual(popped?["transition"]?["timing"]?["curve"]?.stringValue, "easeIn")
        let before = call(service, "GET", "/v1/piles/p")
        let sampled = call(service, "GET", "/v1/piles/p/transitions/5", fps: 30)
        XCTAssertEqual(sampled?["keyframes"]?.arrayValue?.count, 12, "0…10/30 s, then 0.35 s: the default's 0.1-s delay is kept")
        let restarted = StackService(journal: try StackJournal(path: path, snapshotInterval: 2))
        XCTAssertEqual(try restarted.restore(), 1)
        XCTAssertEqual(call(restarted, "GET", "/v1/piles/p"), before)
        XCTAssertEqual(call(restarted, "GET", "/v1/piles/p")?["animation"]?["curve"]?.stringValue, "easeInOut")
        XCTAssertEqual(call(restarted, "GET", "/v1/piles/p/transitions/5"), popped?["transition"])
        XCTAssertEqual(call(restarted, "GET", "/v1/piles/p/transitions/5", fps: 30), sampled)
        let again = call(restarted, "POST", "/v1/piles/p/push", object(("view", object(("type", "Card"))), ("animation", true)))
        XCTAssertEqual(again?["revision"]?.int64Value, 6)
        XCTAssertEqual(again?["transition"]?["timing"]?["curve"]?.stringValue, "easeInOut", "the restored default is the curve")
    }
}

/// How many keyframes a plan resting at `rest` seconds has at `fps`: the frames f with
/// f / fps < rest, then the rest time.
enum KeyframeCount {
    static func expected(rest: Double, fps: Int) -> Int {
        var frames = 0
        while Double(frames) / Double(fps) < rest { frames += 1 }
        return frames + 1
    }
}
