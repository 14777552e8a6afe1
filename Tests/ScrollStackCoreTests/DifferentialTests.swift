import XCTest
import ScrollStackCore

/// Differential test: thousands of random operations, valid and deliberately invalid, applied
/// both to `ScrollStack` (rows in chunks, see `RowTree`) and to `ArrayModel` (a plain array written from
/// Docs/Semantics.md). After every step: `checkInvariants()`, the thrown error's code and
/// field, the events, `changed`, `removed`, every row and its layout, the content size, the
/// visible rows, the scroll range, hit tests, lookups and one-row queries.
///
/// Every length, inset, spacing, offset and viewport size is a multiple of 0.25 and every
/// ratio or division a power of two, so all sums are exact and compare with `==`; only
/// visible fractions use a tolerance.
final class DifferentialTests: XCTestCase {

    // MARK: - Random numbers

    /// xorshift64*: tiny, deterministic, good enough.
    struct Rand {
        private var state: UInt64
        init(seed: UInt64) { state = (seed &+ 0x9E37_79B9_7F4A_7C15) &* 0xD6E8_FEB8_6659_FD93 | 1 }
        mutating func next() -> UInt64 {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return state &* 0x2545_F491_4F6C_DD1D
        }
        mutating func below(_ n: Int) -> Int { n <= 0 ? 0 : Int(next() % UInt64(n)) }
        mutating func range(_ r: ClosedRange<Int>) -> Int { r.lowerBound + below(r.count) }
        mutating func chance(_ p: Double) -> Bool { Double(next() >> 11) / 9_007_199_254_740_992 < p }
        /// A multiple of 0.25 in lo…hi (lo a multiple of 0.25).
        mutating func quarter(_ lo: Double, _ hi: Double) -> Double {
            lo + Double(below(Int(((hi - lo) * 4).rounded(.down)) + 1)) / 4
        }
        mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
    }

    // MARK: - Operations

    enum Op: CustomStringConvertible {
        case insert([Row], InsertLocation)
        case remove([RowReference])
        case removeAll
        case replace(RowReference, Row)
        case move(RowReference, Int)
        case setHidden([RowReference], Bool)
        case setInsets([RowReference], EdgeInsets?)
        case reload([RowReference])
        case update([RowReference], RowChange)
        case updateOne(RowReference, RowChange)
        case settings(SettingsChange)
        case scroll(ScrollTarget)

        var kind: String {
            switch self {
            case .insert: "insert"
            case .remove: "remove"
            case .removeAll: "removeAll"
            case .replace: "replace"
            case .move: "move"
            case .setHidden: "setHidden"
            case .setInsets: "setInsets"
            case .reload: "reload"
            case .update: "update"
            case .updateOne: "updateOne"
            case .settings: "settings"
            case .scroll: "scroll"
            }
        }

        var description: String {
            switch self {
            case .insert(let rows, let at):
                let shown = rows.prefix(6).map(DifferentialTests.describe).joined(separator: ", ")
                return "insert([\(shown)\(rows.count > 6 ? ", … (\(rows.count) rows)" : "")], at: \(at))"
            case .remove(let refs): return "remove(\(refs))"
            case .removeAll: return "removeAll()"
            case .replace(let ref, let row): return "replace(\(ref), with: \(DifferentialTests.describe(row)))"
            case .move(let ref, let to): return "move(\(ref), to: \(to))"
            case .setHidden(let refs, let hidden): return "setHidden(\(refs), \(hidden))"
            case .setInsets(let refs, let insets): return "setInsets(\(refs), \(insets.map(\.description) ?? "nil"))"
            case .reload(let refs): return "reload(\(refs))"
            case .update(let refs, let change): return "update(\(refs), with: \(change))"
            case .updateOne(let ref, let change): return "update(\(ref), with: \(change))"
            case .settings(let change): return "update(\(change))"
            case .scroll(let target): return "scroll(to: \(target))"
            }
        }
    }

    static func describe(_ row: Row) -> String {
        var parts = ["\"\(row.id)\""]
        switch (row.size.vertical, row.size.horizontal) {
        case (.fixed(let a), .fixed(let b)) where a == b: parts.append("fixed \(a)")
        case (let v, let h): parts.append("v:\(v) h:\(h)")
        }
        if let d = row.contentDescription { parts.append("content: \(d.kind)") }
        if let i = row.insets { parts.append("insets \(i)") }
        if row.separator != .none { parts.append("separator \(row.separator)") }
        if row.hidden { parts.append("hidden") }
        return "Row(" + parts.joined(separator: ", ") + ")"
    }

    static func perform(_ op: Op, on stack: inout ScrollStack) -> Result<OperationResult, StackError> {
        do throws(StackError) {
            switch op {
            case .insert(let rows, let at): return .success(try stack.insert(rows, at: at))
            case .remove(let refs): return .success(try stack.remove(refs))
            case .removeAll: return .success(stack.removeAll())
            case .replace(let ref, let row): return .success(try stack.replace(ref, with: row))
            case .move(let ref, let to): return .success(try stack.move(ref, to: to))
            case .setHidden(let refs, let hidden): return .success(try stack.setHidden(refs, hidden))
            case .setInsets(let refs, let insets): return .success(try stack.setInsets(refs, insets))
            case .reload(let refs): return .success(try stack.reload(refs))
            case .update(let refs, let change): return .success(try stack.update(refs, with: change))
            case .updateOne(let ref, let change): return .success(try stack.update(ref, with: change))
            case .settings(let change): return .success(try stack.update(change))
            case .scroll(let target): return .success(try stack.scroll(to: target))
            }
        } catch {
            return .failure(error)
        }
    }

    static func perform(_ op: Op, on model: inout ArrayModel) -> Result<ArrayModel.Outcome, ArrayModel.Failure> {
        do throws(ArrayModel.Failure) {
            switch op {
            case .insert(let rows, let at): return .success(try model.insert(rows, at: at))
            case .remove(let refs): return .success(try model.remove(refs))
            case .removeAll: return .success(model.removeAll())
            case .replace(let ref, let row): return .success(try model.replace(ref, with: row))
            case .move(let ref, let to): return .success(try model.move(ref, to: to))
            case .setHidden(let refs, let hidden): return .success(try model.update(refs, with: RowChange(hidden: hidden)))
            case .setInsets(let refs, let insets): return .success(try model.update(refs, with: RowChange(insets: .some(insets))))
            case .reload(let refs): return .success(try model.update(refs, with: RowChange()))
            case .update(let refs, let change): return .success(try model.update(refs, with: change))
            case .updateOne(let ref, let change): return .success(try model.update(ref, with: change))
            case .settings(let change): return .success(try model.update(change))
            case .scroll(let target): return .success(try model.scroll(to: target))
            }
        } catch {
            return .failure(error)
        }
    }

