import XCTest
import Foundation
@testable import ScrollStackTransitions

/// The spring's closed-form progress against the equation of motion integrated step by step.
final class SpringTests: XCTestCase {
    /// The displacement x(t) = p(t) − 1 with x(0) = −1, x′(0) = v₀ at each of `times`
    /// (ascending), integrating x″ = −k·x − c·x′ with classical Runge–Kutta in steps of at
    /// most 0.1 ms: an independent reference for the closed form.
    func integrated(_ times: [Double], response: Double, zeta: Double, v0: Double) -> [Double] {
        let w0 = 2 * Double.pi / response
        let k = w0 * w0, c = 2 * zeta * w0
        func acceleration(_ x: Double, _ v: Double) -> Double { -k * x - c * v }
        var x = -1.0, v = v0, now = 0.0
        var result: [Double] = []
        for time in times {
            let steps = max(1, Int(((time - now) / 0.0001).rounded(.up)))
            let h = (time - now) / Double(steps)
            for _ in 0..<(time > now ? steps : 0) {
                let k1x = v, k1v = acceleration(x, v)
                let k2x = v + h / 2 * k1v, k2v = acceleration(x + h / 2 * k1x, v + h / 2 * k1v)
                let k3x = v + h / 2 * k2v, k3v = acceleration(x + h / 2 * k2x, v + h / 2 * k2v)
                let k4x = v + h * k3v, k4v = acceleration(x + h * k3x, v + h * k3v)
                x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
                v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
            }
            now = time
            result.append(x)
        }
        return result
    }

    /// The displacement from the textbook's closed form (for the settling checks below).
    func closedForm(_ t: Double, response: Double, zeta: Double, v0: Double) -> Double {
        let w0 = 2 * Double.pi / response
        let x0 = -1.0
        if zeta < 1 {
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            return exp(-zeta * w0 * t) * (x0 * cos(wd * t) + (v0 + zeta * w0 * x0) / wd * sin(wd * t))
        }
        return (x0 + (v0 + w0 * x0) * t) * exp(-w0 * t)
    }

    func testSamplesMatchTheIntegratedMotion() {
        for zeta in [0.1, 0.3, 0.6, 0.8, 0.999, 1.0] {
            for v0 in [0.0, 3.0, -2.0] {
                for response in [0.25, 0.6] {
                    let spring = Spring(response: response, dampingRatio: zeta, initialVelocity: v0)
                    let times = stride(from: 0.0, to: spring.settleTime, by: 1.0 / 60).map { $0 }
                    let sampled = spring.progress(at: times)
                    let reference = integrated(times, response: response, zeta: zeta, v0: v0)
                    for (t, (p, x)) in zip(times, zip(sampled, reference)) {
                        XCTAssertEqual(p, 1 + x, accuracy: 1e-8, "ζ \(zeta) v₀ \(v0) T \(response) t \(t)")
                    }
                }
            }
        }
    }

    /// An hour-long, lightly damped spring sampled once a second: about 10,000 samples, each
    /// computed directly (stepping through the motion took 0.6 s of CPU per request).
    func testALongSpringIsSampledAtItsTimesOnly() {
        let spring = Spring(response: 3600, dampingRatio: 0.402)
        let times = stride(from: 0.0, to: spring.settleTime, by: 1).map { $0 }
        XCTAssertGreaterThan(times.count, 9_000)
        let sampled = spring.progress(at: times)
        XCTAssertEqual(sampled.count, times.count)
        XCTAssert(sampled.allSatisfy(\.isFinite))
        for i in stride(from: 0, to: times.count, by: 997) {
            XCTAssertEqual(sampled[i], 1 + closedForm(times[i], response: 3600, zeta: 0.402, v0: 0), accuracy: 1e-12)
        }
        XCTAssertEqual(spring.progress(at: [spring.settleTime]), [1])
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
