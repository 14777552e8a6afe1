@testable import ScrollStackCore
import TestSeeds
import XCTest

final class StackPagingTests: XCTestCase {
    /// Every page equals the same slice of the full layout, at any offset, hidden rows and
    /// spacing included; pages beyond the end are clamped.
    func testPagesAreSlicesOfTheFullLayout() throws {
        let seed = TestSeed.seed("StackPagingTests")
        var random = SplitMix64(seed: seed)
        var rows: [Row] = []
        for i in 0..<300 {
            rows.append(Fx.row("r\(i)", Double(random.next() % 90 + 1), hidden: random.next() % 7 == 0))
        }
        var settings = StackSettings()
        settings.spacing = 3
        let stack = try ScrollStack(settings: settings, rows: rows)
        for offset in [0.0, 1234.5, 9000] {
            let point = Point(x: 0, y: offset)
            let full = stack.layout(offset: point)
            for _ in 0..<40 {
                let from = Int(random.next() % 320)
                let limit = Int(random.next() % 60)
                let page = stack.layout(offset: point, rows: from..<(from + limit))
                let expected = Array(full.rows[min(from, 300)..<min(from + limit, 300)])
                XCTAssertEqual(page.rows, expected, "seed \(seed), from \(from), limit \(limit)")
                XCTAssertEqual(page.contentSize, full.contentSize)
                XCTAssertEqual(page.offset, full.offset)
            }
        }
    }
}