    // MARK: - Comparison helpers

    static func same(_ a: Visibility, _ b: Visibility) -> Bool {
        if case .partial(let x) = a, case .partial(let y) = b { return abs(x - y) <= 1e-9 }
        return a == b
    }

    static func same(_ a: StackEvent, _ b: StackEvent) -> Bool {
        switch (a, b) {
        case let (.becameVisible(i1, n1, v1), .becameVisible(i2, n2, v2)),
             let (.becameHidden(i1, n1, v1), .becameHidden(i2, n2, v2)):
            return i1 == i2 && n1 == n2 && same(v1, v2)
        default:
            return a == b
        }
    }

    static func same(_ a: [StackEvent], _ b: [StackEvent]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { same($0, $1) }
    }

    /// nil when equal, else what differs.
    static func difference(_ a: RowLayout, _ b: ArrayModel.Item) -> String? {
        var d: [String] = []
        if a.id != b.id { d.append("id \(a.id) vs \(b.id)") }
        if a.index != b.index { d.append("index \(a.index) vs \(b.index)") }
        if a.frame != b.frame { d.append("frame \(a.frame) vs \(b.frame)") }
        if a.contentFrame != b.contentFrame { d.append("contentFrame \(a.contentFrame) vs \(b.contentFrame)") }
        if a.separatorFrame != b.separatorFrame {
            d.append("separatorFrame \(a.separatorFrame.map(\.description) ?? "nil") vs \(b.separatorFrame.map(\.description) ?? "nil")")
        }
        if !same(a.visibility, b.visibility) { d.append("visibility \(a.visibility) vs \(b.visibility)") }
        return d.isEmpty ? nil : "row \(b.id) (#\(b.index)): " + d.joined(separator: "; ") + " (engine vs model)"
    }

    // MARK: - One run

    struct Run {
        let label: String
        var rng: Rand
        var stack: ScrollStack
        var model: ArrayModel
        var nextID = 0
        var step = 0
        var history: [Op] = []
        var counts: [String: Int] = [:]
        var errorCounts: [String: Int] = [:]
        var eventCounts: [String: Int] = [:]
        var hits = 0
        var maxCount = 0
        /// Reused by every step, so `layout(into:)` is checked both growing and in place.
        var buffer = LayoutBuffer()
        /// The first mismatch, with context.
        var failure: String?

        init(seed: UInt64, initialRows: ClosedRange<Int>) throws {
            label = "seed \(seed)"
            rng = Rand(seed: seed)
            // Placeholders, replaced right below once the generator exists.
            stack = try ScrollStack()
            model = try ArrayModel(settings: StackSettings(), rows: [])
            let settings = randomSettings()
            let rows = (0..<rng.range(initialRows)).map { _ in randomRow(id: freshID()) }
            // Sometimes first try an invalid creation: both must reject it the same way.
            if rng.chance(0.5) { checkInvalidInit(settings: settings, rows: rows) }
            stack = try ScrollStack(settings: settings, rows: rows)
            model = try ArrayModel(settings: settings, rows: rows)
            stack.checkInvariants()
            compareState()
        }

        mutating func checkInvalidInit(settings: StackSettings, rows: [Row]) {
            var s = settings
            var r = rows
            switch rng.below(3) {
            case 0 where r.count >= 2:
                r[r.count - 1].id = r[0].id
            case 1 where !r.isEmpty:
                let i = rng.below(r.count)
                r[i] = invalidRow(id: r[i].id)
            default:
                s = ArrayModel.applying(invalidSettingsChange(), to: s)
            }
            var engineError: StackError?
            do throws(StackError) { _ = try ScrollStack(settings: s, rows: r) } catch { engineError = error }
            var modelError: ArrayModel.Failure?
            do throws(ArrayModel.Failure) { _ = try ArrayModel(settings: s, rows: r) } catch { modelError = error }
            if engineError?.code != modelError?.code || engineError?.field != modelError?.field {
                fail("init: engine \(engineError.map(String.init(describing:)) ?? "ok"), model \(modelError.map(\.description) ?? "ok")")
            }
        }

        /// Records the first mismatch, naming the last operation (or the creation).
        mutating func fail(_ message: String) {
            guard failure == nil else { return }
            let op = step == 0 ? "init" : history.last.map(\.description) ?? ""
            failure = "\(label), step \(step): \(op)\n  \(message)\n  recent ops:\n    "
                + history.suffix(8).map(\.description).joined(separator: "\n    ")
        }

        // MARK: Generators

        mutating func freshID() -> String {
            nextID += 1
            return "n\(nextID)"
        }

        mutating func randomInsets(_ maxValue: Double = 20) -> EdgeInsets {
            EdgeInsets(top: rng.quarter(0, maxValue), left: rng.quarter(0, maxValue),
                       bottom: rng.quarter(0, maxValue), right: rng.quarter(0, maxValue))
        }

        static let colors = ["#3C3C4349", "#FF0000FF", "#00AA11CC", "#ABCDEF01"]

        mutating func randomSettings() -> StackSettings {
            var s = StackSettings()
            s.axis = rng.chance(0.3) ? .horizontal : .vertical
            s.viewport = randomViewport()
            if rng.chance(0.4) { s.contentInsets = randomInsets(60) }
            if rng.chance(0.6) { s.spacing = rng.quarter(0, 12) }
            if rng.chance(0.5) { s.rowInsets = rng.chance(0.3) ? .zero : randomInsets() }
            if rng.chance(0.4) { s.separator = randomSeparatorStyle() }
            s.autoHideLastRowSeparator = rng.chance(0.7)
            if rng.chance(0.3) { s.offset = Point(x: rng.quarter(-50, 50), y: rng.quarter(-50, 300)) }
            return s
        }

        mutating func randomViewport() -> Size {
            if rng.chance(0.005) { return Size(width: rng.quarter(0, 400), height: 1e9) }
            return Size(width: rng.chance(0.03) ? 0 : rng.quarter(0, 600), height: rng.chance(0.03) ? 0 : rng.quarter(0, 800))
        }

