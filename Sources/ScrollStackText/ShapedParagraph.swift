import ScrollStackCore

/// One paragraph (text between forced breaks, white space already collapsed) shaped once and
/// reduced to what breaking it at any width needs: its line break opportunities and the
/// advance up to each (with and without the spaces before it). 16 bytes per
/// opportunity, so a cached sentence costs a few hundred bytes.
struct ShapedParagraph: Sendable {
    /// A place a line may start or end.
    struct Stop: Sendable {
        /// The advance, in points, of everything before the opportunity.
        var advance: Double
        /// The same without the spaces just before it (they hang at a line's end).
        var trimmedAdvance: Double
    }

    /// The start (0) and every break opportunity (UAX #14 via ICU, plus after spaces), in
    /// order; the last is the paragraph's end.
    let stops: [Stop]

    init(stops: [Stop]) {
        self.stops = stops
    }

    /// The width of the line from stop `start` to stop `end`, trailing spaces excluded,
    /// ceiled to 1/64 (the way Chromium snaps a shape result's width).
    func width(from start: Int, to end: Int) -> Double {
        LayoutUnit.ceil(Swift.max(0, stops[end].trimmedAdvance - stops[start].advance))
    }

    /// The widths of the lines this paragraph breaks into at `width` (nil: one line), greedily
    /// as CSS `white-space: pre-line` with `overflow-wrap: normal` does: each line ends at the
    /// last break opportunity that still fits; when not even the first fits, that word
    /// overflows on a line of its own. An empty paragraph is one empty line.
    ///
    /// - Complexity: O(break opportunities).
    func lineWidths(at width: Double?) -> [Double] {
        let last = stops.count - 1
        guard let width, last > 0 else { return [self.width(from: 0, to: last)] }
        var lines: [Double] = []
        var start = 0
        while start < last {
            // The first opportunity always ends the line, fitting or not.
            var end = start + 1
            var endWidth = self.width(from: start, to: end)
            while end < last && endWidth <= width {
                let w = self.width(from: start, to: end + 1)
                guard w <= width else { break }
                end += 1
                endWidth = w
            }
            lines.append(endWidth)
            start = end
        }
        return lines
    }
}
