import XCTest
import ScrollStackCore

/// Replace, move, hide/show, insets, separator overrides, size and content changes, reload
/// (Docs/Semantics.md, "Operations" and "Events").
final class StackRowUpdateTests: XCTestCase {

    // MARK: Replace

    func testReplaceKeepingTheID() throws {
        var stack = try Fx.uniform(4)
        let old = stack.row(id: "r1")!
        let result = try stack.replace(.id("r1"), with: Fx.row("r1", 20))
        stack.checkInvariants()
        Fx.assertEvents(result.events, [
            .rowRemoved(id: "r1", index: 1), .rowAdded(id: "r1", index: 1), .layoutUpdated,
            .contentSizeChanged(from: Size(width: 200, height: 200), to: Size(width: 200, height: 170)),
            .becameVisible(id: "r1", index: 1, visibility: .entire),
            .becameVisible(id: "r2", index: 2, visibility: .partial(fraction: 0.6)),
        ])
        XCTAssertEqual(result.changed, ["r1"])
        XCTAssertEqual(result.removed.map(\.row), [old])
        XCTAssertEqual(result.removed.map(\.index), [1])
        XCTAssertEqual(Fx.ids(stack), ["r0", "r1", "r2", "r3"])
        XCTAssertEqual(try stack.layout(of: .id("r1")).frame, Rect(x: 0, y: 50, width: 200, height: 20))
    }

    func testReplaceWithANewID() throws {
        var stack = try Fx.uniform(4)
        let result = try stack.replace(.index(0), with: Fx.viewRow("x", 50))
        stack.checkInvariants()
        XCTAssertEqual(result.events, [
            .rowRemoved(id: "r0", index: 0), .rowAdded(id: "x", index: 0), .layoutUpdated,
            .becameVisible(id: "x", index: 0, visibility: .entire),
        ], "the old row emits nothing; the new one starts afresh")
        XCTAssertEqual(result.changed, ["x"])
        XCTAssertEqual(result.removed.map(\.row.id), ["r0"])
        XCTAssertEqual(Fx.ids(stack), ["x", "r1", "r2", "r3"])
        XCTAssertNil(stack.index(ofID: "r0"))
        XCTAssertEqual(stack.index(ofID: "x"), 0)
        XCTAssertEqual(stack.row(at: 0).content, .view(ViewDescriptor(type: "Label")))

        // The old id is free again.
        try stack.insert([Fx.row("r0")], at: .bottom)
        stack.checkInvariants()
        XCTAssertEqual(stack.index(ofID: "r0"), 4)
    }

    func testReplaceAVisibleRowWithAHiddenOne() throws {
        var stack = try Fx.uniform(4)
        let result = try stack.replace(.id("r0"), with: Fx.row("y", 50, hidden: true))
        stack.checkInvariants()
        XCTAssertEqual(result.events, [
            .rowRemoved(id: "r0", index: 0), .rowAdded(id: "y", index: 0), .layoutUpdated,
            .contentSizeChanged(from: Size(width: 200, height: 200), to: Size(width: 200, height: 150)),
            .becameVisible(id: "r2", index: 2, visibility: .entire),
        ])
        XCTAssertEqual(try stack.visibility(of: .id("y")), .hidden)
    }

    func testReplaceErrors() throws {
        var stack = try Fx.uniform(4)
        Fx.assertFails(&stack, .duplicateID, field: "id") { try $0.replace(.id("r1"), with: Fx.row("r2")) }
        Fx.assertFails(&stack, .duplicateID, field: "id") { try $0.replace(.index(0), with: Fx.row("r3")) }
        Fx.assertFails(&stack, .unknownRow, field: "row") { try $0.replace(.id("zz"), with: Fx.row("zz")) }
        Fx.assertFails(&stack, .unknownRow, field: "row") { try $0.replace(.index(4), with: Fx.row("zz")) }
        Fx.assertFails(&stack, .invalidValue, field: "size.fixed") { try $0.replace(.id("r1"), with: Fx.row("r1", -1)) }
        Fx.assertFails(&stack, .invalidValue, field: "insets.bottom") {
            try $0.replace(.id("r1"), with: Fx.row("r1", insets: EdgeInsets(bottom: .nan)))
        }
        Fx.assertFails(&stack, .invalidValue, field: "content") {
            try $0.replace(.id("r1"), with: Row(id: "r1", content: .view(ViewDescriptor(type: "V")), size: .fit))
        }
        Fx.assertFails(&stack, .invalidValue, field: "id") { try $0.replace(.id("r1"), with: Fx.row("")) }
        Fx.assertFails(&stack, .invalidValue, field: "separator.color") {
            try $0.replace(.id("r1"), with: Fx.row("r1", separator: SeparatorOverride(color: "blue")))
        }
    }