        mutating func randomSeparatorStyle() -> SeparatorStyle {
            SeparatorStyle(hidden: rng.chance(0.2), thickness: rng.quarter(0, 4), insets: randomInsets(30), color: rng.pick(Self.colors))
        }

        mutating func randomSeparatorOverride() -> SeparatorOverride {
            var o = SeparatorOverride()
            if rng.chance(0.5) { o.hidden = rng.chance(0.5) }
            if rng.chance(0.4) { o.thickness = rng.quarter(0, 6) }
            if rng.chance(0.3) { o.insets = randomInsets(30) }
            if rng.chance(0.3) { o.color = rng.pick(Self.colors) }
            return o
        }

        /// A leaf for groups: no min/max (the model does not handle them on flexible children).
        /// `fixedAlong` sets the extent along `direction` (so the leaf is `flex: none` there).
        mutating func randomLeaf(direction: Axis, fixedAlong: Bool) -> ContentDescription {
            if fixedAlong {
                let along = rng.quarter(0, 120)
                let other: Double? = rng.chance(0.6) ? rng.quarter(0, 120) : nil
                return direction == .vertical ? .box(width: other, height: along) : .box(width: along, height: other)
            }
            if rng.chance(0.5) { return .aspectRatio(rng.pick([0.5, 1, 2, 4])) }
            let other: Double? = rng.chance(0.7) ? rng.quarter(0, 120) : nil
            return direction == .vertical ? .box(width: other, height: nil) : .box(width: nil, height: other)
        }

        /// `nodes` nested groups of one child each, around `leaf` (the leaf counts as a node).
        static func chain(_ nodes: Int, around leaf: ContentDescription) -> ContentDescription {
            var d = leaf
            for k in 1..<nodes { d = .stack(k % 2 == 0 ? .vertical : .horizontal, spacing: 1, [d]) }
            return d
        }

        mutating func randomDescription() -> ContentDescription {
            // Rarely, the deepest nesting allowed: 64 levels.
            if rng.chance(0.001) { return Self.chain(64, around: rng.chance(0.5) ? .aspectRatio(2) : .box(width: 10, height: 20)) }
            var d: ContentDescription
            switch rng.below(10) {
            case 0...3:
                d = .box(width: rng.chance(0.3) ? rng.quarter(0, 400) : nil, height: rng.chance(0.8) ? rng.quarter(0, 200) : nil)
            case 4...6:
                d = .aspectRatio(rng.pick([0.5, 1, 2, 4]))
            default:
                let direction: Axis = rng.chance(0.5) ? .vertical : .horizontal
                let flexible = rng.pick([0, 1, 2, 4])
                let fixed = rng.range(0...2)
                var children: [ContentDescription] = []
                for _ in 0..<flexible { children.append(randomLeaf(direction: direction, fixedAlong: false)) }
                for _ in 0..<fixed {
                    children.insert(randomLeaf(direction: direction, fixedAlong: true), at: rng.below(children.count + 1))
                }
                d = .stack(direction, spacing: rng.quarter(0, 8), padding: rng.chance(0.5) ? randomInsets(8) : .zero, children)
            }
            if rng.chance(0.2) {
                if rng.chance(0.5) { d.minHeight = rng.quarter(0, 100) }
                if rng.chance(0.5) { d.maxHeight = rng.quarter(0, 150) }
                if rng.chance(0.5) { d.minWidth = rng.quarter(0, 200) }
                if rng.chance(0.5) { d.maxWidth = rng.quarter(0, 300) }
            }
            return d
        }

        mutating func randomSizeRule() -> SizeRule {
            if rng.chance(0.002) { return .fixed(1e9) }     // the largest length accepted
            switch rng.below(20) {
            case 0...9: return .fixed(rng.quarter(0, 150))
            case 10: return .fixed(0)
            case 11...12: return SizeRule(vertical: .fixed(rng.quarter(0, 150)), horizontal: .fixed(rng.quarter(0, 150)))
            case 13...17: return .fit
            case 18: return SizeRule(vertical: .fit, horizontal: .fixed(rng.quarter(0, 150)))
            default: return SizeRule(vertical: .fixed(rng.quarter(0, 150)), horizontal: .fit)
            }
        }

        mutating func randomContent() -> RowContent {
            if rng.chance(0.6) {
                return .controller(ControllerDescriptor(type: rng.pick(["Header", "Card", "Footer"]),
                                                        instance: rng.chance(0.3) ? "i\(rng.below(40))" : nil,
                                                        properties: rng.chance(0.2) ? "{\"k\":\(rng.below(9))}" : nil))
            }
            return .view(ViewDescriptor(type: rng.pick(["Label", "Image"]), properties: rng.chance(0.2) ? "[1,2]" : nil))
        }

        mutating func randomRow(id: String) -> Row {
            let size = randomSizeRule()
            let needsContent = size.vertical == .fit || size.horizontal == .fit
            return Row(
                id: id,
                content: randomContent(),
                size: size,
                contentDescription: needsContent || rng.chance(0.2) ? randomDescription() : nil,
                insets: rng.chance(0.3) ? (rng.chance(0.25) ? .zero : randomInsets()) : nil,
                separator: rng.chance(0.25) ? randomSeparatorOverride() : .none,
                hidden: rng.chance(0.1),
                tappable: rng.chance(0.5),
                highlightable: rng.chance(0.3)
            )
        }

        /// A row breaking exactly one rule.
        mutating func invalidRow(id: String) -> Row {
            var row = randomRow(id: id)
            let bad = rng.pick([-1, -0.25, .nan, .infinity, -.infinity, 2e9, 1e9 + 0.25])
            switch rng.below(13) {
            case 12:
                row.size = .fit
                row.contentDescription = Self.chain(65, around: .box(height: 1))   // one level too deep
            case 0: row.id = ""
            case 1: row.content = rng.chance(0.5) ? .controller(ControllerDescriptor(type: "")) : .view(ViewDescriptor(type: ""))
            case 2: row.size = .fixed(bad)
            case 3: row.size = SizeRule(vertical: .fixed(10), horizontal: .fixed(bad))
            case 4:
                row.size = rng.chance(0.5) ? .fit : SizeRule(vertical: .fixed(4), horizontal: .fit)
                row.contentDescription = nil
            case 5:
                row.size = .fit
                row.contentDescription = .box(width: nil, height: bad)
            case 6:
                row.size = .fit
                row.contentDescription = .aspectRatio(rng.pick([0, -1, .nan]))
            case 7:
                row.size = .fit
                row.contentDescription = .stack(.vertical, [.box(height: 4), .box(width: bad, height: 1)])
            case 8: row.insets = EdgeInsets(top: 1, left: bad, bottom: 2, right: 3)
            case 9: row.separator = SeparatorOverride(thickness: bad)
            case 10: row.separator = SeparatorOverride(color: rng.pick(["red", "#12345G", "#ff0000", "#ABC"]))
            default: row.separator = SeparatorOverride(insets: EdgeInsets(bottom: bad))
            }
            return row
        }

