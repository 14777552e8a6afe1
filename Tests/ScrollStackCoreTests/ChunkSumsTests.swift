import TestSeeds
import XCTest
@testable import ScrollStackCore

/// `ChunkSums.replace` (a chunk's split or merge, in place) leaves the tree that `rebuild`
/// makes of the same sequence of aggregates: every inner node its children combined, every
/// leaf the model's, every prefix the model's, through growth past the leaves and shrinking
/// under a quarter of them.
final class ChunkSumsTests: XCTestCase {
    typealias Prefix = RowTree.Prefix

    func testReplaceInPlaceGivesTheRebuiltTree() {
        let seed = TestSeed.seed("ChunkSumsTests.testReplaceInPlaceGivesTheRebuiltTree")
        var rng = SplitMix64(seed: seed)
        func leaf() -> Prefix {
            let count = Int(rng.next() % 256) + 1
            return Prefix(length: Double(rng.next() % 10_000) / 4, shown: Int(rng.next() % UInt64(count + 1)), count: count)
        }
        var sums = ChunkSums()
        var model: [Prefix] = []
        var grew = 0, shrank = 0
        for step in 0..<3_000 {
            // Runs of 500 steps that grow by one chunk a step on average, then shrink by one.
            let growing = (step / 500) % 2 == 0
            let lower = Int(rng.next() % UInt64(model.count + 1))
            let removing = Int(rng.next() % UInt64(min(growing ? 1 : 3, model.count - lower) + 1))
            let adding = Int(rng.next() % (growing ? 4 : 2))
            let leaves = (0..<adding).map { _ in leaf() }
            let before = sums.leafCount
            sums.replace(lower..<(lower + removing), of: model.count, with: leaves)
            model.replaceSubrange(lower..<(lower + removing), with: leaves)
            if sums.leafCount > before { grew += 1 }
            if sums.leafCount < before { shrank += 1 }

            sums.checkInvariants(leaves: model)
            var rebuilt = ChunkSums()
            rebuilt.rebuild(model)
            XCTAssertEqual(sums.total, rebuilt.total, "seed \(seed) step \(step): total")
            XCTAssertTrue(sums.leafCount >= model.count && (model.count * 4 >= sums.leafCount || sums.leafCount == 1),
                          "seed \(seed) step \(step): \(sums.leafCount) leaves for \(model.count) chunks")
            if step % 50 == 0 {
                for p in 0..<model.count {
                    XCTAssertEqual(sums.before(p), rebuilt.before(p), "seed \(seed) step \(step): before(\(p))")
                    XCTAssertEqual(sums.countBefore(p), rebuilt.countBefore(p), "seed \(seed) step \(step): countBefore(\(p))")
                }
            }
        }
        print("ChunkSumsTests: \(model.count) chunks at the end, the leaves grew \(grew) and shrank \(shrank) times")
        XCTAssertGreaterThan(grew, 0, "seed \(seed): never grew past the leaves")
        XCTAssertGreaterThan(shrank, 0, "seed \(seed): never shrank")
    }
}
