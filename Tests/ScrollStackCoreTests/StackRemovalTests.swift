import XCTest
import ScrollStackCore

/// Removing rows: references resolved against the state before the call, results in the
/// order given, repeated references, remove all (Docs/Semantics.md, "Operations").
final class StackRemovalTests: XCTestCase {

    func testRemoveManyResolvesIndexesAgainstTheStateBeforeTheCall() throws {
        var stack = try Fx.stack([Fx.row("A"), Fx.row("B"), Fx.row("C")])
        let result = try stack.remove([.index(0), .index(1)])
        stack.checkInvariants()
        XCTAssertEqual(Fx.ids(stack), ["C"], "A and B go (the original would drift and remove A and C)")
        XCTAssertEqual(result.removed.map(\.row.id), ["A", "B"])
        XCTAssertEqual(result.removed.map(\.index), [0, 1])
        XCTAssertEqual(result.removed.map(\.row), [Fx.row("A"), Fx.row("B")])
        XCTAssertEqual(result.changed, [])
        XCTAssertEqual(result.events, [
            .rowRemoved(id: "A", index: 0), .rowRemoved(id: "B", index: 1), .layoutUpdated,
            .contentSizeChanged(from: Size(width: 200, height: 150), to: Size(width: 200, height: 50)),
            .becameVisible(id: "C", index: 0, visibility: .entire),
        ])
        XCTAssertEqual(Fx.frames(stack), [Rect(x: 0, y: 0, width: 200, height: 50)])
    }

    func testRemovedRowsComeBackInTheOrderGiven() throws {
        var stack = try Fx.stack(["A", "B", "C", "D", "E"].map { Fx.row($0) })
        let result = try stack.remove([.index(3), .id("A"), .index(2)])
        stack.checkInvariants()
        XCTAssertEqual(Fx.ids(stack), ["B", "E"])
        XCTAssertEqual(result.removed.map(\.row.id), ["D", "A", "C"])
        XCTAssertEqual(result.removed.map(\.index), [3, 0, 2])
        XCTAssertEqual(Array(result.events.prefix(4)), [
            .rowRemoved(id: "D", index: 3), .rowRemoved(id: "A", index: 0), .rowRemoved(id: "C", index: 2), .layoutUpdated,
        ])
        XCTAssertEqual(stack.index(ofID: "E"), 1)
        XCTAssertNil(stack.index(ofID: "A"))
        XCTAssertNil(stack.row(id: "D"))
    }

    func testRemovingTheLastRowOneByOne() throws {
        var stack = try Fx.uniform(3)
        for expected in ["r2", "r1", "r0"] {
            let result = try stack.remove([.index(stack.count - 1)])
            stack.checkInvariants()
            XCTAssertEqual(result.removed.map(\.row.id), [expected])
        }
        XCTAssertTrue(stack.isEmpty)
        XCTAssertEqual(stack.contentSize, Size(width: 200, height: 0))
        XCTAssertEqual(stack.layout().rows, [])
    }

    func testRemovingAHiddenRowChangesNoSize() throws {
        var stack = try Fx.stack([Fx.row("a"), Fx.row("h", 30, hidden: true), Fx.row("b")], spacing: 10)
        let result = try stack.remove([.id("h")])
        stack.checkInvariants()
        XCTAssertEqual(result.events, [.rowRemoved(id: "h", index: 1), .layoutUpdated])
        XCTAssertEqual(Fx.frames(stack), [Rect(x: 0, y: 0, width: 200, height: 50), Rect(x: 0, y: 60, width: 200, height: 50)])
    }

    func testRemovingTheLastShownRowMovesTheHiddenSeparator() throws {
        var stack = try ScrollStack(rows: [Fx.defaultRow("a"), Fx.defaultRow("b"), Fx.defaultRow("c")])
        XCTAssertEqual(Fx.separators(stack), [
            Rect(x: 16, y: 67, width: 359, height: 1), Rect(x: 16, y: 135, width: 359, height: 1), nil,
        ])
        try stack.remove([.id("c")])
        stack.checkInvariants()
        XCTAssertEqual(Fx.separators(stack), [Rect(x: 16, y: 67, width: 359, height: 1), nil])
    }

    // MARK: Errors

