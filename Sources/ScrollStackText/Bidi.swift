import CICU

/// Bidirectional text as Chromium lays it out in a block of CSS `direction: ltr` (the
/// Unicode Bidirectional Algorithm, UAX #9, by ICU): each paragraph's base level is 0; runs of
/// one embedding level are shaped apart, those of odd levels right to left; lines are broken
/// in logical order, and each line is then put in visual order (`visualOrder`).
enum Bidi {
    /// Each unit's embedding level (odd: right to left), or nil when every level is 0. Text
    /// with no unit at U+0590 or above (where the first right-to-left script and every bidi
    /// control are) is all left to right without asking ICU. O(n).
    static func levels(_ units: [UInt16]) -> [UInt8]? {
        guard units.contains(where: { $0 >= 0x0590 }) else { return nil }
        var levels = [UInt8](repeating: 0, count: units.count)
        let found = units.withUnsafeBufferPointer { text in
            levels.withUnsafeMutableBufferPointer { scrollstack_bidi_levels(text.baseAddress, Int32(text.count), $0.baseAddress) }
        }
        return found == 1 ? levels : nil
    }

    /// `range` cut where the embedding level changes, each piece with whether it runs right
    /// to left; `range` whole, left to right, without levels. O(range).
    static func levelRuns(_ range: Range<Int>, _ levels: [UInt8]?) -> [(range: Range<Int>, rightToLeft: Bool)] {
        guard let levels, !range.isEmpty else { return [(range, false)] }
        var runs: [(range: Range<Int>, rightToLeft: Bool)] = []
        var start = range.lowerBound
        for i in range.dropFirst() where levels[i] != levels[i - 1] {
            runs.append((start..<i, levels[start] & 1 == 1))
            start = i
        }
        runs.append((start..<range.upperBound, levels[start] & 1 == 1))
        return runs
    }

    /// The visual order of a line's items given in logical order with their levels: rule L2,
    /// from the highest level down to the lowest odd one, every maximal sequence of items at
    /// that level or higher reversed. Answers the items' indices, left to right.
    /// O(n × distinct levels).
    static func visualOrder(_ levels: [UInt8]) -> [Int] {
        var order = Array(levels.indices)
        guard let highest = levels.max(), let lowestOdd = levels.filter({ $0 & 1 == 1 }).min() else { return order }
        var level = highest
        while level >= lowestOdd {
            var i = 0
            while i < order.count {
                guard levels[order[i]] >= level else {
                    i += 1
                    continue
                }
                var j = i
                while j < order.count && levels[order[j]] >= level { j += 1 }
                order[i..<j].reverse()
                i = j
            }
            level -= 1
        }
        return order
    }

    /// Whether `unit` is white space that rule L1 puts back at the paragraph's level at a
    /// line's end (spaces, tabs and the other separators of bidi class WS or S). O(1).
    static func isTrailingWhitespace(_ unit: UInt16) -> Bool {
        unit == 0x20 || unit == 0x09 || unit == 0x0B || unit == 0x1F || unit == 0x0C || unit == 0x1680
            || (0x2000...0x200A).contains(unit) || unit == 0x2028 || unit == 0x205F || unit == 0x3000
    }
}
