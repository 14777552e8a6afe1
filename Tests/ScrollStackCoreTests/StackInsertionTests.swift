import XCTest
import ScrollStackCore

/// Inserting rows: locations, block order, final indexes, events and every validation error
/// (Docs/Semantics.md, "Operations": insert one or many; "Rows").
final class StackInsertionTests: XCTestCase {

    func added(_ result: OperationResult) -> [String] {
        result.events.compactMap { if case .rowAdded(let id, let index) = $0 { "\(id)@\(index)" } else { nil } }
    }

    func testInsertIntoAnEmptyStack() throws {
        var stack = try ScrollStack()
        let result = try stack.insert([Fx.defaultRow("a")])
        stack.checkInvariants()
        XCTAssertEqual(result.events, [
            .rowAdded(id: "a", index: 0), .layoutUpdated,
            .contentSizeChanged(from: Size(width: 375, height: 0), to: Size(width: 375, height: 68)),
            .becameVisible(id: "a", index: 0, visibility: .entire),
        ])
        XCTAssertEqual(result.changed, ["a"])
        XCTAssertTrue(result.removed.isEmpty)
        XCTAssertEqual(Fx.ids(stack), ["a"])
        XCTAssertEqual(stack.count, 1)
    }

    func testABlockKeepsItsInputOrderAtEveryLocation() throws {
        let block = ["t1", "t2", "t3"]
        let cases: [(InsertLocation, [String], [String])] = [
            (.top, ["t1", "t2", "t3", "a", "b", "c"], ["t1@0", "t2@1", "t3@2"]),
            (.bottom, ["a", "b", "c", "t1", "t2", "t3"], ["t1@3", "t2@4", "t3@5"]),
            (.index(0), ["t1", "t2", "t3", "a", "b", "c"], ["t1@0", "t2@1", "t3@2"]),
            (.index(1), ["a", "t1", "t2", "t3", "b", "c"], ["t1@1", "t2@2", "t3@3"]),
            (.index(2), ["a", "b", "t1", "t2", "t3", "c"], ["t1@2", "t2@3", "t3@4"]),
            (.index(3), ["a", "b", "c", "t1", "t2", "t3"], ["t1@3", "t2@4", "t3@5"]),
            (.before(.id("a")), ["t1", "t2", "t3", "a", "b", "c"], ["t1@0", "t2@1", "t3@2"]),
            (.before(.id("c")), ["a", "b", "t1", "t2", "t3", "c"], ["t1@2", "t2@3", "t3@4"]),
            (.before(.index(1)), ["a", "t1", "t2", "t3", "b", "c"], ["t1@1", "t2@2", "t3@3"]),
            (.after(.id("a")), ["a", "t1", "t2", "t3", "b", "c"], ["t1@1", "t2@2", "t3@3"]),
            (.after(.index(1)), ["a", "b", "t1", "t2", "t3", "c"], ["t1@2", "t2@3", "t3@4"]),
            (.after(.id("c")), ["a", "b", "c", "t1", "t2", "t3"], ["t1@3", "t2@4", "t3@5"]),
        ]
        for (location, expectedIDs, expectedAdded) in cases {
            var stack = try Fx.stack(["a", "b", "c"].map { Fx.row($0) })
            let result = try stack.insert(block.map { Fx.row($0, 10) }, at: location)
            stack.checkInvariants()
            XCTAssertEqual(Fx.ids(stack), expectedIDs, "\(location)")
            XCTAssertEqual(added(result), expectedAdded, "\(location)")
            XCTAssertEqual(Array(result.events.prefix(3)).map(\.name), ["rowAdded", "rowAdded", "rowAdded"], "\(location)")
            XCTAssertEqual(result.events[3], .layoutUpdated, "\(location)")
            XCTAssertEqual(result.changed, block, "\(location)")
            for (index, id) in expectedIDs.enumerated() {
                XCTAssertEqual(stack.index(ofID: id), index, "\(location) \(id)")
            }
            XCTAssertEqual(stack.contentSize, Size(width: 200, height: 180), "\(location)")
        }
    }

    func testSuccessiveInsertsAtEveryLocation() throws {
        var stack = try Fx.stack([Fx.row("a"), Fx.row("b"), Fx.row("c")])
        try stack.insert([Fx.row("t1"), Fx.row("t2")], at: .top)
        try stack.insert([Fx.row("i1"), Fx.row("i2")], at: .index(3))
        let before = try stack.insert([Fx.row("b1"), Fx.row("b2")], at: .before(.id("b")))
        XCTAssertEqual(added(before), ["b1@5", "b2@6"])
        let after = try stack.insert([Fx.row("a1"), Fx.row("a2")], at: .after(.index(0)))
        XCTAssertEqual(added(after), ["a1@1", "a2@2"])
        try stack.insert([Fx.row("z1"), Fx.row("z2")], at: .bottom)
        stack.checkInvariants()
        XCTAssertEqual(Fx.ids(stack), ["t1", "a1", "a2", "t2", "a", "i1", "i2", "b1", "b2", "b", "c", "z1", "z2"])
        XCTAssertEqual(stack.index(ofID: "b"), 9)
        XCTAssertEqual(stack.index(ofID: "z2"), 12)
        XCTAssertEqual(stack.contentSize, Size(width: 200, height: 650))
    }

