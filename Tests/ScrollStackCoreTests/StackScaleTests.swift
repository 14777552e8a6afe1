import XCTest
import ScrollStackCore

/// Correctness at a million rows (not timing: see Benchmarks/CoreBenchmark).
final class StackScaleTests: XCTestCase {
    func testMillionRows() throws {
        let n = 1_000_000
        var stack = try ScrollStack(settings: StackSettings(viewport: Size(width: 100, height: 200)),
                                    rows: (0..<n).map { fixedRow("r\($0)", 10, insets: .zero) })
        XCTAssertEqual(stack.contentSize.height, 10_000_000)
        XCTAssertEqual(stack.index(ofID: "r765432"), 765_432)

        // Jump to the middle: exactly rows 500000…500019 show entirely.
        let jump = try stack.scroll(to: .row(.id("r500000"), .initial))
        XCTAssertEqual(stack.visibleRows, (500_000..<500_020).map { "r\($0)" })
        XCTAssertEqual(jump.visibilityEvents.count, 40, "20 leave, 20 arrive")

        var rng = SystemRandomNumberGenerator()
        var expectedHeight = 10_000_000.0
        for step in 0..<200 {
            let index = Int.random(in: 0..<stack.count, using: &rng)
            switch step % 4 {
            case 0:
                try stack.insert([fixedRow("new\(step)", 20, insets: .zero)], at: .index(index))
                XCTAssertEqual(stack.index(ofID: "new\(step)"), index)
                expectedHeight += 20
            case 1:
                let id = stack.row(at: index).id
                expectedHeight -= try stack.layout(of: .index(index)).frame.size.height
                try stack.remove([.index(index)])
                XCTAssertNil(stack.index(ofID: id))
            case 2:
                let id = stack.row(at: index).id
                let to = Int.random(in: 0..<stack.count, using: &rng)
                try stack.move(.id(id), to: to)
                XCTAssertEqual(stack.index(ofID: id), to)
            default:
                try stack.scroll(to: .row(.index(index), .automatic))
                XCTAssertEqual(try stack.visibility(of: .index(index)), .entire)
            }
        }
        XCTAssertEqual(stack.count, n, "50 inserts, 50 removals")
        XCTAssertEqual(stack.contentSize.height, expectedHeight)
        stack.checkInvariants()
    }
}