        var count: Int { model.rows.count }

        mutating func ref(_ index: Int) -> RowReference {
            rng.chance(0.5) ? .id(model.rows[index].id) : .index(index)
        }

        mutating func badRef() -> RowReference {
            switch rng.below(3) {
            case 0: return .id("ghost\(rng.below(3))")
            case 1: return .index(-1 - rng.below(2))
            default: return .index(count + rng.below(3))
            }
        }

        /// `k` distinct row indexes, in random order.
        mutating func distinctIndexes(_ k: Int) -> [Int] {
            var chosen: [Int] = []
            var set = Set<Int>()
            while chosen.count < min(k, count) {
                let i = rng.below(count)
                if set.insert(i).inserted { chosen.append(i) }
            }
            return chosen
        }

        /// References to 1…maxK distinct rows; with `defective`, one batch defect (empty,
        /// unknown or repeated). Needs rows unless defective.
        mutating func batch(maxK: Int, defective: Bool) -> [RowReference] {
            var refs = distinctIndexes(rng.range(1...max(1, maxK))).map { ref($0) }
            if defective {
                switch rng.below(3) {
                case 0: refs = []
                case 1: refs.insert(badRef(), at: rng.below(refs.count + 1))
                default:
                    if let first = refs.first {
                        // The same row again, possibly named the other way.
                        let index = model.resolve(first)!
                        refs.insert(rng.chance(0.5) ? .index(index) : .id(model.rows[index].id), at: rng.range(1...refs.count))
                    } else {
                        refs = []
                    }
                }
            }
            return refs
        }

        mutating func randomOffset() -> Point {
            let vertical = model.settings.axis == .vertical
            let length = vertical ? model.contentSize.height : model.contentSize.width
            let main = rng.chance(0.01) ? rng.pick([1e15, -1e15]) : rng.quarter(-150, length + 150)
            let crossExtent = vertical ? model.settings.viewport.width : model.settings.viewport.height
            let cross = rng.chance(0.8) ? 0 : rng.quarter(-crossExtent - 10, crossExtent + 10)
            return vertical ? Point(x: cross, y: main) : Point(x: main, y: cross)
        }

        mutating func randomChange() -> RowChange {
            var c = RowChange()
            if rng.chance(0.3) { c.hidden = rng.chance(0.4) }
            if rng.chance(0.25) { c.insets = .some(rng.chance(0.4) ? nil : randomInsets()) }
            if rng.chance(0.25) { c.separator = rng.chance(0.2) ? SeparatorOverride.none : randomSeparatorOverride() }
            if rng.chance(0.35) {
                let size = randomSizeRule()
                c.size = size
                if size.measuresContent {
                    c.contentDescription = .some(randomDescription())
                } else if rng.chance(0.3) {
                    c.contentDescription = .some(nil)   // valid: nothing is fit any more
                }
            } else if rng.chance(0.25) {
                c.contentDescription = .some(randomDescription())
            }
            if rng.chance(0.1) { c.content = randomContent() }
            if rng.chance(0.1) { c.tappable = rng.chance(0.5) }
            if rng.chance(0.1) { c.highlightable = rng.chance(0.5) }
            return c
        }

        /// A change that breaks a rule, at least for some rows (which rows is the model's
        /// business: a fit-related change only breaks fit rows or rows without content).
        mutating func invalidChange() -> RowChange {
            var c = rng.chance(0.5) ? randomChange() : RowChange()
            let bad = rng.pick([-1, -0.25, .nan, .infinity, -.infinity, 2e9, 1e9 + 0.25])
            switch rng.below(6) {
            case 0: c.size = .fixed(bad); c.contentDescription = nil
            case 1: c.size = nil; c.contentDescription = .some(nil)
            case 2: c.size = .fit; c.contentDescription = nil
            case 3: c.insets = .some(EdgeInsets(top: bad))
            case 4: c.separator = SeparatorOverride(color: "blue")
            default: c.content = .view(ViewDescriptor(type: ""))
            }
            return c
        }

        mutating func invalidSettingsChange() -> SettingsChange {
            var c = rng.chance(0.5) ? randomSettingsChange() : SettingsChange()
            let bad = rng.pick([-1, -0.25, .nan, .infinity, -.infinity, 2e9, 1e9 + 0.25])
            switch rng.below(9) {
            case 0: c.viewport = Size(width: bad, height: 100)
            case 1: c.viewport = Size(width: 100, height: bad)
            case 2: c.contentInsets = EdgeInsets(right: bad)
            case 3: c.offset = Point(x: rng.pick([.nan, .infinity, 2e15, -1e15 - 1]), y: 0)
            case 4: c.offset = Point(x: 0, y: rng.pick([.nan, -.infinity, 2e15]))
            case 5: c.spacing = bad
            case 6: c.rowInsets = EdgeInsets(top: 1, left: 2, bottom: bad, right: 3)
            case 7: c.separator = SeparatorStyle(thickness: bad)
            default: c.separator = SeparatorStyle(color: rng.pick(["#ABC", "nope", "#abcdef12"]))
            }
            return c
        }

        mutating func randomSettingsChange() -> SettingsChange {
            var c = SettingsChange()
            if rng.chance(0.2) { c.axis = model.settings.axis == .vertical ? .horizontal : .vertical }
            if rng.chance(0.3) { c.viewport = randomViewport() }
            if rng.chance(0.2) { c.contentInsets = randomInsets(60) }
            if rng.chance(0.2) { c.offset = randomOffset() }
            if rng.chance(0.2) { c.spacing = rng.quarter(0, 12) }
            if rng.chance(0.2) { c.rowInsets = rng.chance(0.3) ? .zero : randomInsets() }
            if rng.chance(0.15) { c.separator = randomSeparatorStyle() }
            if rng.chance(0.15) { c.autoHideLastRowSeparator = rng.chance(0.5) }
            return c
        }

