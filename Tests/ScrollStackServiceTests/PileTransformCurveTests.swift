import Foundation
import Jansson
import XCTest

/// Pile's 3D transforms (its example's metrics: m34 = −1/1000 and a turn about y) as 4×4
/// matrices in plans and keyframes, and UIKit's animation curves besides the spring.
final class PileTransformCurveTests: XCTestCase {
    var server: ServerHarness!

    override func setUpWithError() throws { server = try ServerHarness() }
    override func tearDown() { server.stop() }

    func j(_ text: String) throws -> JSON { try JSON.parse(Array(text.utf8)) }

    /// Pile's example: a 100×30 pile whose new views turn in from a quarter turn about y
    /// (leading, shifted right by half the width) and leave turning the other way.
    func createExample(curve: String = "linear") throws -> Reply {
        try server.request("POST", "/v1/piles", json: try j("""
            {"id": "p", "bounds": {"width": 100, "height": 30},
             "metrics": {"leading": {"alpha": 0, "offset": {"x": 50, "y": 0}, "relativeOffset": {"x": 0, "y": 0},
                                     "transform": {"m34": -0.001, "rotation": {"angle": \(Double.pi / 2), "y": 1}}},
                         "active": {"transform": {"m34": -0.001}},
                         "trailing": {"alpha": 0, "offset": {"x": -50, "y": 0}, "relativeOffset": {"x": 0, "y": 0},
                                      "transform": {"m34": -0.001, "rotation": {"angle": \(-Double.pi / 2), "y": 1}}}},
             "animation": {"duration": 1, "curve": "\(curve)"},
             "views": [{"id": "a", "view": {"type": "Label"}}]}
            """))
    }

    /// CATransform3DConcat(perspective, CATransform3DMakeRotation(θ, 0, 1, 0)) row by row:
    /// m11 = cos θ, m13 = −sin θ, m31 = sin θ, m33 = cos θ, m34 = −1/1000, m22 = m44 = 1.
    func rotationAboutY(_ angle: Double) -> [Double] {
        [cos(angle), 0, -sin(angle), 0, 0, 1, 0, 0, sin(angle), 0, cos(angle), -0.001, 0, 0, 0, 1]
    }

    func assertMatrix(_ json: JSON?, _ expected: [Double], _ message: String, line: UInt = #line) {
        let values = json?.arrayValue?.compactMap(\.doubleValue) ?? []
        XCTAssertEqual(values.count, 16, message, line: line)
        for (a, b) in zip(values, expected) { XCTAssertEqual(a, b, accuracy: 1e-6, message, line: line) }
    }

