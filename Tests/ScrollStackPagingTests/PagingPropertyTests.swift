import Foundation
@testable import ScrollStackCore
@testable import ScrollStackPaging
import TestSeeds
import XCTest

/// Seeded random carousels, with lengths, insets and offsets drawn from edge values (0, 10⁻³⁰⁰,
/// just under and over the 10⁻⁶ tolerance, huge), checked for what must hold for every input:
/// stops increase and stay in the range, the paging state is finite and in range, progress
/// never decreases along the offset, a settle lands on a stop, and a menu window names real
/// items. Each test prints its seed (`TestSeed`; `SCROLLSTACK_SEED=N` draws others).
final class PagingPropertyTests: XCTestCase {
    private func seed(_ name: String) -> UInt64 {
        TestSeed.seed("PagingPropertyTests.\(name)")
    }

    /// A length from a palette of edge values, or a plain one.
    private func length(_ rng: inout SplitMix64) -> Double {
        let palette: [Double] = [0, 1e-300, 4e-7, 2e-6, 0.5, 1, 44.5, 375, 400, 1e6, 46_779_013.270866]
        return Bool.random(using: &rng) ? palette.randomElement(using: &rng)! : Double.random(in: 0...1000, using: &rng)
    }

    private func insets(_ rng: inout SplitMix64) -> EdgeInsets {
        Int.random(in: 0..<3, using: &rng) == 0
            ? EdgeInsets(top: length(&rng), left: length(&rng), bottom: length(&rng), right: length(&rng)) : .zero
    }

    private func paging(_ rng: inout SplitMix64) -> PagingSettings {
        let size: PagingSettings.PageSize
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: size = .absolute(Swift.max(1e-3, length(&rng)))
        case 1: size = .fraction([1, 0.5, 0.3333, 1e-3].randomElement(using: &rng)!)
        default: size = .rows
        }
        let edges = Set(PagingSettings.Edge.allCases.filter { _ in Bool.random(using: &rng) })
        return PagingSettings(size: size, alignment: PagingSettings.Alignment.allCases.randomElement(using: &rng)!,
                              sizeInsets: insets(&rng), positionInsets: insets(&rng), contentInsetEdges: edges)
    }

    func testRandomCarouselsHaveFiniteOrderedStatesAndSettles() throws {
        let seed = seed("testRandomCarouselsHaveFiniteOrderedStatesAndSettles")
        var rng = SplitMix64(seed: seed)
        for trial in 0..<400 {
            let count = Int.random(in: 0...6, using: &rng)
            let hidden = Set((0..<count).filter { _ in Int.random(in: 0..<4, using: &rng) == 0 })
            let stack = try Carousel.stack((0..<count).map { _ in length(&rng) }, width: [375, 1, 1e5].randomElement(using: &rng)!,
                                           paging: paging(&rng), spacing: Bool.random(using: &rng) ? 0 : length(&rng),
                                           contentInsets: insets(&rng), hidden: hidden)
            let context = "seed \(seed) trial \(trial)"
            let stops = try XCTUnwrap(stack.pageStops(), context)
            // The first and last 8 stops (uniform pages can number 10¹⁰ and more).
            let all = (stops.count <= 16 ? Array(0..<stops.count) : Array(0..<8) + Array(stops.count - 8..<stops.count)).map { stops[$0] }
            XCTAssert(all.allSatisfy(\.isFinite), context)
            XCTAssert(zip(all, all.dropFirst()).allSatisfy { $1 > $0 + PageStops.tolerance }, "stops increase: \(all.prefix(8)) \(context)")
            if let first = all.first, let last = all.last {
                XCTAssertEqual(first, stops.low, context)
                XCTAssertLessThanOrEqual(last, stops.high, context)
            }

            // Offsets at, just before and just after each of those stops, and far out.
            var offsets: [Double] = [-1e9, 1e9, stops.low, stops.high]
            for stop in all {
                offsets += [stop, stop - 4e-7, stop + 4e-7, stop - 2e-6, stop + 2e-6]
            }
            offsets.sort()
            var previous = -Double.infinity
            for offset in offsets {
                let state = try XCTUnwrap(stack.pagingState(offset: Point(x: offset, y: 0)), context)
                XCTAssert(state.progress.isFinite, "progress at \(offset): \(state.progress) \(context)")
                XCTAssertGreaterThanOrEqual(state.progress, previous, "progress decreases at \(offset) \(context)")
                previous = state.progress
                XCTAssertEqual(state.pageCount, stops.count, context)
                if stops.count > 0 { XCTAssert((0..<stops.count).contains(state.currentPage), context) }

                let velocity = [0, 0.5, -0.5, 300, -300, 1e7, -1e7].randomElement(using: &rng)!
                let settle = stack.settle(release: offset, velocity: velocity, rate: 0.998)
                XCTAssert(settle.target.isFinite && settle.duration.isFinite && settle.duration >= 0, "settle \(settle) \(context)")
                if let page = settle.page {
                    XCTAssert((0..<stops.count).contains(page), context)
                    XCTAssertEqual(settle.target, stops[page].roundedToMicro, context)
                }
                let curve = settle.curve(fps: [1, 60, 240].randomElement(using: &rng)!)
                XCTAssert(curve.allSatisfy { $0.offset.isFinite && $0.t.isFinite }, context)
                XCTAssertEqual(curve.last?.offset, settle.target, context)
            }
        }
    }

    func testRandomMenuWindowsNameRealItems() {
        let seed = seed("testRandomMenuWindowsNameRealItems")
        var rng = SplitMix64(seed: seed)
        for trial in 0..<2_000 {
            let widths = (0..<Int.random(in: 1...40, using: &rng)).map { _ in length(&rng) }
            let around = Int.random(in: 0..<widths.count, using: &rng)
            let width = [0, 1e-300, 375, 1e9].randomElement(using: &rng)!
            let spacing = [0, 1e-300, 1e-7, 8].randomElement(using: &rng)!
            let window = MenuWindow(widths: widths, around: around, width: width, spacing: spacing)
            let context = "seed \(seed) trial \(trial)"
            XCTAssertEqual(window.before, window.before.isEmpty ? [] : Array(window.before[0]..<around), context)
            XCTAssertEqual(window.after, window.after.isEmpty ? [] : Array(around + 1...window.after.last!), context)
            XCTAssert((0...MenuWindow.maximumMissingItems).contains(window.missingBefore), context)
            XCTAssert((0...MenuWindow.maximumMissingItems).contains(window.missingAfter), context)
            XCTAssert(window.missingWidthBefore >= 0 && window.missingWidthAfter >= 0, context)
        }
    }
}
