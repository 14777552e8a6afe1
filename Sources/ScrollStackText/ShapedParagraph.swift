import ScrollStackCore

/// One paragraph (text between forced breaks, white space already collapsed) shaped once and
/// reduced to what breaking it at any width needs: its line break opportunities with the
/// paragraph's advances up to them (24 bytes each), and the pieces Chromium reshapes where a
/// line would start or end at a place HarfBuzz marks unsafe to break (kept only there).
///
/// Lines are broken the way Chromium's `ShapingLineBreaker::ShapeLine` breaks them, with
/// the room Blink's line breaker gives it (the width plus 1/64 pt); see Docs/Semantics.md,
/// "Line boxes as Chromium breaks them".
struct ShapedParagraph: Sendable {
    /// A break opportunity: a place a line may end (and the next one start).
    struct Stop: Sendable {
        /// The paragraph's advance, in points, up to the opportunity, and up to the end of
        /// the text before it without the spaces just before it (they hang at a line's end).
        var advance: Double
        var end: Double
        /// The UTF-16 offset of that end.
        var endOffset: Int32
        /// The UTF-16 offset of the opportunity (where a line after it starts).
        var offset: Int32
    }

    /// Where a line ending at a stop is not safe to break and Chromium reshapes its end: from
    /// the last safe offset before the end (`start`, at `startAdvance` in the paragraph), the
    /// piece shaped alone is `width` points long.
    struct Tail: Sendable {
        var start: Int32
        var startAdvance: Double
        var width: Double
        /// Whether the line ends at spaces (reshaped so only for centred and end-aligned text).
        var atSpaces: Bool
    }

    /// A line that would start at an offset HarfBuzz marks unsafe to break: Chromium
    /// reshapes its beginning up to the first safe offset (`firstSafe`, at
    /// `firstSafeAdvance`) alone, `head` points long; a line that ends at or before
    /// `firstSafe` is reshaped whole: `whole[i]` for a line ending at the i-th stop after it.
    struct Head: Sendable {
        var firstSafe: Int32
        var firstSafeAdvance: Double
        var head: Double
        var whole: [Double]
    }

    /// The start (0) and every break opportunity (UAX #14 via ICU, plus after spaces), in
    /// order; the last is the paragraph's end.
    let stops: [Stop]
    /// By stop index, for the stops a line would end unsafely at (and be reshaped).
    let tails: [Int: Tail]
    /// By stop index, for the stops a line would start unsafely at.
    let heads: [Int: Head]

    /// Characters shaped in a fallback font: UTF-16 offsets `start..<end` in the chain's
    /// font `font` (≥ 1; `FontChain`).
    struct FontRun: Sendable, Hashable {
        var start: Int32
        var end: Int32
        var font: Int32
    }

    /// The runs shaped in fallback fonts, in order (empty when the text's font has every
    /// character).
    let fallbackRuns: [FontRun]

    /// What the paragraph's shaping carries over to the next one (`ParagraphContext`).
    let endContext: ParagraphContext

    /// Where a bidi run (`Bidi.levelRuns`) other than the first starts: its UTF-16 offset and
    /// the paragraph's advance there.
    struct RunStart: Sendable {
        var offset: Int32
        var advance: Double
    }

    /// The starts of the paragraph's bidi runs after the first, in order; empty when it is of
    /// one level (all left to right). Blink lays out each run as an inline item of its own and
    /// ceils each item's part of a line to 1/64 pt, so a line across runs is measured run by
    /// run (`position`, `width`).
    let runStarts: [RunStart]

    init(stops: [Stop], tails: [Int: Tail], heads: [Int: Head], fallbackRuns: [FontRun] = [], endContext: ParagraphContext = ParagraphContext(),
         runStarts: [RunStart] = []) {
        self.stops = stops
        self.tails = tails
        self.heads = heads
        self.fallbackRuns = fallbackRuns
        self.endContext = endContext
        self.runStarts = runStarts
    }