        mutating func nextOp(growing: Bool, target: Int) -> Op {
            let defective = rng.chance(0.12)
            let roll = rng.below(1000)
            let wantGrowth = growing && count < target
            if roll < (wantGrowth ? 450 : 200) || count == 0 && !defective && rng.chance(0.7) {
                // Insert.
                let k = wantGrowth && rng.chance(0.6) ? rng.range(100...400) : rng.range(1...6)
                var rows = (0..<k).map { _ in randomRow(id: freshID()) }
                var location: InsertLocation
                switch rng.below(5) {
                case 0: location = .top
                case 1: location = .bottom
                case 2: location = .index(rng.range(0...count))
                case 3: location = count > 0 ? .before(ref(rng.below(count))) : .index(0)
                default: location = count > 0 ? .after(ref(rng.below(count))) : .bottom
                }
                if defective {
                    switch rng.below(6) {
                    case 0: rows = []
                    case 1 where count > 0: rows[rng.below(k)].id = model.rows[rng.below(count)].id
                    case 2 where k >= 2:
                        let j = rng.range(1...(k - 1))
                        rows[j].id = rows[rng.below(j)].id
                    case 3: location = .index(rng.chance(0.5) ? -1 : count + 1 + rng.below(3))
                    case 4: location = rng.chance(0.5) ? .before(badRef()) : .after(badRef())
                    default:
                        let j = rng.below(k)
                        rows[j] = invalidRow(id: rows[j].id)
                    }
                }
                return .insert(rows, location)
            }
            if roll < 300 {
                if rng.chance(0.5) { return .scroll(.offset(defective ? Point(x: .nan, y: 0) : randomOffset())) }
                let r = rng.below(10)
                if r == 0 { return .scroll(.top) }
                if r == 1 { return .scroll(.bottom) }
                if count == 0 || defective { return .scroll(.row(badRef(), rng.pick(ScrollPosition.allCases))) }
                return .scroll(.row(ref(rng.below(count)), rng.pick(ScrollPosition.allCases)))
            }
            if roll < 400 {
                let big = count > 500 && rng.chance(0.2)
                return .remove(batch(maxK: big ? 80 : 8, defective: defective || count == 0))
            }
            if roll < 403 && !growing { return .removeAll }
            if roll < 450 {
                if count == 0 || defective && rng.chance(0.3) {
                    return .replace(badRef(), randomRow(id: freshID()))
                }
                let i = rng.below(count)
                var row = randomRow(id: rng.chance(0.4) ? model.rows[i].id : freshID())
                if defective {
                    if rng.chance(0.5) && count >= 2 {
                        row.id = model.rows[(i + 1 + rng.below(count - 1)) % count].id
                    } else {
                        row = invalidRow(id: row.id)
                    }
                }
                return .replace(ref(i), row)
            }
            if roll < 520 {
                if count == 0 || defective && rng.chance(0.4) { return .move(badRef(), 0) }
                let from = rng.below(count)
                // Half the time a short move (often within the viewport), else anywhere.
                var to = rng.chance(0.5) ? min(max(from + rng.range(-3...3), 0), count - 1) : rng.below(count)
                if defective { to = rng.chance(0.5) ? -1 - rng.below(2) : count + rng.below(2) }
                return .move(ref(from), to)
            }
            if roll < 600 {
                return .setHidden(batch(maxK: 5, defective: defective || count == 0), rng.chance(0.45))
            }
            if roll < 650 {
                let insets: EdgeInsets? = rng.chance(0.4) ? nil : randomInsets()
                if defective && count > 0 && rng.chance(0.5) {
                    return .setInsets(batch(maxK: 5, defective: false), EdgeInsets(top: 1, left: -3, bottom: 0, right: .nan))
                }
                return .setInsets(batch(maxK: 5, defective: defective || count == 0), insets)
            }
            if roll < 680 { return .reload(batch(maxK: 5, defective: defective || count == 0)) }
            if roll < 770 {
                let refs = batch(maxK: 5, defective: defective && rng.chance(0.4) || count == 0)
                return .update(refs, defective ? invalidChange() : randomChange())
            }
            if roll < 820 {
                if count == 0 || defective && rng.chance(0.4) { return .updateOne(badRef(), randomChange()) }
                return .updateOne(ref(rng.below(count)), defective ? invalidChange() : randomChange())
            }
            if roll < 900 { return .settings(defective ? invalidSettingsChange() : randomSettingsChange()) }
            // Scroll once more, near the current offset: small moves make partial ↔ entire transitions.
            if defective {
                return .scroll(.offset(Point(x: 0, y: rng.pick([Double.infinity, -.infinity, 3e15]))))
            }
            var p = model.settings.offset
            if model.settings.axis == .vertical { p.y += rng.quarter(-60, 60) } else { p.x += rng.quarter(-60, 60) }
            return .scroll(.offset(p))
        }

        // MARK: Checking

        /// Applies `op` to both and compares everything. Returns false after a mismatch.
        mutating func apply(_ op: Op) -> Bool {
            step += 1
            history.append(op)
            if history.count > 64 { history.removeFirst(32) }
            counts[op.kind, default: 0] += 1
            let engine = DifferentialTests.perform(op, on: &stack)
            let expected = DifferentialTests.perform(op, on: &model)
            stack.checkInvariants()
            maxCount = max(maxCount, count)
            switch (engine, expected) {
            case (.failure(let e), .failure(let m)):
                errorCounts["\(op.kind) \(m.code.rawValue) \(String((m.field ?? "nil").map { $0.isNumber ? "i" : $0 }))", default: 0] += 1
                if e.code != m.code || e.field != m.field {
                    fail("error: engine \(e.code.rawValue) @ \(e.field ?? "nil") (\(e.message)), model \(m)")
                }
            case (.success(let r), .success(let o)):
                for event in r.events {
                    switch event {
                    case .becameVisible(_, _, let v), .becameHidden(_, _, let v): eventCounts["\(event.name)(\(v.name))", default: 0] += 1
                    default: eventCounts[event.name, default: 0] += 1
                    }
                }
                if !DifferentialTests.same(r.events, o.events) {
                    fail("events:\n    engine \(r.events)\n    model  \(o.events)")
                }
                if r.changed != o.changed { fail("changed: engine \(r.changed), model \(o.changed)") }
                if r.removed.map(\.row) != o.removed.map(\.row) || r.removed.map(\.index) != o.removed.map(\.index) {
                    fail("removed: engine \(r.removed.map { ($0.row.id, $0.index) }), model \(o.removed.map { ($0.row.id, $0.index) })")
                }
            case (.failure(let e), .success):
                fail("engine threw \(e.code.rawValue) @ \(e.field ?? "nil") (\(e.message)); the model accepted the operation")
            case (.success, .failure(let m)):
                fail("engine accepted the operation; the model expected \(m)")
            }
            if failure == nil { compareState() }
            return failure == nil
        }

