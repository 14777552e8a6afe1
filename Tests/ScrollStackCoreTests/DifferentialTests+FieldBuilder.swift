import TestSeeds
import XCTest
import ScrollStackCore

/// Building from fields (`ScrollStackBuilder.append(id:content:size:hidden:)`) against
/// building from `Row` values, and large batch inserts (validated and indexed in bulk)
/// against the array model, on seeded random rows with faults.
extension DifferentialTests {
    /// The seed (`TestSeed`: fixed, or `SCROLLSTACK_SEED`), printed so a failure can be replayed.
    private func fieldSeed(_ test: String) -> UInt64 {
        let seed = TestSeed.seed("DifferentialTests.\(test)")
        return seed
    }

    /// A row with only the fields `append(id:content:size:hidden:)` takes, sometimes broken:
    /// an empty id or type, a repeated id, a length out of range, or `fit` with nothing to
    /// measure. Contents with and without their own properties and instance.
    private func plainFields(_ rng: inout Rand, i: Int, ids: [String]) -> (id: String, content: RowContent, size: SizeRule, hidden: Bool) {
        var id = "p\(i)"
        if !ids.isEmpty, rng.chance(0.03) { id = rng.pick(ids) }
        if rng.chance(0.01) { id = "" }
        let type = rng.chance(0.01) ? "" : rng.pick(["Cell", "Cell", "Header", "Ad"])
        let properties: String? = rng.chance(0.4) ? "{\"n\":\(rng.below(5))}" : nil
        let content: RowContent = rng.chance(0.5)
            ? .controller(ControllerDescriptor(type: type, instance: rng.chance(0.3) ? "i\(rng.below(3))" : nil, properties: properties))
            : .view(ViewDescriptor(type: type, properties: properties))
        func length() -> LengthRule {
            if rng.chance(0.02) { return .fit }
            if rng.chance(0.03) { return .fixed(rng.pick([-1, .nan, .infinity, 2e9])) }
            return .fixed(Double(rng.range(0...80)) / 2)
        }
        let size = rng.chance(0.7) ? SizeRule.fixed(Double(rng.range(0...80))) : SizeRule(vertical: length(), horizontal: length())
        return (id, content, size, rng.chance(0.2))
    }

    /// The same rows appended from fields and as `Row` values: each append fails with the
    /// same error or succeeds in both, and `build` gives the same stack (rows, layout,
    /// invariants) or the same error. Some rows with rarely set fields go to both builders
    /// whole, between plain ones.
    func testBuildingFromFieldsMatchesBuildingFromRows() throws {
        let seed = fieldSeed("testBuildingFromFieldsMatchesBuildingFromRows")
        var run = try Run(seed: seed, initialRows: 0...0)
        for trial in 0..<300 {
            let settings = run.randomSettings()
            var fromFields = try ScrollStackBuilder(settings: settings)
            var fromRows = try ScrollStackBuilder(settings: settings)
            var ids: [String] = []
            var failures = 0
            for i in 0..<run.rng.range(1...60) {
                // Now and then a row with rarely set fields, appended whole to both.
                let whole: Row? = run.rng.chance(0.05) ? run.randomRow(id: "w\(i)") : nil
                let fields = plainFields(&run.rng, i: i, ids: ids)
                let row = whole ?? Row(id: fields.id, content: fields.content, size: fields.size, hidden: fields.hidden)
                ids.append(row.id)
                var a: StackError?, b: StackError?
                do throws(StackError) {
                    if let whole { try fromFields.append(whole) } else {
                        try fromFields.append(id: fields.id, content: fields.content, size: fields.size, hidden: fields.hidden)
                    }
                } catch { a = error }
                do throws(StackError) { try fromRows.append(row) } catch { b = error }
                XCTAssertEqual(a.map { "\($0.code) \($0.field ?? "")" }, b.map { "\($0.code) \($0.field ?? "")" }, "seed \(seed) trial \(trial) row \(i)")
                if a != nil { failures += 1 }
            }
            XCTAssertEqual(fromFields.ids, fromRows.ids, "seed \(seed) trial \(trial)")
            var built: Result<ScrollStack, StackError>, expected: Result<ScrollStack, StackError>
            do throws(StackError) { built = .success(try fromFields.build()) } catch { built = .failure(error) }
            do throws(StackError) { expected = .success(try fromRows.build()) } catch { expected = .failure(error) }
            switch (built, expected) {
            case (.success(let stack), .success(let other)):
                stack.checkInvariants()
                XCTAssertEqual(stack.rows, other.rows, "seed \(seed) trial \(trial)")
                XCTAssertEqual(stack.layout(), other.layout(), "seed \(seed) trial \(trial)")
            case (.failure(let e), .failure(let f)):
                XCTAssertTrue(e.code == f.code && e.field == f.field, "seed \(seed) trial \(trial): \(e) vs \(f)")
            default:
                XCTFail("seed \(seed) trial \(trial): fields \(built), rows \(expected) (\(failures) refused appends)")
            }
        }
    }