    /// The fallback fonts (chain indices) of the characters `start..<end`, each once.
    /// O(log runs + runs in range).
    func fallbackFonts(_ start: Int, _ end: Int) -> Set<Int32> {
        guard !fallbackRuns.isEmpty, end > start else { return [] }
        var low = 0, high = fallbackRuns.count
        while low < high {
            let mid = (low + high) / 2
            if fallbackRuns[mid].end <= Int32(start) { low = mid + 1 } else { high = mid }
        }
        var fonts: Set<Int32> = []
        while low < fallbackRuns.count && fallbackRuns[low].start < Int32(end) {
            fonts.insert(fallbackRuns[low].font)
            low += 1
        }
        return fonts
    }

    /// The widths of the lines this paragraph breaks into at `width` (nil: one line), as CSS
    /// `white-space: pre-line` with `overflow-wrap: normal` does in Chromium: each line ends
    /// at the last break opportunity within the width plus 1/64, walked back while a
    /// reshaped end does not fit; when none fits, the line overflows to the first
    /// opportunity after its start. An empty paragraph is one empty line.
    ///
    /// - Complexity: O(break opportunities).
    func lineWidths(at width: Double?) -> [Double] {
        lineBreaks(at: width).map(\.width)
    }

    /// The lines `lineWidths` measures, each with the UTF-16 offsets of its first character
    /// and of the end of its last one (spaces hanging at its end left out).
    ///
    /// - Complexity: O(break opportunities).
    func lineBreaks(at width: Double?) -> [(start: Int, end: Int, width: Double)] {
        let last = stops.count - 1
        guard let width, last > 0 else {
            let whole = runStarts.isEmpty ? LayoutUnit.ceil(Swift.max(0, stops[last].end))
                : self.width(from: 0, head: nil, to: Int(stops[last].endOffset), advance: stops[last].end)
            return [(0, Int(stops[last].endOffset), whole)]
        }
        var lines: [(start: Int, end: Int, width: Double)] = []
        var start = 0
        while start < last {
            let (end, lineWidth) = line(from: start, width: width)
            lines.append((Int(stops[start].offset), Int(stops[end].endOffset), lineWidth))
            start = end
        }
        return lines
    }

    /// The line that starts at stop `k` in `width` (a multiple of 1/64): the stop it ends
    /// at and its width, following Blink step by step. O(stops on the line).
    func line(from k: Int, width: Double) -> (end: Int, width: Double) {
        // Blink's line breaker gives the shaper its width plus one layout unit
        // (`AvailableWidthToFit`: `AddEpsilon`), to absorb rounding.
        let room = width + 1 / LayoutUnit.scale
        let shaped = shapeLine(from: k, room: room)
        guard !shaped.overflow && shaped.width > room else { return (shaped.end, shaped.width) }
        // The line's snapped width does not fit after all (the candidate was found on
        // ceiled positions). Blink's `HandleOverflow` breaks the text again in its width less
        // 1 pt, and keeps that if it fits.
        let again = shapeLine(from: k, room: Swift.min(room, shaped.width - 1))
        if again.width <= room && again.end > k { return (again.end, again.width) }
        // Otherwise it rewinds to earlier opportunities, measured as views of the
        // paragraph's shaping (`BreakTextAtPreviousBreakOpportunity`), except that removing
        // the trailing space reshapes an unsafe end where a line needs its accurate end
        // (`TruncateLineEndResult`).
        func rewound(_ j: Int) -> Double {
            if let tail = tails[j], tail.atSpaces {
                return runStarts.isEmpty ? lineWidth(from: k, head: nil, to: tail.startAdvance, plus: tail.width)
                    : self.width(from: k, head: nil, to: Int(tail.start), advance: tail.startAdvance, plus: tail.width)
            }
            return runStarts.isEmpty ? lineWidth(from: k, head: nil, to: stops[j].end, plus: 0)
                : self.width(from: k, head: nil, to: Int(stops[j].endOffset), advance: stops[j].end)
        }
        var j = shaped.end - 1
        while j > k + 1 && rewound(j) > room { j -= 1 }
        j = Swift.max(j, k + 1)
        return (j, rewound(j))
    }