    // MARK: Move

    func testMove() throws {
        var stack = try Fx.uniform(4)
        let result = try stack.move(.id("r0"), to: 2)
        stack.checkInvariants()
        XCTAssertEqual(Fx.ids(stack), ["r1", "r2", "r0", "r3"])
        XCTAssertEqual(result.events, [
            .rowMoved(id: "r0", from: 0, to: 2), .layoutUpdated,
            .becameVisible(id: "r2", index: 1, visibility: .entire),
            .becameHidden(id: "r0", index: 2, visibility: .offscreen),
        ])
        XCTAssertEqual(result.changed, ["r0"])

        let back = try stack.move(.index(3), to: 0)
        stack.checkInvariants()
        XCTAssertEqual(Fx.ids(stack), ["r3", "r1", "r2", "r0"])
        XCTAssertEqual(back.events, [
            .rowMoved(id: "r3", from: 3, to: 0), .layoutUpdated,
            .becameVisible(id: "r3", index: 0, visibility: .entire),
            .becameHidden(id: "r2", index: 2, visibility: .offscreen),
        ])
        XCTAssertEqual(stack.index(ofID: "r0"), 3)
        XCTAssertEqual(stack.index(ofID: "r3"), 0)
    }

    func testMovingAHiddenRowKeepsItHidden() throws {
        var stack = try Fx.stack([Fx.row("a"), Fx.row("h", 30, hidden: true), Fx.row("b"), Fx.row("c")], spacing: 10)
        let result = try stack.move(.id("h"), to: 3)
        stack.checkInvariants()
        XCTAssertEqual(result.events, [.rowMoved(id: "h", from: 1, to: 3), .layoutUpdated])
        XCTAssertEqual(Fx.ids(stack), ["a", "b", "c", "h"])
        XCTAssertEqual(stack.row(id: "h")?.hidden, true)
        XCTAssertEqual(try stack.visibility(of: .id("h")), .hidden)
        XCTAssertEqual(try stack.layout(of: .id("h")).frame, Rect(x: 0, y: 170, width: 200, height: 0))
        XCTAssertEqual(stack.contentSize, Size(width: 200, height: 170))

        let home = try stack.move(.id("h"), to: 0)
        stack.checkInvariants()
        XCTAssertEqual(home.events, [.rowMoved(id: "h", from: 3, to: 0), .layoutUpdated])
        XCTAssertEqual(try stack.layout(of: .id("h")).frame, Rect(x: 0, y: 0, width: 200, height: 0))
        XCTAssertEqual(stack.row(id: "h")?.hidden, true)
    }

    func testMoveToItsOwnIndexAndMoveErrors() throws {
        var stack = try Fx.uniform(3)
        let same = try stack.move(.id("r1"), to: 1)
        stack.checkInvariants()
        XCTAssertEqual(same.events, [.layoutUpdated], "no rowMoved for a move in place")
        XCTAssertEqual(same.changed, ["r1"])
        Fx.assertFails(&stack, .indexOutOfRange, field: "to") { try $0.move(.id("r1"), to: 3) }
        Fx.assertFails(&stack, .indexOutOfRange, field: "to") { try $0.move(.id("r1"), to: -1) }
        Fx.assertFails(&stack, .unknownRow, field: "row") { try $0.move(.id("zz"), to: 0) }
        Fx.assertFails(&stack, .unknownRow, field: "row") { try $0.move(.index(3), to: 0) }

        var single = try Fx.uniform(1)
        XCTAssertEqual(try single.move(.index(0), to: 0).events, [.layoutUpdated])
        Fx.assertFails(&single, .indexOutOfRange, field: "to") { try $0.move(.index(0), to: 1) }
    }

    // MARK: Hide, show, size, content

