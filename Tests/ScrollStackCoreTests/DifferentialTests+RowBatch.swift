import TestSeeds
import XCTest
import ScrollStackCore

/// `insert(_: RowBatch, at:)` against `insert(_: [Row], at:)` on the same stack, on seeded
/// random batches: plain rows (some broken: empty id or type, a length out of range, `fit`
/// with nothing to measure) and rows with rarely set fields (some breaking one rule), ids
/// repeated within the batch or taken by the stack, batches smaller and larger than the
/// stack, at random places (some out of range). A third of the batches, and every eighth one
/// whatever the seed, are all plain rows (no row kept whole), in runs of one content and with
/// contents of their own, so that large ones into a dense stack take the column path
/// (`RowStore.appendPlain`).
extension DifferentialTests {
    func testBatchInsertsFromFieldsMatchInsertsOfRows() throws {
        let seed = TestSeed.seed("DifferentialTests.testBatchInsertsFromFieldsMatchInsertsOfRows")
        var run = try Run(seed: seed, initialRows: 0...0)
        var outcomes: [String: Int] = [:]
        // Successful inserts of all-plain batches of at least 64 rows (`columnBatchMinimum`)
        // into a stack that never lost a row: the ones stored column by column.
        var columnInserts = 0
        for trial in 0..<200 {
            let settings = run.randomSettings()
            let existing = (0..<run.rng.pick([0, 1, 3, 30, 300])).map { run.randomRow(id: "e\($0)") }
            let stack = try ScrollStack(settings: settings, rows: existing)
            // Every eighth trial is a sound all-plain batch of at least 64 rows, so that enough
            // batches take the column path whatever the seed (25 such trials; only a location
            // out of range can refuse one).
            let columnTrial = trial % 8 == 0
            let faulty = !columnTrial && run.rng.chance(0.5)
            let allPlain = columnTrial || run.rng.chance(0.33)
            let count = columnTrial ? run.rng.pick([64, 65, 1100]) : run.rng.pick([0, 1, 2, 10, 60, 63, 64, 65, 1100])
            var batch = RowBatch()
            var rows: [Row] = []
            var content: RowContent = .view(ViewDescriptor(type: "Cell"))
            for i in 0..<count {
                var id = "b\(i)"
                if faulty, run.rng.chance(0.004) { id = run.rng.chance(0.5) && !existing.isEmpty ? run.rng.pick(existing).id : "b\(run.rng.below(i + 1))" }
                if faulty, run.rng.chance(0.002) { id = "" }
                if allPlain {
                    // Runs of one content (shared, or with properties of its own), a new one now and then.
                    if i == 0 || run.rng.chance(0.05) {
                        let type = run.rng.pick(["Cell", "Header", "Footer"])
                        let properties: String? = run.rng.chance(0.3) ? "{\"n\":\(run.rng.below(3))}" : nil
                        content = run.rng.chance(0.5) ? .controller(ControllerDescriptor(type: type, properties: properties))
                            : .view(ViewDescriptor(type: type, properties: properties))
                    }
                    let size = SizeRule(vertical: .fixed(Double(run.rng.range(0...80))), horizontal: .fixed(Double(run.rng.range(0...400))))
                    let hidden = run.rng.chance(0.1)
                    batch.append(id: id, content: content, size: size, hidden: hidden)
                    rows.append(Row(id: id, content: content, size: size, hidden: hidden))
                } else if run.rng.chance(0.1) {
                    let row = faulty && run.rng.chance(0.02) ? run.invalidRow(id: id) : run.randomRow(id: id)
                    batch.append(row)
                    rows.append(row)
                } else {
                    let type = faulty && run.rng.chance(0.002) ? "" : run.rng.pick(["Cell", "Header"])
                    let content: RowContent = run.rng.chance(0.5) ? .controller(ControllerDescriptor(type: type)) : .view(ViewDescriptor(type: type))
                    var size = SizeRule.fixed(Double(run.rng.range(0...80)))
                    if faulty, run.rng.chance(0.003) { size = run.rng.chance(0.5) ? .fit : .fixed(-1) }
                    let hidden = run.rng.chance(0.1)
                    batch.append(id: id, content: content, size: size, hidden: hidden)
                    rows.append(Row(id: id, content: content, size: size, hidden: hidden))
                }
            }
            // Compared as text: an invalid row's NaN is not equal to itself.
            XCTAssertTrue(batch.rows.map { "\($0)" } == rows.map { "\($0)" }, "seed \(seed) trial \(trial): the batch's rows differ")
            let location: InsertLocation = switch run.rng.below(5) {
            case 0: .top
            case 1: .bottom
            case 2: .index(run.rng.below(stack.count + 2))
            case 3: .after(.index(run.rng.below(stack.count + 1)))
            default: .before(.id(existing.isEmpty ? "none" : run.rng.pick(existing).id))
            }
            var fromFields = stack, fromRows = stack
            var got: Result<OperationResult, StackError>, want: Result<OperationResult, StackError>
            do throws(StackError) { got = .success(try fromFields.insert(batch, at: location)) } catch { got = .failure(error) }
            do throws(StackError) { want = .success(try fromRows.insert(rows, at: location)) } catch { want = .failure(error) }
            switch (got, want) {
            case (.success(let result), .success(let expected)):
                outcomes["inserted", default: 0] += 1
                if allPlain && batch.count >= 64 { columnInserts += 1 }
                fromFields.checkInvariants()
                XCTAssertEqual(result, expected, "seed \(seed) trial \(trial)")
                XCTAssertEqual(fromFields.rows, fromRows.rows, "seed \(seed) trial \(trial)")
                XCTAssertEqual(fromFields.layout(), fromRows.layout(), "seed \(seed) trial \(trial)")
            case (.failure(let e), .failure(let f)):
                outcomes[e.code.rawValue, default: 0] += 1
                XCTAssertTrue(e.code == f.code && e.field == f.field && e.message == f.message, "seed \(seed) trial \(trial): \(e) vs \(f)")
                // A refused batch leaves the stack as it was, its columns, contents and index
                // included (a batch into a smaller stack is taken back out of the columns).
                fromFields.checkInvariants()
                XCTAssertEqual(fromFields.rows, stack.rows, "seed \(seed) trial \(trial): a refused batch changed the stack")
                XCTAssertEqual(fromFields.layout(), stack.layout(), "seed \(seed) trial \(trial): a refused batch changed the layout")
            default:
                XCTFail("seed \(seed) trial \(trial): fields \(got), rows \(want)")
            }
        }
        print("DifferentialTests.testBatchInsertsFromFieldsMatchInsertsOfRows: outcomes \(outcomes.sorted { $0.key < $1.key }); \(columnInserts) by the column path")
        XCTAssertGreaterThan(outcomes["inserted", default: 0], 40, "seed \(seed)")
        XCTAssertGreaterThan(columnInserts, 10, "seed \(seed): too few batches took the column path")
        XCTAssertGreaterThan(outcomes.count, 3, "seed \(seed)")
    }