    /// `ShapingLineBreaker::ShapeLine` from stop `k` with `room`: the stop the line ends at,
    /// its snapped width, and whether it overflows. Positions are the paragraph's advances
    /// ceiled to 1/64, as Blink caches a shape result's character positions.
    private func shapeLine(from k: Int, room: Double) -> (end: Int, width: Double, overflow: Bool) {
        guard runStarts.isEmpty else { return shapeLineAcrossRuns(from: k, room: room) }
        let last = stops.count - 1
        let startPosition = LayoutUnit.ceil(stops[k].advance)
        let head = heads[k]
        var available = room
        if let head {
            // The reshaped beginning changes the room by its snapped width's difference.
            let oldWidth = LayoutUnit.ceil(head.firstSafeAdvance) - startPosition
            available = Swift.max(0, available + oldWidth - LayoutUnit.ceil(head.head))
        }
        let endPosition = startPosition + available
        let tolerance = 1e-9
        // The candidate: the last opportunity whose end's position is within the room.
        var candidate = k
        while candidate < last && LayoutUnit.ceil(stops[candidate + 1].end) <= endPosition { candidate += 1 }
        var overflow = candidate == k
        if overflow { candidate = k + 1 }
        if let head, head.firstSafe >= stops[candidate].endOffset, candidate - k - 1 < head.whole.count {
            // No safe offset on the line: all of it is reshaped.
            return (candidate, LayoutUnit.ceil(head.whole[candidate - k - 1]), overflow)
        }
        var j = candidate
        while true {
            if let tail = tails[j] {
                if let head, head.firstSafe > tail.start, j - k - 1 < head.whole.count {
                    // Walked back to where the end's reshaping reaches the line's start.
                    let whole = head.whole[j - k - 1]
                    if overflow || whole <= available + tolerance { return (j, LayoutUnit.ceil(whole), overflow) }
                } else if overflow || tail.width <= endPosition - LayoutUnit.ceil(tail.startAdvance) + tolerance {
                    return (j, lineWidth(from: k, head: head, to: tail.startAdvance, plus: tail.width), overflow)
                }
            } else {
                return (j, lineWidth(from: k, head: head, to: stops[j].end, plus: 0), overflow)
            }
            // The reshaped end does not fit: try the opportunity before; past the line's
            // start, the candidate overflows.
            j -= 1
            if j == k {
                overflow = true
                j = candidate
            }
        }
    }

    /// `shapeLine` for a paragraph of several bidi runs: the same steps, with each position
    /// and width taken run by run (`position`, `width`), as Blink's line breaker adds up the
    /// snapped widths of the items before the one it breaks in.
    private func shapeLineAcrossRuns(from k: Int, room: Double) -> (end: Int, width: Double, overflow: Bool) {
        let last = stops.count - 1
        let head = heads[k]
        let tolerance = 1e-9
        var candidate = k
        while candidate < last && position(from: k, head: head, to: Int(stops[candidate + 1].endOffset), advance: stops[candidate + 1].end) <= room {
            candidate += 1
        }
        var overflow = candidate == k
        if overflow { candidate = k + 1 }
        if let head, head.firstSafe >= stops[candidate].endOffset, candidate - k - 1 < head.whole.count {
            return (candidate, LayoutUnit.ceil(head.whole[candidate - k - 1]), overflow)
        }
        var j = candidate
        while true {
            if let tail = tails[j] {
                if let head, head.firstSafe > tail.start, j - k - 1 < head.whole.count {
                    let whole = head.whole[j - k - 1]
                    let run = runAdvance(at: Int(stops[k].offset))
                    let available = Swift.max(0, room + LayoutUnit.ceil(head.firstSafeAdvance - run) - LayoutUnit.ceil(stops[k].advance - run)
                                              - LayoutUnit.ceil(head.head))
                    if overflow || whole <= available + tolerance { return (j, LayoutUnit.ceil(whole), overflow) }
                } else if overflow || position(from: k, head: head, to: Int(tail.start), advance: tail.startAdvance) + tail.width <= room + tolerance {
                    return (j, width(from: k, head: head, to: Int(tail.start), advance: tail.startAdvance, plus: tail.width), overflow)
                }
            } else {
                return (j, width(from: k, head: head, to: Int(stops[j].endOffset), advance: stops[j].end), overflow)
            }
            j -= 1
            if j == k {
                overflow = true
                j = candidate
            }
        }
    }

