import TestSeeds
import XCTest
import ScrollStackCore

extension DifferentialTests {
    /// Stacks spanning several of `RowTree`'s chunks (at most 256 rows each), so insertions
    /// split chunks, removals empty them and moves cross them, against the array model. The
    /// seed is `TestSeed`'s (fixed, or `SCROLLSTACK_SEED`); it is printed, so
    /// a failure can be replayed.
    func testRandomOperationsAcrossChunks() throws {
        let seed = TestSeed.seed("DifferentialTests.testRandomOperationsAcrossChunks")
        try runRandom(seed: seed, initialRows: 500...900, operations: 300)
    }

    /// Many single-row edits in one place: the chunk there splits again and again, then the
    /// rows around it are removed until chunks empty; order, ids and positions must follow a
    /// plain array of ids throughout.
    func testChunksSplitAndEmptyInOnePlace() throws {
        var settings = StackSettings()
        settings.spacing = 0
        var stack = try ScrollStack(settings: settings, rows: (0..<1000).map { Self.plainRow("r\($0)", 10) })
        var ids = (0..<1000).map { "r\($0)" }
        for i in 0..<700 {
            try stack.insert([Self.plainRow("n\(i)", 10, hidden: i % 5 == 0)], at: .index(10))
            ids.insert("n\(i)", at: 10)
        }
        stack.checkInvariants()
        for _ in 0..<900 {
            try stack.remove([.index(5)])
            ids.remove(at: 5)
        }
        for i in 0..<200 {
            let from = (i * 37) % ids.count, to = (i * 91) % ids.count
            try stack.move(.index(from), to: to)
            ids.insert(ids.remove(at: from), at: to)
        }
        stack.checkInvariants()
        XCTAssertEqual(stack.rows.map(\.id), ids)
        let layout = stack.layout()
        var y = 0.0
        for (i, row) in layout.rows.enumerated() {
            XCTAssertEqual(row.id, ids[i])
            XCTAssertEqual(stack.index(ofID: ids[i]), i)
            XCTAssertEqual(row.frame.minY, y, "row \(i)")
            y += row.frame.size.height
        }
        XCTAssertEqual(stack.contentSize.height, y)
    }
}
