import XCTest
import Foundation
@testable import ScrollStackTransitions

/// The sampled spring against the closed-form solution of x″ + 2ζω₀x′ + ω₀²x = 0.
final class SpringTests: XCTestCase {
    /// The displacement x(t) = p(t) − 1 with x(0) = −1, x′(0) = v₀, written from the textbook.
    func closedForm(_ t: Double, response: Double, zeta: Double, v0: Double) -> Double {
        let w0 = 2 * Double.pi / response
        let x0 = -1.0
        if zeta < 1 {
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            return exp(-zeta * w0 * t) * (x0 * cos(wd * t) + (v0 + zeta * w0 * x0) / wd * sin(wd * t))
        }
        return (x0 + (v0 + w0 * x0) * t) * exp(-w0 * t)
    }

    func testSamplesMatchTheClosedForm() {
        for zeta in [0.1, 0.3, 0.6, 0.8, 1.0] {
            for v0 in [0.0, 3.0, -2.0] {
                for response in [0.25, 0.6] {
                    let spring = Spring(response: response, dampingRatio: zeta, initialVelocity: v0)
                    let times = stride(from: 0.0, to: spring.settleTime, by: 1.0 / 60).map { $0 }
                    let sampled = spring.progress(at: times)
                    for (t, p) in zip(times, sampled) {
                        let expected = 1 + closedForm(t, response: response, zeta: zeta, v0: v0)
                        XCTAssertEqual(p, expected, accuracy: 1e-8, "ζ \(zeta) v₀ \(v0) T \(response) t \(t)")
                    }
                }
            }
        }
    }

    func testUnderDampedOvershootsAndCriticalDoesNot() {
        let times = stride(from: 0.0, to: 2, by: 0.001).map { $0 }
        let under = Spring(response: 0.5, dampingRatio: 0.3).progress(at: times)
        XCTAssertGreaterThan(under.max()!, 1.3, "ζ 0.3 overshoots by about e^(−πζ/√(1−ζ²)) ≈ 37 %")
        let critical = Spring(response: 0.5, dampingRatio: 1).progress(at: times)
        XCTAssertLessThanOrEqual(critical.max()!, 1)
        XCTAssertEqual(zip(critical, critical.dropFirst()).allSatisfy { $0 <= $1 }, true, "critically damped from rest is monotone")
    }

    func testSettledMeansWithinTheToleranceFromThenOn() {
        for zeta in [0.2, 0.5, 0.8, 1.0] {
            for v0 in [0.0, 5.0] {
                let spring = Spring(response: 0.4, dampingRatio: zeta, initialVelocity: v0)
                let settle = spring.settleTime
                for t in stride(from: settle, to: settle + 3, by: 0.0005) {
                    XCTAssertLessThanOrEqual(abs(closedForm(t, response: 0.4, zeta: zeta, v0: v0)), Spring.tolerance + 1e-12, "ζ \(zeta) t \(t)")
                }
                // And not much earlier: somewhere in the last 10 % before it, the envelope still exceeds the tolerance.
                let earlier = stride(from: settle * 0.8, to: settle, by: 0.0001).contains { t in
                    abs(closedForm(t, response: 0.4, zeta: zeta, v0: v0)) > Spring.tolerance * 0.3
                }
                XCTAssertTrue(earlier, "ζ \(zeta): settle time \(settle) is not tight")
            }
        }
    }

    func testMappingOfDurationAndDamping() {
        let spring = AnimationTiming.rows.spring
        XCTAssertEqual(spring.naturalFrequency, 2 * Double.pi / 0.25, accuracy: 1e-12)
        XCTAssertEqual(spring.stiffness, pow(2 * Double.pi / 0.25, 2), accuracy: 1e-9)
        XCTAssertEqual(spring.dampingCoefficient, 2 * 0.8 * 2 * Double.pi / 0.25, accuracy: 1e-9)
        XCTAssertEqual(AnimationTiming(duration: 0, damping: 0.5).violation?.member, "duration")
        XCTAssertEqual(AnimationTiming(duration: 1, damping: 0).violation?.member, "damping")
        XCTAssertEqual(AnimationTiming(duration: 1, damping: 1.01).violation?.member, "damping")
        XCTAssertNil(AnimationTiming(duration: 1, damping: 1).violation)
    }
}