    /// The paragraph's advance where the bidi run holding offset `offset` starts (0 in the
    /// first run). O(log runs).
    private func runAdvance(at offset: Int) -> Double {
        let i = runIndex(after: offset)
        return i == 0 ? 0 : runStarts[i - 1].advance
    }

    /// The index of the first run start after `offset`. O(log runs).
    private func runIndex(after offset: Int) -> Int {
        var low = 0, high = runStarts.count
        while low < high {
            let mid = (low + high) / 2
            if Int(runStarts[mid].offset) <= offset { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The snapped widths of the line's parts in the runs before the last one it reaches
    /// (`offset` its end), from stop `k` (its head reshaped if any), and the advance where that
    /// last run starts; nil when the line stays in one run. O(log runs + runs crossed).
    private func partsBefore(from k: Int, head: Head?, to offset: Int) -> (width: Double, lastRun: Double)? {
        let first = runIndex(after: Int(stops[k].offset))
        guard first < runStarts.count, Int(runStarts[first].offset) < offset else { return nil }
        var total = LayoutUnit.ceil(Swift.max(0, (head?.head ?? 0) + runStarts[first].advance - (head?.firstSafeAdvance ?? stops[k].advance)))
        var i = first
        while i + 1 < runStarts.count && Int(runStarts[i + 1].offset) < offset {
            total += LayoutUnit.ceil(runStarts[i + 1].advance - runStarts[i].advance)
            i += 1
        }
        return (total, runStarts[i].advance)
    }

    /// Where Blink's line breaker finds offset `offset` (at paragraph advance `advance`) on a
    /// line from stop `k`: in the line's first run, the difference of the run's character
    /// positions ceiled to 1/64 (its head's snapped width in place of the text up to its first
    /// safe offset); past it, the snapped widths of the runs before plus the ceiled position
    /// in the run it falls in. O(log runs + runs crossed).
    private func position(from k: Int, head: Head?, to offset: Int, advance: Double) -> Double {
        if let (before, run) = partsBefore(from: k, head: head, to: offset) { return before + LayoutUnit.ceil(advance - run) }
        let run = runAdvance(at: Int(stops[k].offset))
        if let head { return LayoutUnit.ceil(head.head) + LayoutUnit.ceil(advance - run) - LayoutUnit.ceil(head.firstSafeAdvance - run) }
        return LayoutUnit.ceil(advance - run) - LayoutUnit.ceil(stops[k].advance - run)
    }

    /// The snapped width of a line from stop `k` (its head reshaped if any) to offset
    /// `offset` at paragraph advance `advance`, plus `tail` points reshaped after it: each
    /// run's part ceiled to 1/64 and added up. O(log runs + runs crossed).
    private func width(from k: Int, head: Head?, to offset: Int, advance: Double, plus tail: Double = 0) -> Double {
        if let (before, run) = partsBefore(from: k, head: head, to: offset) { return before + LayoutUnit.ceil(Swift.max(0, advance - run + tail)) }
        return lineWidth(from: k, head: head, to: advance, plus: tail)
    }

    /// The snapped width of a line from stop `k` (its head reshaped if any) to the
    /// paragraph advance `to`, plus `tail` points reshaped after it.
    private func lineWidth(from k: Int, head: Head?, to end: Double, plus tail: Double) -> Double {
        let from = head?.firstSafeAdvance ?? stops[k].advance
        return LayoutUnit.ceil(Swift.max(0, (head?.head ?? 0) + end - from + tail))
    }
}

extension ShapedParagraph {
    /// What the paragraph is estimated to take in memory: its stops (24 bytes each), fallback
    /// and bidi runs, tails and heads with their dictionaries' slots, and the arrays' headers.
    /// O(heads).
    var estimatedBytes: Int {
        let arrayHeader = 32, dictionarySlot = 16
        var total = 5 * arrayHeader + stops.count * MemoryLayout<Stop>.stride + fallbackRuns.count * MemoryLayout<FontRun>.stride
            + runStarts.count * MemoryLayout<RunStart>.stride
        total += tails.count * (MemoryLayout<Tail>.stride + dictionarySlot) * 2
        for head in heads.values {
            total += (MemoryLayout<Head>.stride + dictionarySlot) * 2 + arrayHeader + head.whole.count * 8
        }
        return total
    }
}