    func testExampleRotationInPlansAndKeyframes() throws {
        let created = try createExample()
        XCTAssertEqual(created.status, 201, created.text)
        XCTAssertEqual(created["metrics.leading.transform.m34"]?.doubleValue, -0.001)
        XCTAssertEqual(created["animation.curve"]?.stringValue, "linear")
        let pushed = try server.request("POST", "/v1/piles/p/push?fps=4", json: try j(#"{"id": "b", "view": {"type": "Label"}, "animation": true}"#))
        XCTAssertEqual(pushed.status, 200, pushed.text)
        XCTAssertEqual(pushed["transition.timing.curve"]?.stringValue, "linear")
        XCTAssertEqual(pushed["transition.timing.restTime"]?.doubleValue, 1, "a curve takes exactly its duration")
        // b enters from leading (a quarter turn) to active (no turn); a leaves to trailing.
        XCTAssertEqual(pushed["transition.views[1].id"]?.stringValue, "b")
        assertMatrix(pushed["transition.views[1].from.transform.matrix"], rotationAboutY(.pi / 2), "b from")
        assertMatrix(pushed["transition.views[1].to.transform.matrix"], rotationAboutY(0), "b to")
        assertMatrix(pushed["transition.views[0].to.transform.matrix"], rotationAboutY(-.pi / 2), "a to")
        // Linear over 1 s at 4 fps: times 0, 0.25, 0.5, 0.75, 1 with progress equal to time. The
        // rotation moves as Core Animation interpolates it (the quaternion, the short way): b
        // has turned (1 − p)·π/2 about y, a −p·π/2.
        let frames = try XCTUnwrap(pushed["transition.keyframes"]?.arrayValue, pushed.text)
        XCTAssertEqual(frames.count, 5)
        for (k, frame) in frames.enumerated() {
            let p = Double(k) / 4
            XCTAssertEqual(frame["progress"]?.doubleValue ?? -1, p, accuracy: 1e-9)
            let views = frame["views"]?.arrayValue ?? []
            let b = views.first { $0["id"]?.stringValue == "b" }
            let a = views.first { $0["id"]?.stringValue == "a" }
            assertMatrix(b?["transform"]?["matrix"], rotationAboutY((1 - p) * .pi / 2), "b at \(p)")
            assertMatrix(a?["transform"]?["matrix"], rotationAboutY(-p * .pi / 2), "a at \(p)")
            XCTAssertEqual(b?["frame"]?["x"]?.doubleValue ?? -1, 50 * (1 - p), accuracy: 1e-9)
        }
        // Replayed from the journal, the keyframes are the same.
        XCTAssertEqual(try server.request("GET", "/v1/piles/p/transitions/2?fps=4").json, pushed["transition"])
    }

    /// The time fraction x of a cubic Bézier from (0,0) to (1,1) through (x1,y1), (x2,y2) and
    /// its progress, found by bisection on the curve's parameter (independent of the server).
    func bezier(_ x: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
        func at(_ s: Double, _ p1: Double, _ p2: Double) -> Double { 3 * (1 - s) * (1 - s) * s * p1 + 3 * (1 - s) * s * s * p2 + s * s * s }
        var lo = 0.0, hi = 1.0
        for _ in 0..<200 {
            let mid = (lo + hi) / 2
            if at(mid, x1, x2) < x { lo = mid } else { hi = mid }
        }
        return at((lo + hi) / 2, y1, y2)
    }

    func testCurvesSampleUIKitsStandardTimingFunctions() throws {
        XCTAssertEqual(try createExample().status, 201)
        let curves: [(String, [Double])] = [("easeInOut", [0.42, 0, 0.58, 1]), ("easeIn", [0.42, 0, 1, 1]),
                                            ("easeOut", [0, 0, 0.58, 1]), ("linear", [0, 0, 1, 1])]
        for (k, (name, points)) in curves.enumerated() {
            let body = #"{"id": "v\#(k)", "view": {"type": "Label"}, "animation": {"curve": "\#(name)", "duration": 0.5, "delay": 0.1}}"#
            let pushed = try server.request("POST", "/v1/piles/p/push?fps=10", json: try j(body))
            XCTAssertEqual(pushed.status, 200, pushed.text)
            XCTAssertEqual(pushed["transition.timing.controlPoints"]?.arrayValue?.compactMap(\.doubleValue), points, name)
            let frames = try XCTUnwrap(pushed["transition.keyframes"]?.arrayValue)
            // Times 0, 0.1, …, 0.5 and the rest time 0.6: nothing moves in the delay.
            XCTAssertEqual(frames.count, 7, name)
            for frame in frames {
                let t = frame["time"]?.doubleValue ?? -1
                let expected = t <= 0.1 ? 0 : bezier((t - 0.1) / 0.5, points[0], points[1], points[2], points[3])
                XCTAssertEqual(frame["progress"]?.doubleValue ?? -1, expected, accuracy: 1e-6, "\(name) at \(t)")
            }
        }
        // Half way through ease-in-out is half way (the curve is symmetric).
        let half = try server.request("POST", "/v1/piles/p/pop?fps=2", json: try j(#"{"animation": {"curve": "easeInOut", "duration": 1}}"#))
        XCTAssertEqual(half["transition.keyframes[1].progress"]?.doubleValue ?? -1, 0.5, accuracy: 1e-9)
    }

    func testBadTransformsAndCurvesNameTheField() throws {
        func create(_ metrics: String, animation: String = "true") throws -> Reply {
            try server.request("POST", "/v1/piles", json: try j(#"{"bounds": {"width": 100, "height": 30}, "metrics": \#(metrics), "animation": \#(animation)}"#))
        }
        let cases: [(String, String, String)] = [
            (#"{"active": {"transform": {"m34": 2}}}"#, "true", "metrics.active.transform.m34"),
            (#"{"leading": {"transform": {"rotation": {"angle": 1}}}}"#, "true", "metrics.leading.transform.rotation"),
            (#"{"leading": {"transform": {"rotation": {"y": 1}}}}"#, "true", "metrics.leading.transform.rotation.angle"),
            (#"{"leading": {"transform": {"rotation": {"angle": 1, "w": 1}}}}"#, "true", "metrics.leading.transform.rotation.w"),
            (#"{"trailing": {"transform": {"skew": 1}}}"#, "true", "metrics.trailing.transform.skew"),
            ("{}", #"{"curve": "bounce"}"#, "animation.curve"),
        ]
        for (metrics, animation, field) in cases {
            let reply = try create(metrics, animation: animation)
            XCTAssertEqual(reply.status, 422, reply.text)
            XCTAssertEqual(reply.errorField, field, reply.text)
        }
        // Row animations stay springs: a curve there is an unknown member.
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: try j(#"{"id": "s"}"#)).status, 201)
        let rows = try server.request("POST", "/v1/stacks/s/rows", json: try j(#"{"rows": [{"id": "r", "view": {"type": "T"}}], "animation": {"curve": "linear"}}"#))
        XCTAssertEqual(rows.status, 422, rows.text)
        XCTAssertEqual(rows.errorField, "animation.curve")
    }
}