    func testRemoveErrors() throws {
        var stack = try Fx.stack([Fx.row("A"), Fx.row("B"), Fx.row("C")])
        Fx.assertFails(&stack, .emptyBatch, field: "rows") { try $0.remove([]) }
        Fx.assertFails(&stack, .invalidValue, field: "rows[1]") { try $0.remove([.id("B"), .index(1)]) }
        Fx.assertFails(&stack, .invalidValue, field: "rows[1]") { try $0.remove([.index(0), .index(0)]) }
        Fx.assertFails(&stack, .invalidValue, field: "rows[2]") { try $0.remove([.id("A"), .id("B"), .id("A")]) }
        Fx.assertFails(&stack, .invalidValue, field: "rows[1]") { try $0.remove([.index(2), .id("C")]) }
        Fx.assertFails(&stack, .unknownRow, field: "rows[0]") { try $0.remove([.id("X")]) }
        Fx.assertFails(&stack, .unknownRow, field: "rows[1]") { try $0.remove([.index(0), .index(3)]) }
        Fx.assertFails(&stack, .unknownRow, field: "rows[0]") { try $0.remove([.index(-1)]) }
        XCTAssertEqual(Fx.ids(stack), ["A", "B", "C"])
    }

    func testRepeatedReferencesAreRejectedInEveryBatchOperation() throws {
        var stack = try Fx.stack([Fx.row("A"), Fx.row("B"), Fx.row("C")])
        Fx.assertFails(&stack, .invalidValue, field: "rows[1]") { try $0.setHidden([.id("A"), .index(0)], true) }
        Fx.assertFails(&stack, .invalidValue, field: "rows[2]") { try $0.setInsets([.index(1), .id("C"), .id("B")], .zero) }
        Fx.assertFails(&stack, .invalidValue, field: "rows[1]") { try $0.reload([.id("C"), .id("C")]) }
        Fx.assertFails(&stack, .invalidValue, field: "rows[1]") {
            try $0.update([.index(2), .index(2)], with: RowChange(size: .fixed(10)))
        }
        Fx.assertFails(&stack, .emptyBatch, field: "rows") { try $0.setHidden([], true) }
        Fx.assertFails(&stack, .emptyBatch, field: "rows") { try $0.setInsets([], nil) }
        Fx.assertFails(&stack, .emptyBatch, field: "rows") { try $0.reload([]) }
        Fx.assertFails(&stack, .emptyBatch, field: "rows") { try $0.update([], with: RowChange(hidden: true)) }
        Fx.assertFails(&stack, .unknownRow, field: "rows[1]") { try $0.setHidden([.id("A"), .id("Z")], true) }
    }

    // MARK: Remove all

    func testRemoveAll() throws {
        var stack = try Fx.stack([Fx.row("a"), Fx.row("h", hidden: true), Fx.row("b"), Fx.row("c")])
        let result = stack.removeAll()
        stack.checkInvariants()
        XCTAssertEqual(result.events, [
            .rowRemoved(id: "a", index: 0), .rowRemoved(id: "h", index: 1), .rowRemoved(id: "b", index: 2),
            .rowRemoved(id: "c", index: 3), .layoutUpdated,
            .contentSizeChanged(from: Size(width: 200, height: 150), to: Size(width: 200, height: 0)),
        ], "removed rows emit no visibility event")
        XCTAssertEqual(result.removed.map(\.row.id), ["a", "h", "b", "c"])
        XCTAssertEqual(result.removed.map(\.index), [0, 1, 2, 3])
        XCTAssertEqual(result.removed[1].row.hidden, true)
        XCTAssertTrue(stack.isEmpty)
        XCTAssertEqual(stack.visibleRows, [])

        // Ids are free again, and nothing remembers the old visibility.
        let again = try stack.insert([Fx.row("a")])
        stack.checkInvariants()
        XCTAssertEqual(again.events.last, .becameVisible(id: "a", index: 0, visibility: .entire))
    }

    func testRemoveAllOnAnEmptyStack() throws {
        var stack = try ScrollStack()
        let result = stack.removeAll()
        stack.checkInvariants()
        XCTAssertEqual(result.events, [.layoutUpdated])
        XCTAssertTrue(result.removed.isEmpty)
        XCTAssertEqual(result.changed, [])
        XCTAssertTrue(stack.isEmpty)
    }
}
