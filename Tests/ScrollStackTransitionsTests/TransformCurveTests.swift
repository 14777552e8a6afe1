import Foundation
import ScrollStackCore
@testable import ScrollStackTransitions
import XCTest

/// ``Transform3D`` against Core Animation's matrices and ``TimingCurve`` against the cubic
/// Bézier it names.
final class TransformCurveTests: XCTestCase {
    /// CATransform3DMakeRotation(π/2, 0, 0, 1) sends the row vector (1, 0) to (0, 1):
    /// m11 = 0, m12 = 1, m21 = −1, m22 = 0.
    func testRotationMatrixIsCoreAnimations() {
        let t = Transform3D(m34: -0.001, angle: .pi / 2, axis: (0, 0, 2))!
        let m = t.matrix
        for (a, b) in zip(m, [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, -0.001, 0, 0, 0, 1] as [Double]) { XCTAssertEqual(a, b, accuracy: 1e-12) }
        XCTAssertEqual(t.rotation.angle, .pi / 2, accuracy: 1e-12)
        XCTAssertEqual(t.rotation.z, 1, accuracy: 1e-12)
        XCTAssertNil(Transform3D(m34: 0, angle: 1, axis: (0, 0, 0)))
    }

    /// Scale 2 then translate (10, 20) then the identity: diag(2, 2, 1, 1) with row 4 (10, 20, 0, 1).
    func testLayerMatrixComposesScaleAndTranslate() {
        XCTAssertEqual(Transform3D.identity.layerMatrix(scale: 2, translate: (10, 20)), [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1, 0, 10, 20, 0, 1])
    }

    /// Slerp between turns about one axis turns by the interpolated angle; the short way
    /// from 350° to 10° goes through 0°.
    func testSlerpTurnsTheShortWay() {
        let a = Transform3D(m34: 0, angle: .pi / 2, axis: (0, 1, 0))!
        let half = Transform3D.interpolate(a, .identity, 0.5).rotation
        XCTAssertEqual(half.angle, .pi / 4, accuracy: 1e-12)
        XCTAssertEqual(half.y, 1, accuracy: 1e-12)
        let from = Transform3D(m34: 0, angle: 350 * .pi / 180, axis: (0, 0, 1))!
        let to = Transform3D(m34: 0, angle: 10 * .pi / 180, axis: (0, 0, 1))!
        let mid = Transform3D.interpolate(from, to, 0.5)
        XCTAssertEqual(mid.rotation.angle, 0, accuracy: 1e-9)
    }

    func testCurvesHitTheirControlPoints() {
        let easeInOut = AnimationTiming.Curve.easeInOut.controlPoints!
        XCTAssertEqual(easeInOut.progress(0.5), 0.5, accuracy: 1e-12)
        XCTAssertEqual(easeInOut.progress(0.25) + easeInOut.progress(0.75), 1, accuracy: 1e-12, "symmetric")
        XCTAssertEqual(AnimationTiming.Curve.linear.controlPoints!.progress(0.3), 0.3, accuracy: 1e-12)
        // Ease-in at the curve parameter s = 0.5: x = 3·0.25·0.5·0.42 + 3·0.5·0.25·1 + 0.125 = 0.6575,
        // y = 0 + 0.375 + 0.125 = 0.5.
        let easeIn = AnimationTiming.Curve.easeIn.controlPoints!
        let x = 3 * 0.25 * 0.5 * 0.42 + 3 * 0.5 * 0.25 * 1 + 0.125
        XCTAssertEqual(easeIn.progress(x), 0.5, accuracy: 1e-9)
        XCTAssertLessThan(easeIn.progress(0.5), 0.5, "eases in")
        let timing = AnimationTiming(duration: 2, delay: 0.5, damping: 0.6, curve: .easeOut)
        XCTAssertEqual(timing.restTime, 2.5)
        XCTAssertEqual(KeyframeSampler.times(timing, fps: 2).count, 6)
    }
}
