import XCTest
@testable import ScrollStackTransitions

/// `KeyframeSampler.frameCount` is the length of `times` without building it.
final class FrameCountTests: XCTestCase {
    func testFrameCountIsTheNumberOfSampleTimes() {
        var compared = 0
        for damping in [0.05, 0.3, 0.8, 1.0] {
            for duration in [0.01, 0.1, 0.25, 1.0 / 3, 1, 7.5] {
                for delay in [0, 0.1, 1.0 / 3, 1] {
                    for velocity in [0.0, 5, -3] {
                        for fps in [1, 24, 30, 60, 120, 240] {
                            let timing = AnimationTiming(duration: duration, delay: delay, damping: damping, initialVelocity: velocity)
                            let count = KeyframeSampler.frameCount(timing, fps: fps)
                            XCTAssertEqual(count, KeyframeSampler.times(timing, fps: fps).count, "\(timing) at \(fps) fps")
                            compared += 1
                        }
                    }
                }
            }
        }
        XCTAssertEqual(compared, 4 * 6 * 4 * 3 * 6)
    }

    /// Rest times that are a whole number of frames: the frame at the rest time is not counted
    /// twice (`times` ends with the rest time itself).
    func testARestOnAFrameBoundaryCountsOnce() {
        let timing = AnimationTiming(duration: 1, delay: 2, damping: 1)
        let times = KeyframeSampler.times(timing, fps: 4)
        XCTAssertEqual(KeyframeSampler.frameCount(timing, fps: 4), times.count)
        XCTAssertEqual(times.last, timing.restTime)
    }

    /// A spring that rings for ~10³⁰¹ s: counted at once, as more than any limit.
    func testASpringThatNeverRestsIsCountedWithoutSampling() {
        let timing = AnimationTiming(duration: 1, damping: 1e-300)
        XCTAssertEqual(KeyframeSampler.frameCount(timing, fps: 60), Int.max)
        XCTAssertEqual(KeyframeSampler.frameCount(AnimationTiming(duration: 3600, delay: 3600, damping: 1e-12), fps: 240), Int.max)
    }
}