    func testSizeAndHiddenChangesReportRowEventsInOrder() throws {
        var stack = try ScrollStack(rows: [Fx.defaultRow("a"), Fx.defaultRow("b")])  // 68 each
        let resized = try stack.update(.id("a"), with: RowChange(size: .fixed(100)))
        stack.checkInvariants()
        XCTAssertEqual(resized.events, [
            .rowResized(id: "a", index: 0, from: 68, to: 124), .layoutUpdated,
            .contentSizeChanged(from: Size(width: 375, height: 136), to: Size(width: 375, height: 192)),
        ])
        XCTAssertEqual(resized.changed, ["a"])

        let both = try stack.update(.id("b"), with: RowChange(hidden: true, size: .fixed(20)))
        stack.checkInvariants()
        XCTAssertEqual(both.events, [
            .rowHidden(id: "b", index: 1), .rowResized(id: "b", index: 1, from: 68, to: 44), .layoutUpdated,
            .contentSizeChanged(from: Size(width: 375, height: 192), to: Size(width: 375, height: 124)),
            .becameHidden(id: "b", index: 1, visibility: .hidden),
        ])

        let hiddenResize = try stack.update(.id("b"), with: RowChange(size: .fixed(30)))
        stack.checkInvariants()
        XCTAssertEqual(hiddenResize.events, [.rowResized(id: "b", index: 1, from: 44, to: 54), .layoutUpdated],
                       "a hidden row reports its length as if shown")

        let shown = try stack.setHidden([.id("b")], false)
        stack.checkInvariants()
        XCTAssertEqual(shown.events, [
            .rowShown(id: "b", index: 1), .layoutUpdated,
            .contentSizeChanged(from: Size(width: 375, height: 124), to: Size(width: 375, height: 178)),
            .becameVisible(id: "b", index: 1, visibility: .entire),
        ])

        let batch = try stack.update([.id("b"), .id("a")], with: RowChange(size: .fixed(10)))
        stack.checkInvariants()
        XCTAssertEqual(batch.events, [
            .rowResized(id: "b", index: 1, from: 54, to: 34), .rowResized(id: "a", index: 0, from: 124, to: 34),
            .layoutUpdated,
            .contentSizeChanged(from: Size(width: 375, height: 178), to: Size(width: 375, height: 68)),
        ])
        XCTAssertEqual(batch.changed, ["b", "a"])

        let hideBoth = try stack.setHidden([.index(1), .index(0)], true)
        stack.checkInvariants()
        XCTAssertEqual(hideBoth.events, [
            .rowHidden(id: "b", index: 1), .rowHidden(id: "a", index: 0), .layoutUpdated,
            .contentSizeChanged(from: Size(width: 375, height: 68), to: Size(width: 375, height: 0)),
            .becameHidden(id: "a", index: 0, visibility: .hidden),
            .becameHidden(id: "b", index: 1, visibility: .hidden),
        ])
    }

    func testReloadAndContentChanges() throws {
        var stack = try ScrollStack(rows: [Fx.fitRow("f", .aspectRatio(2)), Fx.defaultRow("b")])
        XCTAssertEqual(try stack.layout(of: .id("f")).frame.size.height, 195.5)  // 343 / 2 + 24

        let reload = try stack.reload([.id("f"), .id("b")])
        stack.checkInvariants()
        XCTAssertEqual(reload.events, [.layoutUpdated], "nothing changed")
        XCTAssertEqual(reload.changed, ["f", "b"])

        let content = try stack.update(.id("f"), with: RowChange(contentDescription: .some(.aspectRatio(1))))
        stack.checkInvariants()
        XCTAssertEqual(content.events, [
            .rowResized(id: "f", index: 0, from: 195.5, to: 367), .layoutUpdated,
            .contentSizeChanged(from: Size(width: 375, height: 263.5), to: Size(width: 375, height: 435)),
        ])

        let fit = try stack.update(.id("b"), with: RowChange(size: .fit, contentDescription: .some(.box(height: 10))))
        stack.checkInvariants()
        XCTAssertEqual(fit.events.first, .rowResized(id: "b", index: 1, from: 68, to: 34))

        let controller = RowContent.controller(ControllerDescriptor(type: "Other", instance: "i9", properties: "{}"))
        var flags = RowChange(content: controller, tappable: true, highlightable: true)
        flags.hidden = false
        let retyped = try stack.update([.id("b")], with: flags)
        stack.checkInvariants()
        XCTAssertEqual(retyped.events, [.layoutUpdated])
        XCTAssertEqual(stack.row(id: "b")?.content, controller)
        XCTAssertEqual(stack.row(id: "b")?.tappable, true)
        XCTAssertEqual(stack.row(id: "b")?.highlightable, true)
        XCTAssertEqual(stack.row(controllerInstance: "i9")?.index, 1)
        XCTAssertEqual(stack.firstRow(controllerType: "Other")?.row.id, "b")

        // A fit row cannot lose its description; errors name the change's own fields.
        Fx.assertFails(&stack, .invalidValue, field: "content") {
            try $0.update(.id("f"), with: RowChange(contentDescription: .some(nil)))
        }
        Fx.assertFails(&stack, .invalidValue, field: "size.fixed") { try $0.update(.id("f"), with: RowChange(size: .fixed(-1))) }
        Fx.assertFails(&stack, .unknownRow, field: "row") { try $0.update(.id("zz"), with: RowChange(hidden: true)) }
        Fx.assertFails(&stack, .invalidValue, field: "content.aspectRatio") {
            try $0.update(.id("f"), with: RowChange(contentDescription: .some(.aspectRatio(0))))
        }
        Fx.assertFails(&stack, .invalidValue, field: "controller.type") {
            try $0.update(.id("f"), with: RowChange(content: .controller(ControllerDescriptor(type: ""))))
        }

        // In a batch the path names the row the change breaks.
        var mixed = try ScrollStack(rows: [Fx.row("fixed"), Fx.fitRow("fit", .box(height: 5))])
        Fx.assertFails(&mixed, .invalidValue, field: "rows[1].content") {
            try $0.update([.id("fixed"), .id("fit")], with: RowChange(contentDescription: .some(nil)))
        }
        Fx.assertFails(&mixed, .invalidValue, field: "rows[0].size.fixed") {
            try $0.update([.id("fit"), .id("fixed")], with: RowChange(size: .fixed(-7)))
        }
        Fx.assertFails(&mixed, .invalidValue, field: "rows[0].separator.color") {
            try $0.update([.id("fit")], with: RowChange(separator: SeparatorOverride(color: "#FFFFF")))
        }
    }