        mutating func compareState() {
            func check(_ ok: Bool, _ message: @autoclosure () -> String) {
                if !ok { fail(message()) }
            }
            check(stack.count == model.rows.count, "count \(stack.count) vs \(model.rows.count)")
            check(stack.settings == model.settings, "settings \(stack.settings) vs \(model.settings)")
            let engineRows = stack.rows
            if engineRows != model.rows {
                let i = zip(engineRows, model.rows).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                check(false, "rows differ first at \(i.map(String.init) ?? "the end")")
            }
            check(stack.contentSize == model.contentSize, "contentSize \(stack.contentSize) vs \(model.contentSize)")
            let layout = stack.layout()
            check(layout.offset == model.settings.offset && layout.axis == model.settings.axis
                  && layout.viewport == model.settings.viewport && layout.contentSize == model.contentSize,
                  "layout header \(layout.offset) \(layout.axis) \(layout.viewport) \(layout.contentSize)")
            check(layout.rows.count == model.items.count, "layout rows \(layout.rows.count) vs \(model.items.count)")
            for (a, b) in zip(layout.rows, model.items) {
                if let d = DifferentialTests.difference(a, b) { check(false, "layout: " + d); break }
            }
            guard failure == nil else { return }
            stack.layout(into: &buffer)
            check(buffer.stackLayout == layout, "layout(into:) differs from layout()")
            // Not drawn from `rng`, so the seeded runs keep their sequences of operations.
            let elsewhere = Point(x: Double(step % 7) * 2.5 - 5, y: Double(step % 13) * 31.25 - 40)
            stack.layout(into: &buffer, offset: elsewhere)
            check(buffer.stackLayout == stack.layout(offset: elsewhere), "layout(into:offset: \(elsewhere)) differs from layout(offset:)")
            guard failure == nil else { return }
            check(stack.visibleRows == model.visibleIDs, "visibleRows \(stack.visibleRows) vs \(model.visibleIDs)")
            check(stack.entirelyVisibleRows == model.entireIDs, "entirelyVisibleRows \(stack.entirelyVisibleRows) vs \(model.entireIDs)")
            check(stack.scrollRange == model.scrollRange, "scrollRange \(stack.scrollRange) vs \(model.scrollRange)")

            // Hit tests: points inside the viewport, on its edges and outside.
            let vp = model.settings.viewport
            for k in 0..<6 {
                let p: Point
                switch k {
                case 0: p = Point(x: rng.quarter(-5, vp.width + 5), y: rng.quarter(-5, vp.height + 5))
                case 1: p = Point(x: 0, y: 0)
                case 2: p = Point(x: vp.width, y: rng.quarter(0, vp.height))
                default: p = Point(x: rng.quarter(0, vp.width), y: rng.quarter(0, vp.height))
                }
                let a = stack.hitTest(p)
                let b = model.hitTest(p)
                switch (a, b) {
                case (nil, nil): break
                case (let a?, let b?):
                    hits += 1
                    if let d = DifferentialTests.difference(a, b) { check(false, "hitTest \(p): " + d) }
                default:
                    check(false, "hitTest \(p): engine \(a.map { "\($0.id)" } ?? "nil"), model \(b.map { "\($0.id)" } ?? "nil")")
                }
            }

            // Lookups and one-row queries.
            for _ in 0..<3 where count > 0 {
                let i = rng.below(count)
                let id = model.rows[i].id
                check(stack.index(ofID: id) == i, "index(ofID: \(id)) \(String(describing: stack.index(ofID: id))) vs \(i)")
                check(stack.row(id: id) == model.rows[i], "row(id: \(id))")
                let r = ref(i)
                do throws(StackError) {
                    let one = try stack.layout(of: r)
                    if let d = DifferentialTests.difference(one, model.items[i]) { check(false, "layout(of: \(r)): " + d) }
                    let v = try stack.visibility(of: r)
                    check(DifferentialTests.same(v, model.items[i].visibility), "visibility(of: \(r)) \(v)")
                } catch {
                    check(false, "layout(of: \(r)) threw \(error)")
                }
            }
            check(stack.index(ofID: "ghost") == nil, "index(ofID: ghost)")
            let bad = badRef()
            do throws(StackError) {
                _ = try stack.layout(of: bad)
                check(false, "layout(of: \(bad)) did not throw")
            } catch {
                check(error.code == .unknownRow && error.field == "row", "layout(of: \(bad)) threw \(error)")
            }

            // Every few steps: another offset's layout, a scroll target's offset, queries.
            if step % (count < 1000 ? 5 : 20) == 0 {
                let offset = randomOffset()
                let all = model.computeLayout(offset: offset).items
                let expected = all.filter { $0.visibility.isVisible }
                let window = stack.visibleLayout(offset: offset)
                check(window.offset == offset && window.rows.count == expected.count,
                      "visibleLayout(offset: \(offset)): \(window.rows.map(\.id)) vs \(expected.map(\.id))")
                for (a, b) in zip(window.rows, expected) {
                    if let d = DifferentialTests.difference(a, b) { check(false, "visibleLayout(offset: \(offset)): " + d); break }
                }
                let full = stack.layout(offset: offset)
                for (a, b) in zip(full.rows, all) {
                    if let d = DifferentialTests.difference(a, b) { check(false, "layout(offset: \(offset)): " + d); break }
                }

                let targets: [ScrollTarget] = [.top, .bottom, .offset(offset)]
                    + (count > 0 ? [.row(ref(rng.below(count)), rng.pick(ScrollPosition.allCases))] : [])
                for target in targets {
                    let engine: Result<Point, StackError>
                    do throws(StackError) { engine = .success(try stack.offset(for: target)) } catch { engine = .failure(error) }
                    let expected: Result<Point, ArrayModel.Failure>
                    do throws(ArrayModel.Failure) { expected = .success(try model.offset(for: target)) } catch { expected = .failure(error) }
                    switch (engine, expected) {
                    case (.success(let a), .success(let b)): check(a == b, "offset(for: \(target)) \(a) vs \(b)")
                    default: check(false, "offset(for: \(target)): \(engine) vs \(expected)")
                    }
                }
            }
            if step % 25 == 0 {
                for type in ["Header", "Card", "Label", "Nope"] {
                    let expected = model.rows.enumerated().filter {
                        if case .controller(let c) = $0.element.content { return c.type == type } else { return false }
                    }
                    let got = stack.rows(controllerType: type)
                    check(got.map(\.row) == expected.map(\.element) && got.map(\.index) == expected.map(\.offset), "rows(controllerType: \(type))")
                    let first = stack.firstRow(controllerType: type)
                    check(first?.row == expected.first?.element && first?.index == expected.first?.offset, "firstRow(controllerType: \(type))")
                }
                let instance = "i\(rng.below(40))"
                let expected = model.rows.enumerated().first {
                    if case .controller(let c) = $0.element.content { return c.instance == instance } else { return false }
                }
                let got = stack.row(controllerInstance: instance)
                check(got?.row == expected?.element && got?.index == expected?.offset, "row(controllerInstance: \(instance))")
                check(stack.firstRow == model.rows.first && stack.lastRow == model.rows.last && stack.isEmpty == model.rows.isEmpty,
                      "firstRow / lastRow / isEmpty")
            }
        }

