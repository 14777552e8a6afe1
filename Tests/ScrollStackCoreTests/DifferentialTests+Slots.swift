import TestSeeds
import XCTest
import ScrollStackCore

extension DifferentialTests {
    /// A row's index comes from its chunk's slot table (`RowTree+Slots`), not from a scan of
    /// the chunk. Seeded edits concentrated on a few hundred rows, so that the same chunks
    /// take insertions of 1 to 5 rows, removals, moves within and across them, splits while
    /// the stack grows, then merges (and chunk ids reused) while it shrinks: after every step `checkInvariants`
    /// checks every chunk's table against its rows, and `index(ofID:)` of every row near the
    /// edit, of the edited row and of a random row must equal its place in an array of ids.
    /// The seed is `TestSeed`'s (fixed, or `SCROLLSTACK_SEED`); it is printed.
    func testIndexesFromSlotTablesFollowSeededEdits() throws {
        let seed = TestSeed.seed("DifferentialTests.testIndexesFromSlotTablesFollowSeededEdits")
        var rng = Rand(seed: seed)
        var ids = (0..<500).map { "r\($0)" }
        var stack = try ScrollStack(rows: ids.map { Self.plainRow($0, 20) })
        var next = 0
        for step in 0..<600 {
            // Most edits land in the first 400 rows (two or three chunks) while the stack
            // grows, in the first 150 while it shrinks, so that a chunk there underflows.
            let span = rng.chance(0.8) ? Swift.min(step < 300 ? 400 : 150, ids.count) : ids.count
            let i = rng.below(span)
            var touched = i
            // Growing for the first half (splits), shrinking in the second (merges).
            var op = step < 300 ? rng.below(4) : [1, 1, 1, 1, 1, 1, 2, 2, 2, 0][rng.below(10)]
            if op == 1 && ids.count < 300 { op = 0 }
            switch op {
            case 0:
                let k = rng.range(1...5)
                let rows = (0..<k).map { _ -> Row in
                    next += 1
                    return Self.plainRow("n\(next)", 20)
                }
                try stack.insert(rows, at: .index(i))
                ids.insert(contentsOf: rows.map(\.id), at: i)
            case 1:
                let result = try stack.remove([rng.chance(0.5) ? .index(i) : .id(ids[i])])
                XCTAssertEqual(result.removed.map(\.row.id), [ids[i]], "step \(step)")
                ids.remove(at: i)
                touched = Swift.min(i, ids.count - 1)
            case 2:
                let to = rng.below(span)
                try stack.move(rng.chance(0.5) ? .index(i) : .id(ids[i]), to: to)
                ids.insert(ids.remove(at: i), at: to)
                touched = to
            default:
                let after = ids[rng.below(ids.count)]
                next += 1
                try stack.insert([Self.plainRow("n\(next)", 20)], at: .after(.id(after)))
                let at = ids.firstIndex(of: after)! + 1
                ids.insert("n\(next)", at: at)
                touched = at
            }
            stack.checkInvariants()
            XCTAssertEqual(stack.count, ids.count, "step \(step)")
            for j in Swift.max(0, touched - 8)..<Swift.min(ids.count, touched + 8) {
                XCTAssertEqual(stack.index(ofID: ids[j]), j, "step \(step): \(ids[j])")
            }
            let probe = rng.below(ids.count)
            XCTAssertEqual(stack.index(ofID: ids[probe]), probe, "step \(step): \(ids[probe])")
        }
        XCTAssertEqual(stack.rows.map(\.id), ids)
        for (j, id) in ids.enumerated() { XCTAssertEqual(stack.index(ofID: id), j, id) }
    }
}
