import XCTest
import ScrollStackCore

/// `forEachRow` visits what `rows` holds, in the same order, across chunks and after edits
/// (snapshots are encoded through it).
final class StackForEachRowTests: XCTestCase {
    func testForEachRowVisitsEveryRowInOrder() throws {
        var stack = try Fx.uniform(1_500)
        _ = try stack.move(.id("r3"), to: 1_200)
        _ = try stack.move(.id("r1400"), to: 0)
        _ = try stack.remove([.id("r700"), .id("r701")])
        _ = try stack.setHidden([.id("r5"), .id("r900")], true)
        _ = try stack.insert([Fx.viewRow("v0"), Fx.viewRow("v1")], at: .index(600))
        stack.checkInvariants()
        var visited: [Row] = []
        stack.forEachRow { visited.append($0) }
        XCTAssertEqual(visited.count, 1_500)
        XCTAssertEqual(visited, stack.rows)
        XCTAssertEqual(visited.first?.id, "r1400")
        XCTAssertTrue(visited.first { $0.id == "r900" }?.hidden ?? false)
    }
}
