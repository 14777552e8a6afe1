import XCTest
@testable import ScrollStackCore

/// A million rows: one insert, then ~200 random single-row operations checked against a
/// plain mirror (an array of row numbers and the sorted positions of the hidden rows).
///
/// Rows are 10 long with spacing 2, so a shown row with `s` shown rows before it starts at
/// 12·s, a hidden one collapses at 12·s − 2 (0 when s = 0), and the content is 12·shown − 2.
/// This is about correctness at scale, not speed: no timing assertions, and
/// `checkInvariants()` (O(n)) runs once at the end.
final class StackScaleTests: XCTestCase {

    static let length = 10.0
    static let spacing = 2.0
    static let step = length + spacing
    static let viewport = Size(width: 320, height: 100)

    static func id(_ k: Int) -> String { "r\(k)" }

    static func row(_ k: Int) -> Row {
        Row(id: id(k), content: .controller(ControllerDescriptor(type: "Cell")), size: .fixed(length), insets: .zero)
    }

    /// The mirror of the stack.
    struct Mirror {
        var order: [Int]
        /// Positions of hidden rows, ascending.
        var hidden: [Int] = []

        var count: Int { order.count }
        var shown: Int { order.count - hidden.count }
        var contentLength: Double { shown == 0 ? 0 : StackScaleTests.step * Double(shown) - StackScaleTests.spacing }

        func isHidden(_ i: Int) -> Bool { hidden.contains(i) }
        func shownBefore(_ i: Int) -> Int { i - hidden.filter { $0 < i }.count }

        /// The expected main-axis start of the row at `i` (a hidden row's collapse point).
        func start(_ i: Int) -> Double {
            let s = Double(shownBefore(i))
            if isHidden(i) { return s == 0 ? 0 : StackScaleTests.step * s - StackScaleTests.spacing }
            return StackScaleTests.step * s
        }

        /// The index of the `k`-th shown row.
        func positionOfShown(_ k: Int) -> Int {
            var p = k
            for h in hidden where h <= p { p += 1 }
            return p
        }

        /// Ids of the partial and entire rows with the viewport at `y`.
        func visible(at y: Double, entireOnly: Bool = false) -> [String] {
            var result: [String] = []
            var k = Swift.max(0, Int(((y - StackScaleTests.length) / StackScaleTests.step).rounded(.down)))
            let high = y + StackScaleTests.viewport.height
            while k < shown, StackScaleTests.step * Double(k) < high {
                let start = StackScaleTests.step * Double(k)
                let end = start + StackScaleTests.length
                let shows = entireOnly ? (start >= y && end <= high) : end > y
                if shows { result.append(StackScaleTests.id(order[positionOfShown(k)])) }
                k += 1
            }
            return result
        }

        mutating func insert(_ k: Int, at i: Int) {
            order.insert(k, at: i)
            hidden = hidden.map { $0 >= i ? $0 + 1 : $0 }
        }

        mutating func remove(at i: Int) -> (k: Int, wasHidden: Bool) {
            let k = order.remove(at: i)
            let wasHidden = isHidden(i)
            hidden = hidden.filter { $0 != i }.map { $0 > i ? $0 - 1 : $0 }
            return (k, wasHidden)
        }
    }

