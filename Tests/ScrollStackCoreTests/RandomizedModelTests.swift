import XCTest
@testable import ScrollStackCore

/// Thousands of random operations applied both to `ScrollStack` and to `ReferenceModel`,
/// comparing errors, events, changed and removed rows, every frame, visibility, content size,
/// lookups and hit tests after every step.
final class RandomizedModelTests: XCTestCase {
    /// The engine's own SplitMix64, with helpers for drawing test values.
    struct Generator {
        private var source: SplitMix64
        init(state: UInt64) { source = SplitMix64(seed: state) }
        mutating func next() -> UInt64 { source.next() }
        mutating func int(_ n: Int) -> Int { n <= 0 ? 0 : Int(next() % UInt64(n)) }
        mutating func chance(_ percent: Int) -> Bool { int(100) < percent }
        /// A multiple of 0.25 in 0…max, so every sum is exact.
        mutating func quarter(_ max: Int) -> Double { Double(int(max * 4 + 1)) / 4 }
        mutating func pick<T>(_ items: [T]) -> T { items[int(items.count)] }
    }

    struct Harness {
        var stack: ScrollStack
        var model: ReferenceModel
        var rng: Generator
        var nextID = 0
        var steps = 0

        mutating func freshID() -> String {
            nextID += 1
            return "r\(nextID)"
        }

        mutating func randomInsets() -> EdgeInsets {
            EdgeInsets(top: rng.quarter(16), left: rng.quarter(16), bottom: rng.quarter(16), right: rng.quarter(16))
        }

        mutating func randomRow(id: String? = nil) -> Row {
            let content: RowContent = rng.chance(70)
                ? .controller(ControllerDescriptor(type: rng.pick(["A", "B", "C"]), instance: rng.chance(20) ? "i\(rng.int(5))" : nil))
                : .view(ViewDescriptor(type: "V"))
            var row = Row(id: id ?? freshID(), content: content, size: .fixed(rng.quarter(120)))
            switch rng.int(10) {
            case 0, 1:
                row.size = .fit
                row.contentDescription = rng.chance(50) ? .aspectRatio(rng.pick([0.5, 1, 2, 4])) : .box(width: rng.quarter(50), height: rng.quarter(80))
            case 2:
                row.size = SizeRule(vertical: .fixed(rng.quarter(60)), horizontal: .fixed(rng.quarter(200)))
            case 3:
                row.size = .fixed(0)
            default:
                break
            }
            if rng.chance(20) { row.insets = randomInsets() }
            if rng.chance(15) { row.separator = SeparatorOverride(hidden: rng.chance(50), thickness: rng.chance(50) ? rng.quarter(4) : nil) }
            row.hidden = rng.chance(10)
            row.tappable = rng.chance(30)
            return row
        }

        mutating func reference(_ count: Int) -> RowReference {
            let index = rng.int(count)
            return rng.chance(50) ? .index(index) : .id(model.rows[index].id)
        }

        func index(of reference: RowReference) -> Int {
            switch reference {
            case .index(let i): i
            case .id(let id): model.rows.firstIndex { $0.id == id }!
            }
        }

        /// Applies an operation that must succeed to both and compares.
        mutating func expectSuccess(
            _ name: String, engine: (inout ScrollStack) throws -> OperationResult,
            model apply: (inout ReferenceModel) -> (events: [StackEvent], changed: [String], removed: [(String, Int)], forget: Set<String>)
        ) {
            steps += 1
            let sizeBefore = model.contentSize
            let offsetBefore = model.settings.offset
            let result: OperationResult
            do {
                result = try engine(&stack)
            } catch {
                XCTFail("step \(steps) \(name): unexpected error \(error)")
                return
            }
            var expected = apply(&model)
            expected.events += model.closingEvents(sizeBefore: sizeBefore, offsetBefore: offsetBefore, forget: expected.forget)
            XCTAssertEqual(result.events, expected.events, "step \(steps) \(name): events")
            XCTAssertEqual(result.changed, expected.changed, "step \(steps) \(name): changed")
            XCTAssertEqual(result.removed.map(\.row.id), expected.removed.map(\.0), "step \(steps) \(name): removed")
            XCTAssertEqual(result.removed.map(\.index), expected.removed.map(\.1), "step \(steps) \(name): removed indexes")
            compare(name)
        }

