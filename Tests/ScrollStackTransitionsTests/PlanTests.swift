import TestSeeds
import XCTest
@testable import ScrollStackCore
@testable import ScrollStackTransitions

/// Plans of every stack operation: their ends equal the layouts before and after, rows that
/// do not change are absent, and plans derived from the change alone equal plans computed
/// from a full copy of the stack before it.
final class PlanTests: XCTestCase {
    static func row(_ id: String, _ length: Double = 50, hidden: Bool = false, transition: RowTransition? = nil) -> Row {
        Row(id: id, content: .controller(ControllerDescriptor(type: "VC")), size: .fixed(length), insets: .zero,
            hidden: hidden, transition: transition)
    }

    static func stack(_ n: Int, length: Double = 50, spacing: Double = 0, offset: Double = 0, axis: Axis = .vertical) throws -> ScrollStack {
        let settings = StackSettings(axis: axis, viewport: Size(width: 200, height: 100), offset: Point(x: 0, y: offset), spacing: spacing)
        return try ScrollStack(settings: settings, rows: (0..<n).map { row("r\($0)", length) })
    }

    /// Runs `operation` on `stack` and checks its plan against the full layouts before and
    /// after; returns the plan.
    @discardableResult
    func plan(_ stack: inout ScrollStack, targets: [String]?, compare: Bool = true, file: StaticString = #filePath, line: UInt = #line,
              _ operation: (inout ScrollStack) throws -> OperationResult) throws -> TransitionPlan {
        let before = stack.layout()
        let capture = TransitionCapture(stack, targets: targets)
        let full = TransitionCapture(stack, targets: nil)
        let result = try operation(&stack)
        let after = stack.layout()
        let plan = TransitionPlanner.plan(from: capture, to: stack, result: result, timing: .rows, animated: true)
        let reference = TransitionPlanner.plan(from: full, to: stack, result: result, timing: .rows, animated: true)
        if targets != nil && compare {
            // The snapshot mode collapses removed rows in the layout before (it knows no targets).
            func comparable(_ rows: [RowTransitionEntry]) -> [RowTransitionEntry] {
                rows.map { entry in
                    var e = entry
                    if e.change == .remove { e.to = e.from }
                    return e
                }
            }
            XCTAssertEqual(comparable(plan.rows), comparable(reference.rows), "derived plan differs from the snapshot plan", file: file, line: line)
        }
        check(plan, before: before, after: after, result: result, targets: targets ?? [], file: file, line: line)
        return plan
    }

