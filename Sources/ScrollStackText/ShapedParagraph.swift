import ScrollStackCore

/// One paragraph (text between forced breaks, white space already collapsed) shaped once,
/// so that breaking it at any width needs no reshaping.
struct ShapedParagraph: Sendable {
    /// `prefix[i]`: the advance, in points, of the UTF-16 units before `i` (n + 1 values; a
    /// cluster's advance counts at its first unit).
    let prefix: [Double]
    /// The line break opportunities (UAX #14 via ICU), ascending, each an index a line may
    /// end before; the last is n.
    let breaks: [Int]
    /// Whether each UTF-16 unit is a collapsible space (it hangs at a line's end).
    let spaces: [Bool]

    var count: Int { spaces.count }

    /// The width of the line [start, end) without its trailing spaces, ceiled to 1/64 (the
    /// way Chromium snaps a shape result's width).
    func width(from start: Int, to end: Int) -> Double {
        var e = end
        while e > start && spaces[e - 1] { e -= 1 }
        return LayoutUnit.ceil(prefix[e] - prefix[start])
    }

    /// The widths of the lines this paragraph breaks into at `width` (nil: one line), greedily
    /// as CSS `white-space: pre-line` with `overflow-wrap: normal` does: each line ends at the
    /// last break opportunity that still fits; when not even the first fits, that word
    /// overflows on a line of its own. An empty paragraph is one empty line.
    ///
    /// - Complexity: O(n + break opportunities).
    func lineWidths(at width: Double?) -> [Double] {
        guard let width, count > 0 else { return [self.width(from: 0, to: count)] }
        var lines: [Double] = []
        var start = 0
        var next = 0
        while start < count {
            while breaks[next] <= start { next += 1 }
            // The first opportunity always ends the line, fitting or not.
            var end = breaks[next]
            var endWidth = self.width(from: start, to: end)
            next += 1
            while next < breaks.count {
                let w = self.width(from: start, to: breaks[next])
                guard w <= width, endWidth <= width else { break }
                end = breaks[next]
                endWidth = w
                next += 1
            }
            lines.append(endWidth)
            start = end
        }
        return lines
    }
}