        /// Applies an operation that must fail with `code` at `field`, and checks nothing changed.
        mutating func expectFailure(_ name: String, code: StackError.Code, field: String?, _ engine: (inout ScrollStack) throws -> OperationResult) {
            steps += 1
            let before = stack.layout()
            let rowsBefore = stack.rows
            do {
                _ = try engine(&stack)
                XCTFail("step \(steps) \(name): expected \(code) at \(field ?? "nil")")
            } catch let error as StackError {
                XCTAssertEqual(error.code, code, "step \(steps) \(name)")
                XCTAssertEqual(error.field, field, "step \(steps) \(name)")
            } catch {
                XCTFail("step \(steps) \(name): not a StackError: \(error)")
            }
            XCTAssertEqual(stack.layout(), before, "step \(steps) \(name): a failed operation changed the layout")
            XCTAssertEqual(stack.rows, rowsBefore, "step \(steps) \(name): a failed operation changed the rows")
            stack.checkInvariants()
        }

        mutating func compare(_ name: String) {
            stack.checkInvariants()
            let layout = stack.layout()
            let expected = model.layout()
            XCTAssertEqual(layout.rows.count, expected.count, "step \(steps) \(name): row count")
            for (a, b) in zip(layout.rows, expected) where a != b {
                XCTFail("step \(steps) \(name): row \(b.index) \(b.id)\n engine \(a)\n model  \(b)")
                break
            }
            XCTAssertEqual(stack.contentSize, model.contentSize, "step \(steps) \(name): content size")
            XCTAssertEqual(stack.settings, model.settings, "step \(steps) \(name): settings")
            XCTAssertEqual(stack.visibleRows, expected.filter { $0.visibility.isVisible }.map(\.id), "step \(steps) \(name): visible rows")
            XCTAssertEqual(stack.entirelyVisibleRows, expected.filter { $0.visibility == .entire }.map(\.id), "step \(steps) \(name): entire rows")
            if !model.rows.isEmpty {
                let i = rng.int(model.rows.count)
                XCTAssertEqual(stack.index(ofID: model.rows[i].id), i, "step \(steps) \(name): index(ofID:)")
            }
            // Hit tests at a few viewport points.
            for _ in 0..<3 {
                let point = Point(x: rng.quarter(Int(model.settings.viewport.width)), y: rng.quarter(Int(model.settings.viewport.height)))
                let content = Point(x: model.settings.offset.x + point.x, y: model.settings.offset.y + point.y)
                let axis = model.axis
                let inViewport = point.x < model.settings.viewport.width && point.y < model.settings.viewport.height
                let hit = expected.first { l in
                    !model.rows[l.index].hidden && inViewport && l.frame.min(axis) <= content[axis] && content[axis] < l.frame.max(axis)
                        && content[axis.cross] >= 0 && content[axis.cross] < model.cross
                }
                XCTAssertEqual(stack.hitTest(point)?.id, hit?.id, "step \(steps) \(name): hit test at \(point)")
            }
        }

        // MARK: One random step

        mutating func step() {
            let count = model.rows.count
            switch rng.int(20) {
            case 0, 1, 2, 3:
                insertRandom(count)
            case 4, 5:
                guard count > 0 else { return insertRandom(count) }
                var refs: [RowReference] = []
                var seen: Set<Int> = []
                for _ in 0..<(1 + rng.int(min(4, count))) {
                    let r = reference(count)
                    if seen.insert(index(of: r)).inserted { refs.append(r) }
                }
                let targets = refs.map { index(of: $0) }
                expectSuccess("remove \(refs)", engine: { try $0.remove(refs) }) { model in
                    let removed = targets.map { (model.rows[$0].id, $0) }
                    for i in targets.sorted(by: >) { model.rows.remove(at: i) }
                    return (removed.map { .rowRemoved(id: $0.0, index: $0.1) }, [], removed, [])
                }
            case 6:
                guard count > 0 else { return }
                let ref = reference(count)
                let from = index(of: ref)
                let to = rng.int(count)
                expectSuccess("move \(ref) to \(to)", engine: { try $0.move(ref, to: to) }) { model in
                    let row = model.rows.remove(at: from)
                    model.rows.insert(row, at: to)
                    return (from == to ? [] : [.rowMoved(id: row.id, from: from, to: to)], [row.id], [], [])
                }
            case 7, 8:
                guard count > 0 else { return }
                var refs: [RowReference] = []
                var seen: Set<Int> = []
                for _ in 0..<(1 + rng.int(min(3, count))) {
                    let r = reference(count)
                    if seen.insert(index(of: r)).inserted { refs.append(r) }
                }
                var change = RowChange()
                switch rng.int(5) {
                case 0: change.hidden = rng.chance(50)
                case 1: change.insets = .some(rng.chance(70) ? randomInsets() : nil)
                case 2: change.size = .fixed(rng.quarter(150))
                case 3: change.separator = rng.chance(50) ? SeparatorOverride(hidden: rng.chance(50), insets: randomInsets()) : SeparatorOverride.none
                default: break  // reload
                }
                updateRows(refs, change)
            case 9:
                guard count > 0 else { return insertRandom(count) }
                let ref = reference(count)
                let i = index(of: ref)
                var row = randomRow(id: rng.chance(50) ? model.rows[i].id : nil)
                if rng.chance(10), count > 1 {
                    row.id = model.rows[(i + 1) % count].id
                    return expectFailure("replace with a duplicate id", code: .duplicateID, field: "id") { try $0.replace(ref, with: row) }
                }
                let replacement = row
                expectSuccess("replace \(ref)", engine: { try $0.replace(ref, with: replacement) }) { model in
                    let old = model.rows[i]
                    model.rows[i] = replacement
                    return ([.rowRemoved(id: old.id, index: i), .rowAdded(id: replacement.id, index: i)], [replacement.id], [(old.id, i)], [old.id])
                }
            case 10, 11, 12, 13:
                scrollRandom(count)
            case 14, 15:
                changeSettings()
            case 16:
                if rng.chance(10) {
                    expectSuccess("remove all", engine: { $0.removeAll() }) { model in
                        let removed = model.rows.enumerated().map { ($0.element.id, $0.offset) }
                        model.rows.removeAll()
                        return (removed.map { .rowRemoved(id: $0.0, index: $0.1) }, [], removed, [])
                    }
                } else {
                    insertRandom(count)
                }
            default:
                failRandom(count)
            }
        }

