import ScrollStackCore
@testable import ScrollStackPaging
import XCTest

/// Settling a released drag: UIScrollView deceleration without paging, the page rule and the
/// critically damped spring with paging.
final class SettleTests: XCTestCase {
    /// A long content (range [0, 9600]) so nothing clamps.
    func long(offset: Double = 0) throws -> ScrollStack {
        try Carousel.stack([10_000], paging: nil, offset: offset)
    }

    func testDecelerationRestsWhereUIScrollViewDoes() throws {
        // v/1000 · d/(1 − d): 1 pt/ms · 0.998/0.002 = 499; 0.99/0.01 = 99; 0.95/0.05 = 19.
        let stack = try long()
        XCTAssertEqual(stack.settle(release: 100, velocity: 1000, rate: Deceleration.normal).target, 599, accuracy: 1e-9)
        XCTAssertEqual(stack.settle(release: 100, velocity: 1000, rate: Deceleration.fast).target, 199, accuracy: 1e-9)
        XCTAssertEqual(stack.settle(release: 100, velocity: 1000, rate: 0.95).target, 119, accuracy: 1e-9)
        XCTAssertEqual(stack.settle(release: 1000, velocity: -2000, rate: Deceleration.normal).target, 2, accuracy: 1e-9)
        XCTAssertNil(stack.settle(release: 100, velocity: 1000, rate: Deceleration.normal).page)
    }

    func testDecelerationDurationAndCurve() throws {
        let settle = try long().settle(release: 100, velocity: 1000, rate: Deceleration.normal)
        // Rest: under half a point from the resting point at the duration, not a millisecond before.
        XCTAssertLessThan(abs(settle.offset(at: settle.duration - 1e-9) - 599), 0.5 + 1e-6)
        XCTAssertGreaterThan(abs(settle.offset(at: settle.duration - 0.002) - 599), 0.5)
        let curve = settle.curve(fps: 60)
        XCTAssertEqual(curve.first?.offset, 100)
        XCTAssertEqual(curve.last?.offset ?? 0, 599, accuracy: 1e-9)
        XCTAssertEqual(curve.last?.t, settle.duration)
        XCTAssertEqual(curve.count, Int((settle.duration * 60).rounded(.up)) + 1)
        XCTAssertEqual(curve[1].t, 1.0 / 60, accuracy: 1e-12)
        // The velocity at t is v·d^(1000t): the first frame moves about v/60 less the decay.
        let expected = 1.0 * 0.998 * (1 - pow(0.998, 1000.0 / 60)) / 0.002
        XCTAssertEqual(curve[1].offset - 100, expected, accuracy: 1e-9)
        XCTAssertTrue(zip(curve, curve.dropFirst()).allSatisfy { $0.offset <= $1.offset }, "monotone")
    }

    func testDecelerationStopsAtTheRangeEnds() throws {
        let stack = try Carousel.stack([1000], paging: nil)  // range [0, 600]
        let forward = stack.settle(release: 500, velocity: 1000, rate: Deceleration.normal)
        XCTAssertEqual(forward.target, 600)
        let unclamped = try long().settle(release: 500, velocity: 1000, rate: Deceleration.normal)
        XCTAssertLessThan(forward.duration, unclamped.duration, "it stops on reaching the end")
        XCTAssertTrue(forward.curve(fps: 120).allSatisfy { $0.offset <= 600 })
        XCTAssertEqual(stack.settle(release: 100, velocity: -5000, rate: Deceleration.fast).target, 0)
        // A release outside the range starts at its nearer end.
        XCTAssertEqual(stack.settle(release: -50, velocity: 0, rate: Deceleration.normal).target, 0)
        XCTAssertEqual(stack.settle(release: 300, velocity: 0, rate: Deceleration.normal).duration, 0)
    }

    /// Five pages of 375: stops 0, 375, 750, 1125, 1500.
    func pages(startingAt offset: Double) throws -> ScrollStack {
        try Carousel.stack([375, 375, 375, 375, 375], width: 375, paging: PagingSettings(), offset: offset)
    }

