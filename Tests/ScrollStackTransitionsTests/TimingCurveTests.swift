import XCTest
@testable import ScrollStackTransitions

/// The timing curves' Bézier, unrounded: the solver against the curve itself and against
/// values worked out from the formula, and timings with a curve counted and sampled.
final class TimingCurveTests: XCTestCase {
    /// x(s) of the solved parameter lands on the asked fraction: the progress is y at that s.
    func testTheSolvedParameterMeetsTheFraction() {
        for curve in AnimationCurve.allCases {
            guard let bezier = curve.bezier else { continue }
            for step in 1..<1000 {
                let fraction = Double(step) / 1000
                let progress = bezier.progress(atFraction: fraction)
                // Invert y (monotone too for these curves) by bisection and check x there.
                var low = 0.0, high = 1.0
                for _ in 0..<200 {
                    let mid = (low + high) / 2
                    if CubicBezierTiming.coordinate(mid, bezier.y1, bezier.y2) < progress { low = mid } else { high = mid }
                }
                XCTAssertEqual(CubicBezierTiming.coordinate(low, bezier.x1, bezier.x2), fraction, accuracy: 1e-9, "\(curve) at \(fraction)")
            }
        }
    }

    func testKnownValues() {
        XCTAssertEqual(AnimationCurve.easeInOut.bezier!.progress(atFraction: 0.5), 0.5, accuracy: 1e-15)
        XCTAssertEqual(AnimationCurve.easeIn.bezier!.progress(atFraction: 0.5), 0.315356812572539, accuracy: 1e-14)
        XCTAssertEqual(AnimationCurve.easeOut.bezier!.progress(atFraction: 0.5), 0.684643187427461, accuracy: 1e-14)
        XCTAssertEqual(AnimationCurve.linear.bezier!.progress(atFraction: 0.3), 0.3)
        for curve in AnimationCurve.allCases {
            XCTAssertEqual(curve.bezier?.progress(atFraction: 0), curve == .spring ? nil : 0)
            XCTAssertEqual(curve.bezier?.progress(atFraction: 1), curve == .spring ? nil : 1)
        }
    }

    func testACurvedTimingRestsAfterItsDurationAndCountsItsFrames() {
        let timing = AnimationTiming(duration: 0.5, delay: 0.25, damping: 0.6, curve: .easeInOut)
        XCTAssertNil(timing.violation)
        XCTAssertEqual(timing.restTime, 0.75)
        let times = KeyframeSampler.times(timing, fps: 8)
        XCTAssertEqual(times, [0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75])
        XCTAssertEqual(KeyframeSampler.frameCount(timing, fps: 8), times.count)
        let progress = timing.progress(at: times)
        XCTAssertEqual(progress[0], 0)
        XCTAssertEqual(progress[2], 0, "the delay")
        XCTAssertEqual(progress[4], 0.5, accuracy: 1e-15)
        XCTAssertEqual(progress[6], 1)
        // A damping no spring settles with does not matter to a curve.
        XCTAssertNil(AnimationTiming(duration: 1, damping: 2e-309, curve: .linear).violation)
        XCTAssertEqual(AnimationTiming(duration: 0, damping: 1, curve: .easeIn).violation?.member, "duration")
    }
}