        mutating func insertRandom(_ count: Int) {
            let rows = (0..<(1 + rng.int(rng.chance(10) ? 40 : 4))).map { _ in randomRow() }
            var location: InsertLocation
            var index: Int
            switch count == 0 ? rng.int(3) : rng.int(5) {
            case 0: (location, index) = (.top, 0)
            case 1: (location, index) = (.bottom, count)
            case 2: index = rng.int(count + 1); location = .index(index)
            case 3: let r = reference(count); index = self.index(of: r); location = .before(r)
            default: let r = reference(count); index = self.index(of: r) + 1; location = .after(r)
            }
            let at = index
            expectSuccess("insert \(rows.count) at \(location)", engine: { try $0.insert(rows, at: location) }) { model in
                model.rows.insert(contentsOf: rows, at: at)
                return (rows.enumerated().map { .rowAdded(id: $0.element.id, index: at + $0.offset) }, rows.map(\.id), [], [])
            }
        }

        mutating func updateRows(_ refs: [RowReference], _ change: RowChange) {
            let targets = refs.map { index(of: $0) }
            expectSuccess("update \(refs) \(change)", engine: { try $0.update(refs, with: change) }) { model in
                var events: [StackEvent] = []
                for i in targets {
                    let old = model.rows[i]
                    let oldLength = model.naturalLength(old)
                    let new = change.applied(to: old)
                    model.rows[i] = new
                    let newLength = model.naturalLength(new)
                    if old.hidden != new.hidden { events.append(new.hidden ? .rowHidden(id: new.id, index: i) : .rowShown(id: new.id, index: i)) }
                    if oldLength != newLength { events.append(.rowResized(id: new.id, index: i, from: oldLength, to: newLength)) }
                }
                return (events, targets.map { model.rows[$0].id }, [], [])
            }
        }

        mutating func scrollRandom(_ count: Int) {
            let target: ScrollTarget
            switch rng.int(6) {
            case 0: target = .top
            case 1: target = .bottom
            case 2, 3: target = .offset(Point(x: rng.chance(10) ? rng.quarter(40) : 0, y: rng.quarter(Int(max(1, model.contentSize.height)))))
            default:
                guard count > 0 else { return }
                target = .row(reference(count), rng.pick(ScrollPosition.allCases))
            }
            let expected = expectedOffset(target)
            expectSuccess("scroll \(target)", engine: { try $0.scroll(to: target) }) { model in
                model.settings.offset = expected
                return ([], [], [], [])
            }
        }

