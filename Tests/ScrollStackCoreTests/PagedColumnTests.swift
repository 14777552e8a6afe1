import TestSeeds
import XCTest
@testable import ScrollStackCore

/// `PagedColumn` holds what an `Array` given the same operations holds, and a copy keeps
/// its elements whatever is done to the original afterwards (and the reverse): the
/// guarantee a snapshot's copy of a stack relies on. A stack copied and then edited leaves
/// the copy as it was.
final class PagedColumnTests: XCTestCase {
    private var seed: UInt64 = 0

    override func setUp() {
        seed = TestSeed.seed("name")
    }

    func testMatchesAnArrayAndCopiesStayIntact() {
        var rng = SplitMix64(seed: seed)
        let page = PagedColumn<String>.pageSize
        var column = PagedColumn<String>()
        var model: [String] = []
        // Copies taken along the way, each with the array it must still equal.
        var copies: [(column: PagedColumn<String>, model: [String])] = []
        for step in 0..<1_500 {
            switch rng.next() % 9 {
            case 0, 1:
                // Long ids are heap strings: a page copied wrongly would share or free them.
                let value = "value-\(step)-" + String(repeating: "x", count: Int(rng.next() % 24))
                column.append(value)
                model.append(value)
            case 2:
                let n = Int(rng.next() % UInt64(2 * page + 3))
                column.append(repeating: "r\(step)", count: n)
                model.append(contentsOf: repeatElement("r\(step)", count: n))
            case 3:
                let values = (0..<Int(rng.next() % UInt64(page + 7))).map { "c\(step)-\($0)" }
                column.append(contentsOf: values)
                model.append(contentsOf: values)
            case 4 where !model.isEmpty:
                let k = Int(rng.next() % UInt64(min(model.count, 3 * page + 9) + 1))
                column.removeLast(k)
                model.removeLast(k)
            case 5 where !model.isEmpty:
                let i = Int(rng.next() % UInt64(model.count))
                column[i] = "set-\(step)"
                model[i] = "set-\(step)"
            case 6 where !model.isEmpty:
                let a = Int(rng.next() % UInt64(model.count))
                let b = min(model.count, a + Int(rng.next() % UInt64(2 * page)))
                column.withMutableRuns(in: a..<b) { start, run in
                    for j in run.indices { run[j] = "run-\(step)-\(start + j)" }
                }
                for i in a..<b { model[i] = "run-\(step)-\(i)" }
            case 7:
                if copies.count == 4 { copies.remove(at: Int(rng.next() % 4)) }
                copies.append((column, model))
            default:
                if !model.isEmpty {
                    let i = Int(rng.next() % UInt64(model.count))
                    XCTAssertEqual(column[i], model[i], "seed \(seed), step \(step): element \(i)")
                }
            }
            XCTAssertEqual(column.count, model.count, "seed \(seed), step \(step)")
        }
        XCTAssertTrue(column.elementsEqual(model), "seed \(seed): the column differs from the array")
        column.withReader { reader in
            for i in model.indices where reader[i] != model[i] {
                XCTFail("seed \(seed): the reader differs at \(i)")
                return
            }
        }
        for (k, copy) in copies.enumerated() {
            XCTAssertTrue(copy.column.elementsEqual(copy.model), "seed \(seed): copy \(k) changed after it was taken")
        }
    }

    /// The reason for the pages: editing a stack after a copy (a snapshot's claim) leaves
    /// the copy as it was, and the copy still answers lookups by id.
    func testAStackCopiedThenEditedLeavesTheCopyAsItWas() throws {
        var rng = SplitMix64(seed: seed)
        let cell = RowContent.view(ViewDescriptor(type: "Cell"))
        let n = 3 * PagedColumn<String>.pageSize + 100
        var stack = try ScrollStack(rows: (0..<n).map { Row(id: "row-\($0)", content: cell, size: .fixed(Double(10 + $0 % 7))) })
        let copy = stack
        let before = copy.layout(offset: Point(x: 0, y: 0)).rows
        for step in 0..<200 {
            let i = Int(rng.next() % UInt64(stack.count))
            switch step % 4 {
            case 0: _ = try stack.insert([Row(id: "new-\(step)", content: cell, size: .fixed(33))], at: .index(i))
            case 1: _ = try stack.remove([.index(i)])
            case 2: _ = try stack.setHidden([.index(i)], true)
            default: _ = try stack.update(.index(i), with: RowChange(size: .fixed(51)))
            }
        }
        XCTAssertEqual(copy.count, n)
        let after = copy.layout(offset: Point(x: 0, y: 0)).rows
        XCTAssertTrue(after == before, "seed \(seed): the copy's layout changed, first at row \(after.indices.first { $0 >= before.count || after[$0] != before[$0] } ?? after.count)")
        for probe in [0, n / 2, n - 1] {
            XCTAssertEqual(copy.index(ofID: "row-\(probe)"), probe, "seed \(seed)")
        }
        XCTAssertNil(copy.index(ofID: "new-0"), "seed \(seed): the copy sees a row inserted after it was taken")
        stack.checkInvariants()
        copy.checkInvariants()
    }
}