        var summary: String {
            let ops = counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            let errors = errorCounts.values.reduce(0, +)
            let events = eventCounts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            let rejected = errorCounts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            return "\(label): \(step) ops (\(ops)); \(errors) rejected (\(rejected)); events (\(events)); \(hits) hits; peak \(maxCount) rows, final \(count)"
        }
    }

    // MARK: - Tests

    func runRandom(seed: UInt64, initialRows: ClosedRange<Int>, operations: Int, growingTo target: Int? = nil) throws {
        var run = try Run(seed: seed, initialRows: initialRows)
        if let failure = run.failure { return XCTFail(failure) }
        for _ in 0..<operations {
            let op = run.nextOp(growing: target != nil, target: target ?? 0)
            if !run.apply(op) { break }
        }
        if let failure = run.failure { XCTFail(failure) }
        print("DifferentialTests " + run.summary)
    }

    /// Small and medium stacks (0–300 rows to start), every kind of operation.
    func testRandomOperationsAgainstArrayModel() throws {
        for seed in UInt64(1)...6 {
            try runRandom(seed: seed, initialRows: 0...300, operations: 1500)
        }
    }

    /// Stacks growing to about 3000 rows with large block inserts, then everything else.
    func testRandomOperationsOnGrowingStacks() throws {
        for seed in UInt64(101)...102 {
            try runRandom(seed: seed, initialRows: 0...20, operations: 220, growingTo: 3000)
        }
    }

    // MARK: Focused cases

    static func plainRow(_ id: String, _ length: Double, hidden: Bool = false) -> Row {
        Row(id: id, content: .view(ViewDescriptor(type: "V")), size: .fixed(length), insets: .zero, hidden: hidden)
    }

    /// Applies `op` to a stack and its model; both must succeed with the same result.
    func applyBoth(_ op: Op, _ stack: inout ScrollStack, _ model: inout ArrayModel,
                   file: StaticString = #filePath, line: UInt = #line) -> OperationResult? {
        let engine = Self.perform(op, on: &stack)
        let expected = Self.perform(op, on: &model)
        stack.checkInvariants()
        guard case .success(let r) = engine, case .success(let o) = expected else {
            XCTFail("\(op): engine \(engine), model \(expected)", file: file, line: line)
            return nil
        }
        XCTAssertTrue(Self.same(r.events, o.events), "\(op):\n engine \(r.events)\n model  \(o.events)", file: file, line: line)
        let layout = stack.layout()
        XCTAssertEqual(layout.rows.count, model.items.count, file: file, line: line)
        for (a, b) in zip(layout.rows, model.items) {
            if let d = Self.difference(a, b) { XCTFail(d, file: file, line: line) }
        }
        XCTAssertEqual(stack.contentSize, model.contentSize, file: file, line: line)
        return r
    }

    /// A row jumps from offscreen straight to entire (and back) in one scroll: the model
    /// emits becameVisible(entire) and becameHidden(offscreen), where the original emits nothing.
    func testOffscreenToEntireJump() throws {
        let settings = StackSettings(viewport: Size(width: 100, height: 100), rowInsets: .zero)
        let rows = (0..<10).map { Self.plainRow("r\($0)", 50) }
        var stack = try ScrollStack(settings: settings, rows: rows)
        var model = try ArrayModel(settings: settings, rows: rows)
        XCTAssertEqual(stack.entirelyVisibleRows, ["r0", "r1"])

        let down = applyBoth(.scroll(.offset(Point(x: 0, y: 300))), &stack, &model)
        XCTAssertEqual(down?.events, [
            .layoutUpdated,
            .didScroll(from: .zero, to: Point(x: 0, y: 300)),
            .becameHidden(id: "r0", index: 0, visibility: .offscreen),
            .becameHidden(id: "r1", index: 1, visibility: .offscreen),
            .becameVisible(id: "r6", index: 6, visibility: .entire),
            .becameVisible(id: "r7", index: 7, visibility: .entire),
        ])
        // A row scrolled to by `automatic` from far away also jumps offscreen → entire.
        let up = applyBoth(.scroll(.row(.id("r1"), .automatic)), &stack, &model)
        XCTAssertEqual(up?.events, [
            .layoutUpdated,
            .didScroll(from: Point(x: 0, y: 300), to: Point(x: 0, y: 50)),
            .becameVisible(id: "r1", index: 1, visibility: .entire),
            .becameVisible(id: "r2", index: 2, visibility: .entire),
            .becameHidden(id: "r6", index: 6, visibility: .offscreen),
            .becameHidden(id: "r7", index: 7, visibility: .offscreen),
        ])
        // Moving a far row into the viewport: offscreen → entire without scrolling.
        let moved = applyBoth(.move(.id("r9"), 1), &stack, &model)
        XCTAssertEqual(moved?.events, [
            .rowMoved(id: "r9", from: 9, to: 1),
            .layoutUpdated,
            .becameVisible(id: "r9", index: 1, visibility: .entire),
            .becameHidden(id: "r2", index: 3, visibility: .offscreen),
        ])
        // Hiding the moved row: the rows after it move up and one comes in.
        let hidden = applyBoth(.setHidden([.id("r9")], true), &stack, &model)
        XCTAssertEqual(hidden?.events, [
            .rowHidden(id: "r9", index: 1),
            .layoutUpdated,
            .contentSizeChanged(from: Size(width: 100, height: 500), to: Size(width: 100, height: 450)),
            .becameHidden(id: "r9", index: 1, visibility: .hidden),
            .becameVisible(id: "r2", index: 3, visibility: .entire),
        ])
    }