    /// Batches of 1,024 rows or more (validated against each other in bulk and indexed in
    /// slot order) with zero to two faults (an invalid row, an id repeated in the batch or
    /// taken by the stack), at a random place: the error the array model reports first, or
    /// the same rows, events and layout; the stack's invariants (its id index included) hold
    /// and every id is found at its index.
    func testLargeBatchInsertsMatchTheArrayModel() throws {
        let seed = fieldSeed("testLargeBatchInsertsMatchTheArrayModel")
        var run = try Run(seed: seed, initialRows: 0...0)
        for trial in 0..<12 {
            let settings = run.randomSettings()
            let initial = (0..<run.rng.range(0...300)).map { run.randomRow(id: "s\($0)") }
            var stack = try ScrollStack(settings: settings, rows: initial)
            var model = try ArrayModel(settings: settings, rows: initial)
            let n = run.rng.range(1024...1600)
            var batch = (0..<n).map { i in Row(id: "b\(trial)-\(i)", content: .view(ViewDescriptor(type: "V")), size: .fixed(Double(i % 50)), hidden: i % 9 == 0) }
            for _ in 0..<run.rng.range(0...2) {
                let i = run.rng.below(n)
                switch run.rng.below(3) {
                case 0: batch[i] = run.invalidRow(id: batch[i].id)
                case 1: batch[i].id = batch[run.rng.below(n)].id
                default: if !initial.isEmpty { batch[i].id = run.rng.pick(initial).id }
                }
            }
            let location: InsertLocation = run.rng.chance(0.5) ? .bottom : .index(run.rng.range(0...initial.count))
            var result: Result<OperationResult, StackError>
            do throws(StackError) { result = .success(try stack.insert(batch, at: location)) } catch { result = .failure(error) }
            var expected: Result<ArrayModel.Outcome, ArrayModel.Failure>
            do throws(ArrayModel.Failure) { expected = .success(try model.insert(batch, at: location)) } catch { expected = .failure(error) }
            switch (result, expected) {
            case (.success(let got), .success(let want)):
                XCTAssertEqual(got.events, want.events, "seed \(seed) trial \(trial)")
                XCTAssertEqual(got.changed, want.changed, "seed \(seed) trial \(trial)")
            case (.failure(let e), .failure(let m)):
                XCTAssertTrue(e.code == m.code && e.field == m.field, "seed \(seed) trial \(trial): engine \(e), model \(m)")
            default:
                XCTFail("seed \(seed) trial \(trial): engine \(result), model \(expected)")
            }
            stack.checkInvariants()
            XCTAssertEqual(stack.rows, model.rows, "seed \(seed) trial \(trial)")
            for (i, row) in model.rows.enumerated() where i % 97 == 0 || i == model.rows.count - 1 {
                XCTAssertEqual(stack.index(ofID: row.id), i, "seed \(seed) trial \(trial)")
            }
        }
    }
}