    func testSlowFlicksGoToTheNearestStop() throws {
        let stack = try pages(startingAt: 750)
        XCTAssertEqual(stack.settle(release: 900, velocity: 200, rate: Deceleration.normal).page, 2)
        XCTAssertEqual(stack.settle(release: 950, velocity: 200, rate: Deceleration.normal).page, 3)
        XCTAssertEqual(stack.settle(release: 560, velocity: -499, rate: Deceleration.normal).page, 1)
        XCTAssertEqual(stack.settle(release: 600, velocity: -499, rate: Deceleration.normal).page, 2)
    }

    func testFastFlicksGoOnePageInTheirDirection() throws {
        let stack = try pages(startingAt: 750)
        let forward = stack.settle(release: 800, velocity: 500, rate: Deceleration.normal)
        XCTAssertEqual(forward.page, 3)
        XCTAssertEqual(forward.target, 1125)
        XCTAssertEqual(forward.motion, .spring)
        XCTAssertEqual(stack.settle(release: 700, velocity: -800, rate: Deceleration.normal).page, 1)
        XCTAssertEqual(stack.settle(release: 750, velocity: -800, rate: Deceleration.normal).page, 1, "from a stop, the one before")
        XCTAssertEqual(stack.settle(release: 750, velocity: 800, rate: Deceleration.normal).page, 3, "from a stop, the one after")
        // Dragged past the next page and flicked on: still at most one page from the start.
        XCTAssertEqual(stack.settle(release: 1200, velocity: 3000, rate: Deceleration.normal).page, 3)
        // Dragged back and flicked forward: the first stop after the release point.
        XCTAssertEqual(stack.settle(release: 600, velocity: 800, rate: Deceleration.normal).page, 2)
    }

    func testFlicksAtTheFirstAndLastPage() throws {
        let first = try pages(startingAt: 0)
        XCTAssertEqual(first.settle(release: -30, velocity: -2000, rate: Deceleration.normal).page, 0)
        XCTAssertEqual(first.settle(release: 40, velocity: 2000, rate: Deceleration.normal).page, 1)
        let last = try pages(startingAt: 1500)
        XCTAssertEqual(last.settle(release: 1530, velocity: 2000, rate: Deceleration.normal).page, 4)
        XCTAssertEqual(last.settle(release: 1450, velocity: -2000, rate: Deceleration.normal).page, 3)
    }

    /// The snap solves x'' + 2ωx' + ω²(x − target) = 0 from the release point and velocity, and
    /// settles within half a point.
    func testThePagingSnapIsACriticallyDampedSpring() throws {
        let settle = try pages(startingAt: 750).settle(release: 800, velocity: 2000, rate: Deceleration.normal)
        let w = CriticalSpring.naturalFrequency
        let h = 1e-4
        for t in stride(from: 0.01, to: settle.duration, by: 0.05) {
            let x = settle.offset(at: t)
            let v = (settle.offset(at: t + h) - settle.offset(at: t - h)) / (2 * h)
            let a = (settle.offset(at: t + h) - 2 * x + settle.offset(at: t - h)) / (h * h)
            XCTAssertEqual(a + 2 * w * v + w * w * (x - 1125), 0, accuracy: 1e-2 * max(1, abs(a)))
        }
        XCTAssertEqual(settle.offset(at: 0), 800)
        XCTAssertEqual((settle.offset(at: h) - settle.offset(at: 0)) / h, 2000, accuracy: 5, "starts at the release velocity")
        XCTAssertLessThan(abs(settle.offset(at: settle.duration - 1e-9) - 1125), 0.5)
        XCTAssertEqual(settle.curve(fps: 30).last?.offset, 1125)
    }

    /// A violent flick overshoots with the spring, but the path never leaves the range.
    func testTheSnapStaysInsideTheRange() throws {
        let settle = try pages(startingAt: 1125).settle(release: 1200, velocity: 1e6, rate: Deceleration.normal)
        XCTAssertEqual(settle.page, 4)
        let curve = settle.curve(fps: 240)
        XCTAssertTrue(curve.allSatisfy { $0.offset <= 1500 && $0.offset >= 0 })
        XCTAssertTrue(curve.contains { $0.offset == 1500 }, "it reaches the end before settling")
    }

    func testTheRateDoesNotChangeAPagingSettle() throws {
        let stack = try pages(startingAt: 750)
        XCTAssertEqual(stack.settle(release: 800, velocity: 800, rate: Deceleration.fast),
                       stack.settle(release: 800, velocity: 800, rate: 0.5))
    }
}