    /// A batch into a smaller stack whose ids repeat (within the batch, or one of the stack's)
    /// is found out while the index is built afresh: the rows already stored are taken back,
    /// the error names the first repeat, and the stack takes a valid batch afterwards.
    func testARefusedBatchIntoASmallerStackIsTakenBack() throws {
        var stack = try ScrollStack(rows: [Row(id: "a", content: .view(ViewDescriptor(type: "Cell")), size: .fixed(10))])
        let before = stack.layout()
        for (ids, field) in [(["b", "c", "b"], "rows[2].id"), (["b", "a", "c"], "rows[1].id")] {
            var batch = RowBatch()
            for id in ids { batch.append(id: id, content: .view(ViewDescriptor(type: "Cell")), size: .fixed(20)) }
            XCTAssertThrowsError(try stack.insert(batch)) { error in
                XCTAssertEqual((error as? StackError)?.code, .duplicateID)
                XCTAssertEqual((error as? StackError)?.field, field)
            }
            stack.checkInvariants()
            XCTAssertEqual(stack.layout(), before)
        }
        var batch = RowBatch()
        for id in ["b", "c", "d"] { batch.append(id: id, content: .view(ViewDescriptor(type: "Cell")), size: .fixed(20)) }
        try stack.insert(batch, at: .top)
        stack.checkInvariants()
        XCTAssertEqual(stack.rows.map(\.id), ["b", "c", "d", "a"])
        XCTAssertEqual(stack.index(ofID: "a"), 3)
    }
}
