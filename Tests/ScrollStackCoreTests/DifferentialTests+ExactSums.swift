import TestSeeds
import XCTest
import ScrollStackCore

extension DifferentialTests {
    /// Single-row inserts, removals, moves, hides and resizes over several chunks whose rows
    /// mix lengths that are multiples of 1/64 (whose chunk sums are updated by differences)
    /// with lengths that are not (0.1, 1/3, 1/128: such a chunk is summed afresh). After every
    /// step `checkInvariants` compares each chunk's sum with a fresh sum in row order, bit for
    /// bit, and the count of inexact lengths per chunk; the rows, their order, their lengths
    /// and their indexes must follow an array model. The seed is `TestSeed`'s
    /// (fixed, or `SCROLLSTACK_SEED`); it is printed.
    func testSingleRowEditsOnExactAndInexactLengths() throws {
        let seed = TestSeed.seed("DifferentialTests.testSingleRowEditsOnExactAndInexactLengths")
        var rng = Rand(seed: seed)
        let exact: [Double] = [0, 44, 68.25, 0.015625, 1e9]
        let inexact: [Double] = [0.1, 1.0 / 3, 0.0078125, 999_999_999.7]
        func length() -> Double { rng.chance(0.03) ? rng.pick(inexact) : rng.pick(exact) }
        var settings = StackSettings()
        settings.spacing = 0
        var model: [(id: String, length: Double, hidden: Bool)] = (0..<1200).map { ("r\($0)", length(), false) }
        var stack = try ScrollStack(settings: settings, rows: model.map { Self.plainRow($0.id, $0.length) })
        var next = 0
        for step in 0..<600 {
            let i = rng.below(model.count)
            switch rng.below(5) {
            case 0:
                next += 1
                let row = (id: "n\(next)", length: length(), hidden: rng.chance(0.2))
                try stack.insert([Self.plainRow(row.id, row.length, hidden: row.hidden)], at: .index(i))
                model.insert(row, at: i)
            case 1 where model.count > 300:
                let result = try stack.remove([rng.chance(0.5) ? .index(i) : .id(model[i].id)])
                XCTAssertEqual(result.removed.first?.row.id, model[i].id)
                model.remove(at: i)
            case 2:
                let to = rng.below(model.count)
                try stack.move(rng.chance(0.5) ? .index(i) : .id(model[i].id), to: to)
                model.insert(model.remove(at: i), at: to)
            case 3:
                let hidden = !model[i].hidden
                try stack.setHidden([.index(i)], hidden)
                model[i].hidden = hidden
            default:
                let length = length()
                try stack.update(.id(model[i].id), with: RowChange(size: .fixed(length)))
                model[i].length = length
            }
            stack.checkInvariants()
            if step % 50 == 0 || step == 599 {
                XCTAssertEqual(stack.rows.map(\.id), model.map(\.id), "step \(step)")
                XCTAssertEqual(stack.rows.map(\.hidden), model.map(\.hidden), "step \(step)")
                XCTAssertEqual(stack.rows.map(\.size), model.map { SizeRule.fixed($0.length) }, "step \(step)")
                let probe = rng.below(model.count)
                XCTAssertEqual(stack.index(ofID: model[probe].id), probe, "step \(step)")
                let shown = model.reduce(0.0) { $0 + ($1.hidden ? 0 : $1.length) }
                XCTAssertEqual(stack.contentSize.height, shown, accuracy: shown * 1e-12, "step \(step)")
            }
        }
    }
}