    func check(_ plan: TransitionPlan, before: StackLayout, after: StackLayout, result: OperationResult, targets: [String],
               file: StaticString, line: UInt) {
        let old = Dictionary(before.rows.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let new = Dictionary(after.rows.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        func same(_ state: RowState, _ layout: RowLayout) -> Bool {
            state.frame == layout.frame && state.contentFrame == layout.contentFrame && state.separatorFrame == layout.separatorFrame
                && state.index == layout.index
        }
        XCTAssertEqual(plan.contentSize.from, before.contentSize, file: file, line: line)
        XCTAssertEqual(plan.contentSize.to, after.contentSize, file: file, line: line)
        XCTAssertEqual(plan.offset.from, before.offset, file: file, line: line)
        XCTAssertEqual(plan.offset.to, after.offset, file: file, line: line)
        var planned: Set<String> = []
        for entry in plan.rows {
            planned.insert(entry.id)
            if entry.enter {
                XCTAssertEqual(entry.from.alpha, 0, "\(entry.id) enters transparent", file: file, line: line)
                XCTAssertEqual(entry.from.frame, entry.to.frame, "\(entry.id) enters at its final frame", file: file, line: line)
            } else if let layout = old[entry.id] {
                XCTAssertTrue(same(entry.from, layout), "\(entry.id) starts at \(entry.from), was \(layout)", file: file, line: line)
            } else {
                XCTFail("\(entry.id) starts without being in the stack before", file: file, line: line)
            }
            if entry.exit {
                XCTAssertNil(entry.to.index, file: file, line: line)
            } else if let layout = new[entry.id] {
                XCTAssertTrue(same(entry.to, layout), "\(entry.id) ends at \(entry.to), is \(layout)", file: file, line: line)
            } else {
                XCTFail("\(entry.id) stays without being in the stack after", file: file, line: line)
            }
            if !entry.enter && !entry.exit {
                XCTAssertFalse(entry.from.looksLike(entry.to), "\(entry.id) is planned without changing", file: file, line: line)
            }
        }
        // Every row that changes and is seen (visible at either end) or named is planned.
        let named = Set(targets + result.changed)
        for (id, layout) in new {
            let was = old[id]
            let changed = was.map { $0.frame != layout.frame || $0.contentFrame != layout.contentFrame || $0.separatorFrame != layout.separatorFrame } ?? true
            let seen = layout.visibility.isVisible || (was?.visibility.isVisible ?? false) || named.contains(id)
            if changed && seen { XCTAssertTrue(planned.contains(id), "\(id) changes but is not planned", file: file, line: line) }
            if !changed && !named.contains(id) { XCTAssertFalse(planned.contains(id), "\(id) does not change but is planned", file: file, line: line) }
        }
        for (id, layout) in old where new[id] == nil && (layout.visibility.isVisible || named.contains(id)) {
            XCTAssertTrue(plan.rows.contains { $0.id == id && $0.exit }, "\(id) leaves without an exit", file: file, line: line)
        }
    }

    func testInsertFadesInAtItsFinalFrameWhileOthersSlide() throws {
        var stack = try Self.stack(4)
        let plan = try self.plan(&stack, targets: []) { try $0.insert([Self.row("n", 30)], at: .index(1)) }
        let inserted = try XCTUnwrap(plan.rows.first { $0.id == "n" })
        XCTAssertEqual(inserted.change, .insert)
        XCTAssertTrue(inserted.enter)
        XCTAssertEqual(inserted.to.frame, Rect(x: 0, y: 50, width: 200, height: 30))
        XCTAssertEqual(inserted.to.alpha, 1)
        let slid = try XCTUnwrap(plan.rows.first { $0.id == "r1" })
        XCTAssertEqual(slid.change, .slide)
        XCTAssertEqual(slid.from.frame.minY, 50)
        XCTAssertEqual(slid.to.frame.minY, 80)
        XCTAssertNil(plan.rows.first { $0.id == "r0" }, "r0 does not move")
        // r2 and r3 are offscreen (viewport 0…100) at both ends: not planned.
        XCTAssertEqual(Set(plan.rows.map(\.id)), ["n", "r1"])
    }

    func testHideCollapsesToTheCollapsePointWithTheRowsLooks() throws {
        let look = RowTransition(hide: RowLook(alpha: 0, translate: Point(x: -20, y: 0), scale: 0.5), show: RowLook(alpha: 1))
        var stack = try ScrollStack(settings: StackSettings(viewport: Size(width: 200, height: 100), spacing: 10),
                                    rows: [Self.row("a"), Self.row("b", transition: look), Self.row("c")])
        let plan = try self.plan(&stack, targets: ["b"]) { try $0.setHidden([.id("b")], true) }
        let hidden = try XCTUnwrap(plan.rows.first { $0.id == "b" })
        XCTAssertEqual(hidden.change, .hide)
        XCTAssertEqual(hidden.to.frame, Rect(x: 0, y: 50, width: 200, height: 0), "collapses at the end of the previous shown row")
        XCTAssertTrue(hidden.to.hidden)
        XCTAssertEqual(hidden.to.alpha, 0)
        XCTAssertEqual(hidden.to.translate, Point(x: -20, y: 0))
        XCTAssertEqual(hidden.to.scale, 0.5)
        XCTAssertEqual(hidden.from.alpha, 1)
        let c = try XCTUnwrap(plan.rows.first { $0.id == "c" })
        XCTAssertEqual(c.from.frame.minY, 120)
        XCTAssertEqual(c.to.frame.minY, 60)
        // And back: show starts from the hide look.
        let shown = try self.plan(&stack, targets: ["b"]) { try $0.setHidden([.id("b")], false) }
        let b = try XCTUnwrap(shown.rows.first { $0.id == "b" })
        XCTAssertEqual(b.change, .show)
        XCTAssertEqual(b.from.alpha, 0)
        XCTAssertEqual(b.from.scale, 0.5)
        XCTAssertEqual(b.to.frame, Rect(x: 0, y: 60, width: 200, height: 50))
    }

    func testRemoveCollapsesWhereItStoodThenLeaves() throws {
        var stack = try Self.stack(5, spacing: 5)
        let plan = try self.plan(&stack, targets: ["r1"]) { try $0.remove([.id("r1")]) }
        let removed = try XCTUnwrap(plan.rows.first { $0.id == "r1" })
        XCTAssertEqual(removed.change, .remove)
        XCTAssertTrue(removed.exit)
        XCTAssertEqual(removed.from.frame, Rect(x: 0, y: 55, width: 200, height: 50))
        XCTAssertEqual(removed.to.frame, Rect(x: 0, y: 50, width: 200, height: 0), "the end of r0, where r1 stood")
        XCTAssertEqual(plan.rows.last?.id, "r1", "exits come last")
        let r2 = try XCTUnwrap(plan.rows.first { $0.id == "r2" })
        XCTAssertEqual(r2.from.index, 2)
        XCTAssertEqual(r2.to.index, 1)
        XCTAssertEqual(r2.to.frame.minY, 55)
    }

    func testMoveSlides() throws {
        var stack = try Self.stack(6, length: 20)
        let plan = try self.plan(&stack, targets: ["r0"]) { try $0.move(.id("r0"), to: 3) }
        let moved = try XCTUnwrap(plan.rows.first { $0.id == "r0" })
        XCTAssertEqual(moved.change, .move)
        XCTAssertEqual(moved.from.frame.minY, 0)
        XCTAssertEqual(moved.to.frame.minY, 60)
        XCTAssertEqual(plan.rows.filter { $0.change == .slide }.map(\.id), ["r1", "r2", "r3"])
    }

    func testReplaceCrossFades() throws {
        var stack = try Self.stack(3)
        let plan = try self.plan(&stack, targets: ["r1"]) { try $0.replace(.id("r1"), with: Self.row("x", 70)) }
        let out = try XCTUnwrap(plan.rows.first { $0.id == "r1" })
        XCTAssertEqual(out.change, .replace)
        XCTAssertTrue(out.exit)
        XCTAssertEqual(out.from.alpha, 1)
        XCTAssertEqual(out.to.alpha, 0)
        XCTAssertEqual(out.to.frame, Rect(x: 0, y: 50, width: 200, height: 70))
        let into = try XCTUnwrap(plan.rows.first { $0.id == "x" })
        XCTAssertEqual(into.change, .replace)
        XCTAssertTrue(into.enter)
        XCTAssertEqual(into.from.alpha, 0)
        XCTAssertEqual(into.to.alpha, 1)
    }

    func testScrollMovesOnlyTheOffset() throws {
        var stack = try Self.stack(10)
        let plan = try self.plan(&stack, targets: nil) { try $0.scroll(to: .offset(Point(x: 0, y: 120))) }
        XCTAssertEqual(plan.rows, [])
        XCTAssertEqual(plan.offset.from, Point(x: 0, y: 0))
        XCTAssertEqual(plan.offset.to, Point(x: 0, y: 120))
    }

    func testAxisChangeIsAPlan() throws {
        var stack = try Self.stack(3, length: 40)
        let plan = try self.plan(&stack, targets: nil) { try $0.update(SettingsChange(axis: .horizontal)) }
        XCTAssertEqual(plan.axis.from, .vertical)
        XCTAssertEqual(plan.axis.to, .horizontal)
        let r1 = try XCTUnwrap(plan.rows.first { $0.id == "r1" })
        XCTAssertEqual(r1.change, .layout)
        XCTAssertEqual(r1.from.frame, Rect(x: 0, y: 40, width: 200, height: 40))
        XCTAssertEqual(r1.to.frame, Rect(x: 40, y: 0, width: 40, height: 100))
    }

    func testResizeOfAnOffscreenRowSlidesTheVisibleOnes() throws {
        var stack = try Self.stack(10, offset: 200)
        let plan = try self.plan(&stack, targets: ["r1"]) { try $0.update(.id("r1"), with: RowChange(size: .fixed(80))) }
        XCTAssertEqual(plan.rows.first?.id, "r1")
        XCTAssertEqual(plan.rows.first?.change, .update)
        XCTAssertEqual(plan.rows.map(\.id), ["r1", "r3", "r4", "r5"], "r2 and r6 are offscreen at both ends")
    }

    func testRemoveAllCollapsesTheVisibleRowsOnly() throws {
        var stack = try Self.stack(100, offset: 1000)
        // Without targets every removed row counts as named; removeAll names none (it would be O(n)).
        let plan = try self.plan(&stack, targets: [], compare: false) { $0.removeAll() }
        XCTAssertEqual(plan.rows.map(\.id), ["r20", "r21"], "only the rows seen (1000…1100) are in the plan")
        XCTAssertTrue(plan.rows.allSatisfy { $0.exit && $0.change == .remove && $0.to.frame.size.height == 0 })
        XCTAssertEqual(plan.contentSize.to.height, 0)
    }

    func testRevertAndReloadArePlans() throws {
        var stack = try Self.stack(6)
        let past = stack
        try stack.remove([.id("r0")])
        try stack.insert([Self.row("n", 20)], at: .index(1))
        let plan = try self.plan(&stack, targets: nil) { $0.replaceContents(with: past) }
        XCTAssertEqual(plan.rows.first { $0.id == "r0" }?.change, .insert, "r0 comes back, fading in")
        XCTAssertEqual(plan.rows.first { $0.id == "n" }?.exit, true)
        XCTAssertEqual(plan.rows.first { $0.id == "r1" }?.change, .slide)
        let reload = try self.plan(&stack, targets: ["r1"]) { try $0.reload([.id("r1")]) }
        XCTAssertEqual(reload.rows, [], "a reload that changes no length moves nothing")
    }

    /// Random stacks and operations; the derived plan must equal the snapshot plan and both
    /// must meet the layouts. Prints its seed.
    func testRandomOperationsDerivedEqualsSnapshot() throws {
        let seed = TestSeed.seed("PlanTests.testRandomOperationsDerivedEqualsSnapshot")
        var rng = SplitMix64(seed: seed)
        for round in 0..<300 {
            let n = Int(rng.next() % 30) + 1
            var rows: [Row] = []
            for i in 0..<n {
                rows.append(Self.row("r\(i)", Double(rng.next() % 60), hidden: rng.next() % 5 == 0))
            }
            let spacing = Double(rng.next() % 3) * 4
            var separator = SeparatorStyle()
            separator.hidden = rng.next() % 4 == 0
            let settings = StackSettings(viewport: Size(width: 100, height: 120), offset: Point(x: 0, y: Double(rng.next() % 400)),
                                         spacing: spacing, separator: separator, autoHideLastRowSeparator: rng.next() % 2 == 0)
            var stack = try ScrollStack(settings: settings, rows: rows)
            let pick = { (rng: inout SplitMix64) in "r\(Int(rng.next() % UInt64(n)))" }
            let a = pick(&rng), b = pick(&rng)
            let label = "seed \(seed) round \(round)"
            switch rng.next() % 7 {
            case 0:
                try plan(&stack, targets: []) { try $0.insert([Self.row("n1", 25), Self.row("n2", 0)], at: .index(Int(rng.next() % UInt64(n + 1)))) }
            case 1:
                let targets = Array(Set([a, b]))
                try plan(&stack, targets: targets) { try $0.remove(targets.map { .id($0) }) }
            case 2:
                try plan(&stack, targets: [a]) { try $0.setHidden([.id(a)], !$0.row(id: a)!.hidden) }
            case 3:
                let to = Int(rng.next() % UInt64(n))
                try plan(&stack, targets: [a]) { try $0.move(.id(a), to: to) }
            case 4:
                try plan(&stack, targets: [a]) { try $0.replace(.id(a), with: Self.row(rng.next() % 2 == 0 ? a : "x", 33)) }
            case 5:
                let targets = Array(Set([a, b]))
                try plan(&stack, targets: targets) { try $0.update(targets.map { .id($0) }, with: RowChange(size: .fixed(Double(rng.next() % 90)))) }
            default:
                try plan(&stack, targets: [a]) { try $0.remove([.id(a)]) }
            }
            if (testRun?.totalFailureCount ?? 0) > 0 { return XCTFail(label) }
        }
    }
}