    /// Zero-length rows on the viewport's edges are entire; rows that only touch an edge are
    /// offscreen; a zero-length viewport shows only zero-length rows inside it.
    func testZeroLengthRowsOnViewportEdges() throws {
        for axis in Axis.allCases {
            let settings = StackSettings(axis: axis, viewport: Size(width: 100, height: 100), rowInsets: .zero)
            let rows = [("a", 50.0), ("z1", 0), ("b", 50), ("z2", 0), ("c", 50), ("z3", 0), ("d", 50)].map { Self.plainRow($0.0, $0.1) }
            var stack = try ScrollStack(settings: settings, rows: rows)
            var model = try ArrayModel(settings: settings, rows: rows)
            XCTAssertEqual(stack.entirelyVisibleRows, ["a", "z1", "b", "z2"], "\(axis)")
            let along = { (v: Double) in axis == .vertical ? Point(x: 0, y: v) : Point(x: v, y: 0) }

            let scrolled = applyBoth(.scroll(.offset(along(50))), &stack, &model)
            XCTAssertEqual(scrolled?.events, [
                .layoutUpdated,
                .didScroll(from: .zero, to: along(50)),
                .becameHidden(id: "a", index: 0, visibility: .offscreen),
                .becameVisible(id: "c", index: 4, visibility: .entire),
                .becameVisible(id: "z3", index: 5, visibility: .entire),
            ], "\(axis)")
            XCTAssertEqual(stack.hitTest(.zero)?.id, "b", "zero-length rows are never hit (\(axis))")
            XCTAssertEqual(stack.hitTest(along(50))?.id, "c", "\(axis)")
            XCTAssertNil(stack.hitTest(along(100)), "outside the viewport (\(axis))")

            // A viewport with no length at 100: only the zero-length row there shows.
            let flat = axis == .vertical ? Size(width: 100, height: 0) : Size(width: 0, height: 100)
            _ = applyBoth(.settings(SettingsChange(viewport: flat, offset: along(100))), &stack, &model)
            XCTAssertEqual(stack.visibleRows, ["z2"], "\(axis)")
            XCTAssertEqual(stack.entirelyVisibleRows, ["z2"], "\(axis)")
            // Spacing moves the shown rows apart; the zero-length rows follow their shown rows.
            _ = applyBoth(.settings(SettingsChange(viewport: Size(width: 100, height: 100), spacing: 10)), &stack, &model)
            _ = applyBoth(.scroll(.row(.id("z3"), .initial)), &stack, &model)
            _ = applyBoth(.setHidden([.id("c")], true), &stack, &model)
            _ = applyBoth(.scroll(.row(.id("c"), .automatic)), &stack, &model)
            _ = applyBoth(.move(.id("d"), 0), &stack, &model)
        }
    }

    /// Every row hidden: zero-length frames stacked at 0, no content, no separators, nothing
    /// visible or hittable; scrolling to a hidden row uses its collapsed frame.
    func testAllRowsHidden() throws {
        var settings = StackSettings(viewport: Size(width: 200, height: 100), contentInsets: EdgeInsets(top: 10, bottom: 30), spacing: 8)
        settings.autoHideLastRowSeparator = false
        let rows = (0..<6).map { Self.plainRow("h\($0)", 40, hidden: true) }
        var stack = try ScrollStack(settings: settings, rows: rows)
        var model = try ArrayModel(settings: settings, rows: rows)
        XCTAssertEqual(stack.contentSize, Size(width: 200, height: 0))
        XCTAssertEqual(stack.visibleRows, [])
        for row in stack.layout().rows {
            XCTAssertEqual(row.frame, Rect(x: 0, y: 0, width: 200, height: 0))
            XCTAssertNil(row.separatorFrame)
            XCTAssertEqual(row.visibility, .hidden)
        }
        XCTAssertNil(stack.hitTest(Point(x: 10, y: 0)))
        XCTAssertEqual(stack.scrollRange, -10 ... -10)

        _ = applyBoth(.scroll(.bottom), &stack, &model)
        XCTAssertEqual(stack.settings.offset, Point(x: 0, y: -10))
        _ = applyBoth(.scroll(.row(.index(4), .final)), &stack, &model)
        XCTAssertEqual(stack.settings.offset, Point(x: 0, y: -10))

        // Showing one row in the middle: it starts at 0 (no spacing next to hidden rows).
        let shown = applyBoth(.setHidden([.id("h3")], false), &stack, &model)
        XCTAssertEqual(shown?.events, [
            .rowShown(id: "h3", index: 3),
            .layoutUpdated,
            .contentSizeChanged(from: Size(width: 200, height: 0), to: Size(width: 200, height: 40)),
            .becameVisible(id: "h3", index: 3, visibility: .entire),
        ])
        let layout = stack.layout()
        XCTAssertEqual(layout.rows[3].frame, Rect(x: 0, y: 0, width: 200, height: 40))
        XCTAssertEqual(layout.rows[4].frame, Rect(x: 0, y: 40, width: 200, height: 0), "a hidden row collapses at the end of the previous shown row")
        XCTAssertEqual(layout.rows[3].separatorFrame, Rect(x: 16, y: 39, width: 184, height: 1))
        XCTAssertEqual(stack.hitTest(Point(x: 10, y: 15))?.id, "h3")

        // Hiding it again, then resizing hidden rows: rowResized, but no visibility change.
        _ = applyBoth(.setHidden([.id("h3")], true), &stack, &model)
        let resized = applyBoth(.update([.id("h0"), .index(5)], RowChange(size: .fixed(10))), &stack, &model)
        XCTAssertEqual(resized?.events, [
            .rowResized(id: "h0", index: 0, from: 40, to: 10),
            .rowResized(id: "h5", index: 5, from: 40, to: 10),
            .layoutUpdated,
        ])
        // Axis flip and removals over all-hidden rows.
        _ = applyBoth(.settings(SettingsChange(axis: .horizontal)), &stack, &model)
        _ = applyBoth(.remove([.index(5), .id("h0")]), &stack, &model)
        XCTAssertEqual(stack.visibleRows, [])
    }
}