    func testAMillionRows() throws {
        let n = 1_000_000
        var stack = try ScrollStack(settings: StackSettings(viewport: Self.viewport, spacing: Self.spacing))
        var mirror = Mirror(order: Array(0..<n))
        var nextNumber = n
        var random = SplitMix64(seed: 0x5EED_0001)

        // One insert of a million rows.
        let inserted = try stack.insert(mirror.order.map(Self.row), at: .bottom)
        XCTAssertEqual(stack.count, n)
        XCTAssertEqual(inserted.events.count, n + 2 + 9)
        XCTAssertEqual(inserted.events[0], .rowAdded(id: "r0", index: 0))
        XCTAssertEqual(inserted.events[n - 1], .rowAdded(id: "r999999", index: 999_999))
        XCTAssertEqual(inserted.events[n], .layoutUpdated)
        XCTAssertEqual(inserted.events[n + 1], .contentSizeChanged(from: Size(width: 320, height: 0),
                                                                   to: Size(width: 320, height: 11_999_998)))
        XCTAssertEqual(Array(inserted.events[(n + 2)...]),
                       (0..<8).map { StackEvent.becameVisible(id: "r\($0)", index: $0, visibility: .entire) }
                       + [.becameVisible(id: "r8", index: 8, visibility: .partial(fraction: 0.4))])
        XCTAssertEqual(stack.contentSize, Size(width: 320, height: 11_999_998))
        XCTAssertEqual(stack.visibleRows, (0...8).map { "r\($0)" })
        XCTAssertEqual(stack.index(ofID: "r654321"), 654_321)
        XCTAssertEqual(try stack.layout(of: .id("r999999")).frame, Rect(x: 0, y: 11_999_988, width: 320, height: 10))

        var counts: [String: Int] = [:]
        for _ in 0..<200 {
            let offset = stack.settings.offset
            let sizeBefore = stack.contentSize
            switch random.below(6) {
            case 0:  // insert one row at a random index
                let i = random.below(mirror.count + 1)
                let k = nextNumber
                nextNumber += 1
                let result = try stack.insert([Self.row(k)], at: .index(i))
                mirror.insert(k, at: i)
                XCTAssertEqual(Array(result.events.prefix(3)), [
                    .rowAdded(id: Self.id(k), index: i), .layoutUpdated,
                    .contentSizeChanged(from: sizeBefore, to: Size(width: 320, height: mirror.contentLength)),
                ])
                XCTAssertEqual(stack.index(ofID: Self.id(k)), i)
                counts["insert", default: 0] += 1

            case 1:  // remove one row, by index or by id
                let i = random.below(mirror.count)
                let expectedID = Self.id(mirror.order[i])
                let reference: RowReference = random.chance() ? .index(i) : .id(expectedID)
                let result = try stack.remove([reference])
                let (_, wasHidden) = mirror.remove(at: i)
                XCTAssertEqual(result.removed.map(\.row.id), [expectedID])
                XCTAssertEqual(result.removed.map(\.index), [i])
                XCTAssertEqual(result.removed.first?.row.hidden, wasHidden)
                XCTAssertEqual(result.events.first, .rowRemoved(id: expectedID, index: i))
                XCTAssertNil(stack.index(ofID: expectedID))
                counts["remove", default: 0] += 1

            case 2:  // move one row
                let from = random.below(mirror.count)
                let to = random.below(mirror.count)
                let k = mirror.order[from]
                let result = try stack.move(.id(Self.id(k)), to: to)
                let (_, wasHidden) = mirror.remove(at: from)
                mirror.insert(k, at: to)
                if wasHidden { mirror.hidden = (mirror.hidden + [to]).sorted() }
                XCTAssertEqual(result.events.first, from == to ? .layoutUpdated : .rowMoved(id: Self.id(k), from: from, to: to))
                XCTAssertEqual(stack.index(ofID: Self.id(k)), to)
                XCTAssertEqual(stack.row(at: to).id, Self.id(k))
                XCTAssertEqual(stack.row(id: Self.id(k))?.hidden, wasHidden)
                XCTAssertEqual(stack.contentSize, sizeBefore, "a move changes no length")
                counts["move", default: 0] += 1

            case 3:  // hide one row (or show a hidden one now and then)
                if !mirror.hidden.isEmpty && random.below(4) == 0 {
                    let i = mirror.hidden[random.below(mirror.hidden.count)]
                    let result = try stack.setHidden([.index(i)], false)
                    mirror.hidden.removeAll { $0 == i }
                    XCTAssertEqual(result.events.first, .rowShown(id: Self.id(mirror.order[i]), index: i))
                    counts["show", default: 0] += 1
                } else {
                    let i = random.below(mirror.count)
                    let id = Self.id(mirror.order[i])
                    let result = try stack.setHidden([.id(id)], true)
                    if mirror.isHidden(i) {
                        XCTAssertEqual(result.events, [.layoutUpdated], "already hidden")
                    } else {
                        mirror.hidden = (mirror.hidden + [i]).sorted()
                        XCTAssertEqual(Array(result.events.prefix(3)), [
                            .rowHidden(id: id, index: i), .layoutUpdated,
                            .contentSizeChanged(from: sizeBefore, to: Size(width: 320, height: mirror.contentLength)),
                        ])
                    }
                    XCTAssertEqual(try stack.visibility(of: .id(id)), .hidden)
                    counts["hide", default: 0] += 1
                }

            case 4:  // scroll to a random shown row with automatic
                var i = random.below(mirror.count)
                while mirror.isHidden(i) { i = random.below(mirror.count) }
                let start = mirror.start(i)
                let end = start + Self.length
                let current = offset.y
                var expected = start < current ? start : (end > current + Self.viewport.height ? end - Self.viewport.height : current)
                expected = Swift.min(Swift.max(expected, 0), Swift.max(0, mirror.contentLength - Self.viewport.height))
                let id = Self.id(mirror.order[i])
                let result = try stack.scroll(to: .row(random.chance() ? .index(i) : .id(id), .automatic))
                XCTAssertEqual(stack.settings.offset, Point(x: 0, y: expected))
                if expected == current {
                    XCTAssertEqual(result.events, [.layoutUpdated], "already entirely visible")
                } else {
                    XCTAssertEqual(Array(result.events.prefix(2)), [
                        .layoutUpdated, .didScroll(from: offset, to: Point(x: 0, y: expected)),
                    ])
                }
                XCTAssertTrue(stack.entirelyVisibleRows.contains(id), "\(id) at \(expected)")
                counts["scroll", default: 0] += 1

            default:  // lookups
                for _ in 0..<5 {
                    let i = random.below(mirror.count)
                    let id = Self.id(mirror.order[i])
                    XCTAssertEqual(stack.index(ofID: id), i)
                    XCTAssertEqual(stack.row(at: i).id, id)
                    let frame = try stack.layout(of: .index(i)).frame
                    XCTAssertEqual(frame.minY, mirror.start(i), id)
                    XCTAssertEqual(frame.size.height, mirror.isHidden(i) ? 0 : Self.length, id)
                }
                XCTAssertNil(stack.index(ofID: "r\(nextNumber)"))
                counts["lookup", default: 0] += 1
            }

            // After every step: count, content size and the visible window.
            XCTAssertEqual(stack.count, mirror.count)
            XCTAssertEqual(stack.contentSize, Size(width: 320, height: mirror.contentLength))
            let y = stack.settings.offset.y
            XCTAssertEqual(stack.visibleRows, mirror.visible(at: y), "at \(y)")
            XCTAssertEqual(stack.entirelyVisibleRows, mirror.visible(at: y, entireOnly: true), "at \(y)")
        }
        XCTAssertGreaterThan(counts.count, 5, "\(counts)")

        // Once, at the end: the O(n) checks.
        stack.checkInvariants()
        let rows = stack.rows
        XCTAssertEqual(rows.count, mirror.count)
        XCTAssertTrue(rows.map(\.id) == mirror.order.map(Self.id), "the order differs from the mirror")
        XCTAssertEqual(rows.indices.filter { rows[$0].hidden }, mirror.hidden)
    }
}

extension SplitMix64 {
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    mutating func chance() -> Bool { next() & 1 == 0 }
}
