import TestSeeds
import XCTest
import ScrollStackCore

extension DifferentialTests {
    /// The seed (`TestSeed`: fixed, or `SCROLLSTACK_SEED`), printed so a failure can be replayed.
    private func seed(_ test: String) -> UInt64 {
        let seed = TestSeed.seed("DifferentialTests.\(test)")
        return seed
    }

    /// Row lists with one to three faults (a repeated id, a row breaking a rule) anywhere:
    /// `ScrollStack(settings:rows:)`, built by `ScrollStackBuilder`, reports the error that
    /// row-by-row validation (`ArrayModel`) reports first. Then the same rows go one by one
    /// into a builder that skips what `append` refuses: `build` gives the array model's stack
    /// of the accepted rows, or its error.
    func testBuilderReportsTheFirstFaultInRowOrder() throws {
        let seed = seed("testBuilderReportsTheFirstFaultInRowOrder")
        var run = try Run(seed: seed, initialRows: 0...0)
        for trial in 0..<300 {
            let n = run.rng.range(2...40)
            var rows = (0..<n).map { _ in run.randomRow(id: run.freshID()) }
            for _ in 0..<run.rng.range(1...3) {
                let i = run.rng.below(n)
                if run.rng.chance(0.5) { rows[i].id = rows[run.rng.below(n)].id } else { rows[i] = run.invalidRow(id: rows[i].id) }
            }
            let settings = run.randomSettings()
            assertSameOutcome(settings: settings, rows: rows, "seed \(seed) trial \(trial): ScrollStack(settings:rows:)") { () throws(StackError) in
                try ScrollStack(settings: settings, rows: rows)
            }
            var builder = try ScrollStackBuilder(settings: settings)
            var accepted: [Row] = []
            for row in rows {
                do throws(StackError) {
                    try builder.append(row)
                    accepted.append(row)
                } catch {
                    // What a refused append reports is what validation of the rows so far plus this one reports.
                    assertSameOutcome(settings: settings, rows: accepted + [row], "seed \(seed) trial \(trial): append") { () throws(StackError) in throw error }
                }
            }
            XCTAssertEqual(builder.count, accepted.count)
            assertSameOutcome(settings: settings, rows: accepted, "seed \(seed) trial \(trial): build") { () throws(StackError) in try builder.build() }
        }
    }

    /// Runs `make` and the array model on the same rows: both fail with the same code and
    /// field, or both succeed with the same rows and layout.
    private func assertSameOutcome(settings: StackSettings, rows: [Row], _ what: String, _ make: () throws(StackError) -> ScrollStack) {
        var engine: Result<ScrollStack, StackError>
        do throws(StackError) { engine = .success(try make()) } catch { engine = .failure(error) }
        var model: Result<ArrayModel, ArrayModel.Failure>
        do throws(ArrayModel.Failure) { model = .success(try ArrayModel(settings: settings, rows: rows)) } catch { model = .failure(error) }
        switch (engine, model) {
        case (.failure(let e), .failure(let m)):
            XCTAssertTrue(e.code == m.code && e.field == m.field, "\(what): engine \(e), model \(m)")
        case (.success(let stack), .success(let expected)):
            stack.checkInvariants()
            XCTAssertEqual(stack.rows, expected.rows, what)
            let layout = stack.layout()
            XCTAssertEqual(layout.rows.count, expected.items.count, what)
            for (a, b) in zip(layout.rows, expected.items) {
                if let d = Self.difference(a, b) { return XCTFail("\(what): \(d)") }
            }
        case (.success, .failure(let m)):
            XCTFail("\(what): engine accepted the rows, model \(m)")
        case (.failure(let e), .success):
            XCTFail("\(what): engine \(e), the model accepted the rows")
        }
    }

    /// A stack of several thousand rows shrunk to a few dozen by random single and batch
    /// removals, with moves and insertions between: chunks left underfull are merged (the
    /// invariant check traps on a chunk under `RowTree.chunkMinimum` rows next to another),
    /// and order, lookups and positions follow a plain array of ids throughout.
    func testRemovalsMergeUnderfullChunks() throws {
        let seed = seed("testRemovalsMergeUnderfullChunks")
        var rng = Rand(seed: seed)
        var settings = StackSettings()
        settings.spacing = 0
        var stack = try ScrollStack(settings: settings, rows: (0..<4000).map { Self.plainRow("r\($0)", 10) })
        var ids = (0..<4000).map { "r\($0)" }
        var step = 0
        while ids.count > 40 {
            step += 1
            switch rng.below(10) {
            case 0:
                let from = rng.below(ids.count), to = rng.below(ids.count)
                try stack.move(.index(from), to: to)
                ids.insert(ids.remove(at: from), at: to)
            case 1:
                let at = rng.below(ids.count + 1)
                try stack.insert([Self.plainRow("n\(step)", 10)], at: .index(at))
                ids.insert("n\(step)", at: at)
            default:
                let picked = Set((0..<rng.range(1...40)).map { _ in rng.below(ids.count) }).sorted()
                try stack.remove(picked.map { .index($0) })
                for i in picked.sorted(by: >) { ids.remove(at: i) }
            }
            if step % 20 == 0 {
                stack.checkInvariants()
                XCTAssertEqual(stack.rows.map(\.id), ids, "seed \(seed) step \(step)")
            }
        }
        stack.checkInvariants()
        XCTAssertEqual(stack.rows.map(\.id), ids, "seed \(seed)")
        for (i, id) in ids.enumerated() {
            XCTAssertEqual(stack.index(ofID: id), i, "seed \(seed)")
            XCTAssertEqual(try stack.layout(of: .id(id)).frame.minY, Double(10 * i), "seed \(seed)")
        }
    }
}
