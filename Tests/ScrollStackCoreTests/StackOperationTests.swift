import XCTest
import ScrollStackCore

final class StackOperationTests: XCTestCase {
    func ids(_ stack: ScrollStack) -> [String] { stack.rows.map(\.id) }

    func testMultiInsertKeepsInputOrderAtEveryLocation() throws {
        var stack = try ScrollStack(rows: [fixedRow("a"), fixedRow("b"), fixedRow("c")])
        let top = try stack.insert([fixedRow("t1"), fixedRow("t2")], at: .top)
        XCTAssertEqual(Array(top.events.prefix(2)), [.rowAdded(id: "t1", index: 0), .rowAdded(id: "t2", index: 1)])
        try stack.insert([fixedRow("i1"), fixedRow("i2")], at: .index(3))
        try stack.insert([fixedRow("b1"), fixedRow("b2")], at: .before(.id("b")))
        let after = try stack.insert([fixedRow("a1"), fixedRow("a2")], at: .after(.index(0)))
        XCTAssertEqual(Array(after.events.prefix(2)), [.rowAdded(id: "a1", index: 1), .rowAdded(id: "a2", index: 2)])
        try stack.insert([fixedRow("z1"), fixedRow("z2")], at: .bottom)
        XCTAssertEqual(ids(stack), ["t1", "a1", "a2", "t2", "a", "i1", "i2", "b1", "b2", "b", "c", "z1", "z2"])
        XCTAssertEqual(stack.index(ofID: "b"), 9)
        stack.checkInvariants()
    }

    func testRemoveManyResolvesAgainstTheStateBeforeTheCall() throws {
        var stack = try ScrollStack(rows: [fixedRow("A"), fixedRow("B"), fixedRow("C")])
        let result = try stack.remove([.index(0), .index(1)])
        XCTAssertEqual(ids(stack), ["C"], "the original would have removed A and C")
        XCTAssertEqual(result.removed.map(\.row.id), ["A", "B"])
        XCTAssertEqual(result.removed.map(\.index), [0, 1])
        XCTAssertEqual(Array(result.events.prefix(2)), [.rowRemoved(id: "A", index: 0), .rowRemoved(id: "B", index: 1)])
        stack.checkInvariants()

        var other = try ScrollStack(rows: [fixedRow("A"), fixedRow("B"), fixedRow("C")])
        XCTAssertThrowsError(try other.remove([.id("B"), .index(1)])) { error in
            XCTAssertEqual((error as? StackError)?.field, "rows[1]")
            XCTAssertEqual((error as? StackError)?.code, .invalidValue)
        }
        XCTAssertEqual(ids(other), ["A", "B", "C"])
        XCTAssertThrowsError(try other.remove([])) { XCTAssertEqual(($0 as? StackError)?.code, .emptyBatch) }
    }

    func testMoveKeepsAHiddenRowHidden() throws {
        var stack = try ScrollStack(rows: [fixedRow("a"), fixedRow("b", hidden: true), fixedRow("c")])
        let result = try stack.move(.id("b"), to: 2)
        XCTAssertEqual(result.events.first, .rowMoved(id: "b", from: 1, to: 2))
        XCTAssertEqual(ids(stack), ["a", "c", "b"])
        XCTAssertEqual(stack.row(id: "b")?.hidden, true)
        XCTAssertEqual(try stack.visibility(of: .id("b")), .hidden)
        XCTAssertThrowsError(try stack.move(.id("b"), to: 3)) { error in
            XCTAssertEqual(error as? StackError, StackError(.indexOutOfRange, "index 3 is out of range 0…2", field: "to"))
        }
        XCTAssertThrowsError(try stack.move(.id("b"), to: -1)) { XCTAssertEqual(($0 as? StackError)?.field, "to") }
        XCTAssertEqual(try stack.move(.id("a"), to: 0).events, [.layoutUpdated], "no move, no rowMoved")
        stack.checkInvariants()
    }

    func testReplaceKeepsTheIndexAndChecksTheId() throws {
        var stack = try ScrollStack(rows: [fixedRow("a"), fixedRow("b"), fixedRow("c")])
        let kept = try stack.replace(.id("b"), with: fixedRow("b", 10))
        XCTAssertEqual(Array(kept.events.prefix(2)), [.rowRemoved(id: "b", index: 1), .rowAdded(id: "b", index: 1)])
        XCTAssertEqual(kept.removed.first?.row.size, .fixed(44))
        XCTAssertEqual(try stack.layout(of: .id("b")).frame.size.height, 34)
        try stack.replace(.index(1), with: fixedRow("B"))
        XCTAssertEqual(ids(stack), ["a", "B", "c"])
        XCTAssertThrowsError(try stack.replace(.id("B"), with: fixedRow("c"))) { error in
            XCTAssertEqual((error as? StackError)?.code, .duplicateID)
            XCTAssertEqual((error as? StackError)?.field, "id")
        }
        XCTAssertThrowsError(try stack.replace(.id("zz"), with: fixedRow("x"))) { XCTAssertEqual(($0 as? StackError)?.code, .unknownRow) }
        XCTAssertEqual(ids(stack), ["a", "B", "c"])
        stack.checkInvariants()
    }