    func testInsertedRowsAreMeasuredAndKeptVerbatim() throws {
        var stack = try ScrollStack()
        let view = Fx.viewRow("v", 20, type: "Label", properties: #"{"text": "héllo", "n": 1.50}"#)
        var flagged = Fx.row("t", 10)
        flagged.tappable = true
        flagged.highlightable = true
        try stack.insert([Fx.fitRow("f", .box(height: 30)), view, flagged])
        stack.checkInvariants()
        let f = try stack.layout(of: .id("f"))
        XCTAssertEqual(f.frame, Rect(x: 0, y: 0, width: 375, height: 54))
        XCTAssertEqual(f.contentFrame, Rect(x: 16, y: 12, width: 343, height: 30))
        XCTAssertEqual(try stack.layout(of: .id("v")).frame, Rect(x: 0, y: 54, width: 375, height: 20))
        XCTAssertEqual(stack.row(id: "v"), view)
        XCTAssertEqual(stack.row(id: "v")?.content, .view(ViewDescriptor(type: "Label", properties: #"{"text": "héllo", "n": 1.50}"#)))
        XCTAssertNil(stack.row(id: "v")?.controller)
        XCTAssertEqual(stack.row(id: "t"), flagged)
        XCTAssertEqual(stack.row(id: "t")?.tappable, true)
        XCTAssertEqual(stack.row(id: "t")?.highlightable, true)
        XCTAssertEqual(stack.contentSize, Size(width: 375, height: 84))
    }

    // MARK: Errors

    func testLocationErrors() throws {
        var stack = try Fx.stack([Fx.row("a"), Fx.row("b"), Fx.row("c")])
        Fx.assertFails(&stack, .emptyBatch, field: "rows") { try $0.insert([], at: .top) }
        Fx.assertFails(&stack, .unknownRow, field: "at.before") { try $0.insert([Fx.row("x")], at: .before(.id("zz"))) }
        Fx.assertFails(&stack, .unknownRow, field: "at.before") { try $0.insert([Fx.row("x")], at: .before(.index(3))) }
        Fx.assertFails(&stack, .unknownRow, field: "at.after") { try $0.insert([Fx.row("x")], at: .after(.id("zz"))) }
        Fx.assertFails(&stack, .unknownRow, field: "at.after") { try $0.insert([Fx.row("x")], at: .after(.index(-1))) }
        Fx.assertFails(&stack, .indexOutOfRange, field: "at.index") { try $0.insert([Fx.row("x")], at: .index(4)) }
        Fx.assertFails(&stack, .indexOutOfRange, field: "at.index") { try $0.insert([Fx.row("x")], at: .index(-1)) }
        Fx.assertFails(&stack, .unknownRow, field: "at.before") {
            try $0.insert([Fx.row("x")], at: .before(.id("x")))  // a row of the batch is not in the stack yet
        }

        var empty = try ScrollStack()
        Fx.assertFails(&empty, .indexOutOfRange, field: "at.index") { try $0.insert([Fx.row("x")], at: .index(1)) }
        Fx.assertFails(&empty, .unknownRow, field: "at.after") { try $0.insert([Fx.row("x")], at: .after(.index(0))) }
        Fx.assertFails(&empty, .emptyBatch, field: "rows") { try $0.insert([]) }
        try empty.insert([Fx.row("x")], at: .index(0))
        empty.checkInvariants()
        XCTAssertEqual(Fx.ids(empty), ["x"])
    }

    func testRowRuleErrors() throws {
        var stack = try Fx.stack([Fx.row("a"), Fx.row("b")])
        func bad(_ field: String, code: StackError.Code = .invalidValue, line: UInt = #line, _ rows: [Row]) {
            Fx.assertFails(&stack, code, field: field, line: line) { try $0.insert(rows, at: .index(1)) }
        }
        let ok = Fx.row("ok")
        bad("rows[0].size.fixed", [Fx.row("x", -1)])
        bad("rows[1].size.fixed", [ok, Fx.row("x", -4)])
        bad("rows[0].size.fixed", [Fx.row("x", .infinity)])
        bad("rows[0].size.fixed", [Fx.row("x", 1e9 + 1)])
        bad("rows[0].size.horizontal.fixed", [Row(id: "x", content: .view(ViewDescriptor(type: "V")),
                                                  size: SizeRule(vertical: .fixed(10), horizontal: .fixed(-1)))])
        bad("rows[0].insets.top", [Fx.row("x", insets: EdgeInsets(top: .nan))])
        bad("rows[0].insets.left", [Fx.row("x", insets: EdgeInsets(left: -1))])
        bad("rows[0].insets.right", [Fx.row("x", insets: EdgeInsets(right: .infinity))])
        bad("rows[0].content", [Row(id: "x", content: .controller(ControllerDescriptor(type: "VC")), size: .fit)])
        bad("rows[0].content", [Row(id: "x", content: .view(ViewDescriptor(type: "V")),
                                    size: SizeRule(vertical: .fixed(10), horizontal: .fit))])
        bad("rows[0].separator.color", [Fx.row("x", separator: SeparatorOverride(color: "red"))])
        bad("rows[0].separator.color", [Fx.row("x", separator: SeparatorOverride(color: "#12345"))])
        bad("rows[0].separator.color", [Fx.row("x", separator: SeparatorOverride(color: "#GG0000FF"))])
        bad("rows[0].separator.thickness", [Fx.row("x", separator: SeparatorOverride(thickness: -1))])
        bad("rows[0].separator.insets.bottom", [Fx.row("x", separator: SeparatorOverride(insets: EdgeInsets(bottom: .nan)))])
        bad("rows[0].id", [Fx.row("")])
        bad("rows[0].controller.type", [Fx.row("x", type: "")])
        bad("rows[0].view.type", [Fx.viewRow("x", type: "")])
        bad("rows[0].content.aspectRatio", [Fx.fitRow("x", .aspectRatio(0))])
        bad("rows[0].content.aspectRatio", [Fx.fitRow("x", .aspectRatio(-2))])
        bad("rows[0].content.children[1].width", [Fx.fitRow("x", .stack(.vertical, [.box(height: 1), .box(width: -1)]))])
        bad("rows[0].content.spacing", [Fx.fitRow("x", .stack(.horizontal, spacing: .nan, []))])
        bad("rows[0].content.padding.left", [Fx.fitRow("x", .stack(.vertical, padding: EdgeInsets(left: -3), []))])
        bad("rows[0].content.minHeight", [Fx.fitRow("x", ContentDescription(.box(width: nil, height: 1), minHeight: -1))])
        bad("rows[0].content.children[0].maxWidth", [
            Fx.fitRow("x", .stack(.vertical, [ContentDescription(.aspectRatio(1), maxWidth: .infinity)])),
        ])

        bad("rows[1].id", code: .duplicateID, [Fx.row("x"), Fx.row("x")])
        bad("rows[2].id", code: .duplicateID, [Fx.row("x"), Fx.row("y"), Fx.row("x")])
        bad("rows[0].id", code: .duplicateID, [Fx.row("a")])
        bad("rows[1].id", code: .duplicateID, [Fx.row("x"), Fx.row("b")])
        XCTAssertEqual(Fx.ids(stack), ["a", "b"])

        // The largest accepted length is 10⁹.
        try stack.insert([Fx.row("huge", 1e9)], at: .bottom)
        stack.checkInvariants()
        XCTAssertEqual(stack.contentSize.height, 100 + 1e9)
    }

    /// `SizeRule.fixed(_:)` is one rule for both axes, so its error is named `size.fixed`
    /// whatever the bad number is (as it is for −1 and ∞ above).
    func testANaNFixedSizeIsNamedLikeAnyOtherBadFixedSize() throws {
        var stack = try Fx.stack([Fx.row("a")])
        Fx.assertFails(&stack, .invalidValue, field: "rows[0].size.fixed") { try $0.insert([Fx.row("x", .nan)]) }
        Fx.assertFails(&stack, .invalidValue, field: "size.fixed") { try $0.replace(.id("a"), with: Fx.row("a", .nan)) }
        Fx.assertFails(&stack, .invalidValue, field: "rows[0].size.fixed") {
            try $0.update([.id("a")], with: RowChange(size: .fixed(.nan)))
        }
    }

    func testContentNestingIsLimitedTo64Nodes() throws {
        func chain(_ nodes: Int) -> ContentDescription {
            var description = ContentDescription.box(height: 1)
            for _ in 1..<nodes { description = .stack(.vertical, [description]) }
            return description
        }
        var stack = try ScrollStack()
        try stack.insert([Fx.fitRow("deep", chain(64))])
        stack.checkInvariants()
        XCTAssertEqual(try stack.layout(of: .id("deep")).frame.size.height, 25)
        let path = "rows[0].content" + String(repeating: ".children[0]", count: 64)
        Fx.assertFails(&stack, .invalidValue, field: path) { try $0.insert([Fx.fitRow("deeper", chain(65))]) }
    }
}