        /// The scroll rules of Docs/Semantics.md, computed independently.
        func expectedOffset(_ target: ScrollTarget) -> Point {
            let axis = model.axis
            let vp = model.settings.viewport[axis]
            let low = -model.settings.contentInsets.leading(axis)
            let high = max(low, model.contentSize[axis] + model.settings.contentInsets.trailing(axis) - vp)
            var offset = model.settings.offset
            switch target {
            case .offset(let point): return point
            case .top: offset[axis] = low
            case .bottom: offset[axis] = high
            case .row(let ref, let position):
                let span = model.spans()[index(of: ref)]
                let current = offset[axis]
                var main: Double
                switch position {
                case .initial: main = span.start
                case .final: main = span.start + span.length - vp
                case .middle: main = span.start - (vp - span.length) / 2
                case .automatic:
                    if span.length > vp || span.start < current { main = span.start }
                    else if span.start + span.length > current + vp { main = span.start + span.length - vp }
                    else { main = current }
                }
                offset[axis] = min(max(main, low), high)
                offset[axis.cross] = 0
            }
            return offset
        }

        mutating func changeSettings() {
            var change = SettingsChange()
            switch rng.int(7) {
            case 0: change.axis = model.axis == .vertical ? .horizontal : .vertical
            case 1: change.viewport = Size(width: 50 + rng.quarter(400), height: 50 + rng.quarter(700))
            case 2: change.spacing = rng.chance(40) ? 0 : rng.quarter(20)
            case 3: change.rowInsets = randomInsets()
            case 4: change.contentInsets = randomInsets()
            case 5: change.separator = SeparatorStyle(hidden: rng.chance(20), thickness: rng.quarter(3), insets: randomInsets(), color: "#112233FF")
            default: change.autoHideLastRowSeparator = rng.chance(50)
            }
            let settingsChange = change
            expectSuccess("settings \(change)", engine: { try $0.update(settingsChange) }) { model in
                model.settings = settingsChange.applied(to: model.settings)
                return ([], [], [], [])
            }
        }

        mutating func failRandom(_ count: Int) {
            switch rng.int(8) {
            case 0:
                expectFailure("empty insert", code: .emptyBatch, field: "rows") { try $0.insert([], at: .bottom) }
            case 1:
                let index = count + 1 + rng.int(3)
                let row = randomRow()
                expectFailure("insert past the end", code: .indexOutOfRange, field: "at.index") { try $0.insert([row], at: .index(index)) }
            case 2:
                var bad = randomRow()
                bad.size = .fixed(-rng.quarter(10) - 0.25)
                let rows = [randomRow(), bad]
                expectFailure("negative size", code: .invalidValue, field: "rows[1].size.fixed") { try $0.insert(rows, at: .top) }
            case 3:
                guard count > 0 else { return }
                let row = randomRow(id: model.rows[rng.int(count)].id)
                expectFailure("duplicate id", code: .duplicateID, field: "rows[0].id") { try $0.insert([row], at: .bottom) }
            case 4:
                let row = randomRow()
                expectFailure("unknown before", code: .unknownRow, field: "at.before") { try $0.insert([row], at: .before(.id("nope"))) }
            case 5:
                guard count > 0 else { return }
                let ref = reference(count)
                let same = RowReference.index(index(of: ref))
                expectFailure("repeated remove", code: .invalidValue, field: "rows[1]") { try $0.remove([ref, same]) }
            case 6:
                guard count > 0 else { return }
                let ref = reference(count)
                expectFailure("move past the end", code: .indexOutOfRange, field: "to") { try $0.move(ref, to: count) }
            default:
                expectFailure("negative spacing", code: .invalidValue, field: "spacing") { try $0.update(SettingsChange(spacing: -1)) }
            }
        }
    }

    func run(seed: UInt64, steps: Int, initialRows: Int, viewport: Size = Size(width: 320, height: 480)) throws {
        var rng = Generator(state: seed)
        var harness = Harness(stack: try ScrollStack(settings: StackSettings(viewport: viewport)),
                              model: ReferenceModel(settings: StackSettings(viewport: viewport), rows: []), rng: rng)
        var rows: [Row] = []
        for _ in 0..<initialRows { rows.append(harness.randomRow()) }
        harness.stack = try ScrollStack(settings: StackSettings(viewport: viewport), rows: rows)
        harness.model = ReferenceModel(settings: StackSettings(viewport: viewport), rows: rows)
        harness.compare("initial")
        rng = harness.rng
        for _ in 0..<steps {
            harness.step()
            if harness.steps > 0, testRun?.failureCount ?? 0 > 0 { return }  // stop at the first difference
        }
    }

    func testSmallStacksManySeeds() throws {
        for seed: UInt64 in 1...12 { try run(seed: seed, steps: 400, initialRows: Int(seed) * 3) }
    }

    func testMediumStack() throws {
        try run(seed: 99, steps: 1500, initialRows: 200)
    }

    func testLargeStackWithBigBlocks() throws {
        try run(seed: 7, steps: 150, initialRows: 2500, viewport: Size(width: 375, height: 2000))
    }
}