    func testValidationErrorsNameTheFieldAndChangeNothing() throws {
        var stack = try ScrollStack(rows: [fixedRow("a"), fixedRow("b")])
        let before = stack.layout()
        func expect(_ code: StackError.Code, _ field: String?, _ body: (inout ScrollStack) throws -> Void, line: UInt = #line) {
            XCTAssertThrowsError(try body(&stack), line: line) { error in
                XCTAssertEqual((error as? StackError)?.code, code, line: line)
                XCTAssertEqual((error as? StackError)?.field, field, line: line)
            }
            XCTAssertEqual(stack.layout(), before, "a rejected operation changed the stack", line: line)
            stack.checkInvariants()
        }
        expect(.invalidValue, "rows[0].size.fixed") { try $0.insert([fixedRow("x", -1)]) }
        expect(.invalidValue, "rows[1].insets.left") { try $0.insert([fixedRow("x"), fixedRow("y", insets: EdgeInsets(left: .nan))]) }
        expect(.invalidValue, "rows[0].size.fixed") { try $0.insert([fixedRow("x", .infinity)]) }
        expect(.invalidValue, "rows[0].content") {
            try $0.insert([Row(id: "x", content: .view(ViewDescriptor(type: "V")), size: .fit)])
        }
        expect(.invalidValue, "rows[0].content.aspectRatio") {
            try $0.insert([Row(id: "x", content: .view(ViewDescriptor(type: "V")), size: .fit, contentDescription: .aspectRatio(0))])
        }
        expect(.invalidValue, "rows[0].id") { try $0.insert([fixedRow("")]) }
        expect(.duplicateID, "rows[1].id") { try $0.insert([fixedRow("x"), fixedRow("x")]) }
        expect(.duplicateID, "rows[0].id") { try $0.insert([fixedRow("a")]) }
        expect(.emptyBatch, "rows") { try $0.insert([]) }
        expect(.unknownRow, "at.before") { try $0.insert([fixedRow("x")], at: .before(.id("nope"))) }
        expect(.unknownRow, "at.after") { try $0.insert([fixedRow("x")], at: .after(.index(2))) }
        expect(.indexOutOfRange, "at.index") { try $0.insert([fixedRow("x")], at: .index(3)) }
        expect(.indexOutOfRange, "at.index") { try $0.insert([fixedRow("x")], at: .index(-1)) }
        expect(.invalidValue, "separator.color") { try $0.update(SettingsChange(separator: SeparatorStyle(color: "red"))) }
        expect(.invalidValue, "viewport.height") { try $0.update(SettingsChange(viewport: Size(width: 1, height: -1))) }
        expect(.invalidValue, "offset.y") { try $0.scroll(to: .offset(Point(x: 0, y: .nan))) }
        expect(.invalidValue, "rows[0].insets.top") { try $0.setInsets([.id("a"), .id("b")], EdgeInsets(top: -2)) }
        expect(.invalidValue, "size.fixed") { try $0.update(.id("a"), with: RowChange(size: .fixed(-3))) }
        expect(.unknownRow, "rows[0]") { try $0.setHidden([.id("zz")], true) }
    }

    func testQueries() throws {
        let stack = try ScrollStack(rows: [
            fixedRow("a", hidden: true, type: "Header"), fixedRow("b", type: "Gallery", instance: "g1"),
            fixedRow("c", type: "Gallery", instance: "g2"), fixedRow("d", hidden: true, type: "Footer"),
        ])
        XCTAssertEqual(stack.firstRow?.id, "a", "hidden rows count")
        XCTAssertEqual(stack.lastRow?.id, "d")
        XCTAssertFalse(stack.isEmpty)
        XCTAssertEqual(stack.count, 4)
        XCTAssertEqual(stack.firstRow(controllerType: "Gallery")?.row.id, "b")
        XCTAssertEqual(stack.rows(controllerType: "Gallery").map(\.index), [1, 2])
        XCTAssertEqual(stack.row(controllerInstance: "g2")?.index, 2)
        XCTAssertNil(stack.firstRow(controllerType: "None"))
        XCTAssertEqual(stack.index(ofID: "d"), 3)
        XCTAssertNil(stack.index(ofID: "zz"))
    }

    func testHitTest() throws {
        var stack = try ScrollStack(settings: StackSettings(viewport: Size(width: 200, height: 100), spacing: 10),
                                    rows: [fixedRow("a", 40, insets: .zero), fixedRow("h", 40, insets: .zero, hidden: true), fixedRow("b", 40, insets: .zero)])
        XCTAssertEqual(stack.hitTest(Point(x: 5, y: 0))?.id, "a")
        XCTAssertEqual(stack.hitTest(Point(x: 5, y: 39.75))?.id, "a")
        XCTAssertNil(stack.hitTest(Point(x: 5, y: 45)), "spacing")
        XCTAssertEqual(stack.hitTest(Point(x: 5, y: 50))?.id, "b", "the hidden row is never hit")
        XCTAssertNil(stack.hitTest(Point(x: 5, y: 95)), "past the content")
        XCTAssertNil(stack.hitTest(Point(x: 200, y: 10)), "outside the viewport")
        XCTAssertNil(stack.hitTest(Point(x: -1, y: 10)))
        try stack.scroll(to: .offset(Point(x: 0, y: 30)))
        XCTAssertEqual(stack.hitTest(Point(x: 5, y: 5))?.id, "a")
        XCTAssertEqual(stack.hitTest(Point(x: 5, y: 25))?.id, "b")
    }
}