    // MARK: Insets

    func testOwnInsetsAndFollowingTheStack() throws {
        var stack = try ScrollStack(rows: [Fx.defaultRow("a"), Fx.defaultRow("b")])  // 68 each
        let own = try stack.setInsets([.id("a")], EdgeInsets(top: 2, left: 0, bottom: 4, right: 0))
        stack.checkInvariants()
        XCTAssertEqual(own.events, [
            .rowResized(id: "a", index: 0, from: 68, to: 50), .layoutUpdated,
            .contentSizeChanged(from: Size(width: 375, height: 136), to: Size(width: 375, height: 118)),
        ])
        XCTAssertEqual(stack.row(id: "a")?.insets, EdgeInsets(top: 2, left: 0, bottom: 4, right: 0))
        XCTAssertEqual(try stack.layout(of: .id("a")).contentFrame, Rect(x: 0, y: 2, width: 375, height: 44))

        // A new stack default reaches only the rows that follow it, without rowResized.
        let defaults = try stack.update(SettingsChange(rowInsets: EdgeInsets(top: 20, left: 16, bottom: 20, right: 16)))
        stack.checkInvariants()
        XCTAssertEqual(defaults.events, [
            .layoutUpdated,
            .contentSizeChanged(from: Size(width: 375, height: 118), to: Size(width: 375, height: 134)),
        ])
        XCTAssertEqual(Fx.frames(stack), [Rect(x: 0, y: 0, width: 375, height: 50), Rect(x: 0, y: 50, width: 375, height: 84)])

        let cleared = try stack.setInsets([.id("a")], nil)
        stack.checkInvariants()
        XCTAssertEqual(cleared.events.first, .rowResized(id: "a", index: 0, from: 50, to: 84))
        XCTAssertNil(stack.row(id: "a")?.insets)
        XCTAssertEqual(try stack.layout(of: .id("a")).contentFrame, Rect(x: 16, y: 20, width: 343, height: 44))

        let both = try stack.setInsets([.id("a"), .id("b")], .zero)
        stack.checkInvariants()
        XCTAssertEqual(Array(both.events.prefix(2)), [
            .rowResized(id: "a", index: 0, from: 84, to: 44), .rowResized(id: "b", index: 1, from: 84, to: 44),
        ])

        Fx.assertFails(&stack, .invalidValue, field: "rows[0].insets.top") { try $0.setInsets([.id("b")], EdgeInsets(top: .nan)) }
        Fx.assertFails(&stack, .invalidValue, field: "insets.left") {
            try $0.update(.id("b"), with: RowChange(insets: .some(EdgeInsets(left: -1))))
        }
    }
}
