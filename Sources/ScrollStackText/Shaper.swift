import CHarfBuzz
import CICU

/// Shapes a paragraph and finds its break opportunities.
enum Shaper {
    /// How far (UTF-16 units) from an unsafe break a safe offset is looked for; beyond it
    /// (text with no safe offset for that long, which real text does not have) the line is
    /// measured in the paragraph's shaping.
    static let reshapeReach = 256
    /// The most lines ending before a line start's first safe offset reshaped whole per start.
    static let wholeLineLimit = 16

    /// Shapes `text` (one paragraph, left to right) with `font`, one HarfBuzz run per script
    /// (characters of the Common and Inherited scripts join the run around them, as
    /// Chromium's script itemization does), with kerning and ligatures on; a non-zero
    /// `letterSpacing` turns the optional ligatures off (CSS says so; Chromium does) and is
    /// added after every cluster.
    ///
    /// A line that ends where HarfBuzz says breaking is unsafe (a kerning pair or a contextual
    /// form across the break, e.g. after the hyphen of "co-operate") is measured as Chromium
    /// measures it: its end reshaped on its own from the last safe place before it, without
    /// what follows. A line that ends at spaces (which hang) is reshaped so only when
    /// `accurateEnd` (Chromium does it only when it needs the line's accurate end: `text-align`
    /// center or end; "kerning between trailing spaces is not visible" otherwise).
    ///
    /// A line that starts where breaking is unsafe has its beginning reshaped alone up to
    /// the first safe offset (and is reshaped whole when it ends before that).
    ///
    /// - Complexity: O(n), plus reshaping the pieces around each unsafe break.
    static func shape(_ text: String, font: SizedFont, letterSpacing: Double, accurateEnd: Bool, breaker: LineBreaker) -> ShapedParagraph {
        let units = Array(text.utf16)
        let n = units.count
        var features: [hb_feature_t] = []
        if letterSpacing != 0 {
            for tag in ["liga", "clig", "dlig", "hlig", "calt"] {
                var feature = hb_feature_t()
                _ = hb_feature_from_string(tag + "=0", -1, &feature)
                features.append(feature)
            }
        }
        let (advances, safe, _) = shapeRuns(units, font: font, features: features, letterSpacing: letterSpacing)
        var prefix = [Double](repeating: 0, count: n + 1)
        for i in 0..<n { prefix[i + 1] = prefix[i] + advances[i] }
        func reshaped(_ range: Range<Int>) -> Double {
            shapeRuns(Array(units[range]), font: font, features: features, letterSpacing: letterSpacing).advances.reduce(0, +)
        }
        var stops = [ShapedParagraph.Stop(advance: 0, end: 0, endOffset: 0, offset: 0)]
        var offsets = [0]
        var tails: [Int: ShapedParagraph.Tail] = [:]
        var previous = 0
        for b in breaker.breaks(units) where b > 0 {
            var e = b
            while e > previous && units[e - 1] == 0x20 { e -= 1 }
            // Chromium's CachedPreviousSafeToBreakOffset: the last safe offset before the end.
            if e > previous && e < n && !safe[e] && (e == b || accurateEnd),
               let lastSafe = (Swift.max(0, e - reshapeReach)..<e).last(where: { safe[$0] }) {
                tails[stops.count] = ShapedParagraph.Tail(start: Int32(lastSafe), startAdvance: prefix[lastSafe],
                                                          width: reshaped(lastSafe..<e), atSpaces: e < b)
            }
            stops.append(ShapedParagraph.Stop(advance: prefix[b], end: prefix[e], endOffset: Int32(e), offset: Int32(b)))
            offsets.append(b)
            previous = b
        }
        // Lines that would start unsafely: their beginning reshaped up to the first safe
        // offset, and whole when they end before it (within `reshapeReach` and
        // `wholeLineLimit`, so that text with no safe offset for long stays O(n)).
        var heads: [Int: ShapedParagraph.Head] = [:]
        for k in 1..<max(1, stops.count - 1) where !safe[offsets[k]] {
            let s = offsets[k]
            var firstSafe = s + 1
            while !safe[firstSafe] && firstSafe - s < reshapeReach { firstSafe += 1 }
            guard safe[firstSafe] else { continue }
            var whole: [Double] = []
            var j = k + 1
            while j < stops.count && Int(stops[j].endOffset) <= firstSafe && whole.count < wholeLineLimit {
                whole.append(reshaped(s..<Int(stops[j].endOffset)))
                j += 1
            }
            heads[k] = ShapedParagraph.Head(firstSafe: Int32(firstSafe), firstSafeAdvance: prefix[firstSafe], head: reshaped(s..<firstSafe), whole: whole)
        }
        return ShapedParagraph(stops: stops, tails: tails, heads: heads)
    }

    /// Each UTF-16 unit's advance (a cluster's at its first unit), and whether breaking before
    /// each unit is safe: it starts a cluster whose first glyph HarfBuzz does not flag
    /// `UNSAFE_TO_BREAK` (Chromium's `safe_to_break_before`); the end is safe; and whether each
    /// unit starts a cluster (the end does). O(n).
    static func shapeRuns(_ units: [UInt16], font: SizedFont, features: [hb_feature_t], letterSpacing: Double)
        -> (advances: [Double], safe: [Bool], clusterStart: [Bool]) {
        let n = units.count
        var advances = [Double](repeating: 0, count: n)
        var safe = [Bool](repeating: false, count: n + 1)
        var clusterStart = [Bool](repeating: false, count: n + 1)
        safe[n] = true
        clusterStart[n] = true
        for glyph in shapeGlyphs(units, font: font, features: features, letterSpacing: letterSpacing) {
            advances[glyph.cluster] += glyph.advance
            if glyph.startsCluster {
                clusterStart[glyph.cluster] = true
                safe[glyph.cluster] = glyph.safeToBreak
            }
        }
        return (advances, safe, clusterStart)
    }

    /// One glyph HarfBuzz placed: its cluster (the UTF-16 offset of its first unit), glyph
    /// id, advance (letter spacing added to a cluster's last glyph), offset from the pen
    /// (y up), whether it is its cluster's first glyph and whether breaking before it is safe.
    struct Glyph {
        var cluster: Int
        var id: UInt32
        var advance: Double
        var dx: Double
        var dy: Double
        var startsCluster: Bool
        var safeToBreak: Bool
    }

    /// `units` shaped run by run (`scriptRuns`), left to right, as `shape` shapes them. O(n).
    static func shapeGlyphs(_ units: [UInt16], font: SizedFont, features: [hb_feature_t], letterSpacing: Double) -> [Glyph] {
        let n = units.count
        var glyphs: [Glyph] = []
        glyphs.reserveCapacity(n)
        units.withUnsafeBufferPointer { buffer in
            for run in scriptRuns(units) {
                let hb = hb_buffer_create()
                defer { hb_buffer_destroy(hb) }
                hb_buffer_add_utf16(hb, buffer.baseAddress, Int32(n), UInt32(run.range.lowerBound), Int32(run.range.count))
                hb_buffer_set_direction(hb, HB_DIRECTION_LTR)
                if let tag = scrollstack_script_tag(run.script) {
                    hb_buffer_set_script(hb, hb_script_from_string(tag, -1))
                }
                hb_buffer_set_language(hb, hb_language_from_string("en", -1))
                hb_buffer_guess_segment_properties(hb)
                hb_shape(font.hbFont, hb, features, UInt32(features.count))
                var count: UInt32 = 0
                guard let infos = hb_buffer_get_glyph_infos(hb, &count), let positions = hb_buffer_get_glyph_positions(hb, &count) else { continue }
                for g in 0..<Int(count) {
                    var advance = Double(positions[g].x_advance) / 65536
                    if g + 1 == Int(count) || infos[g + 1].cluster != infos[g].cluster { advance += letterSpacing }
                    let starts = g == 0 || infos[g - 1].cluster != infos[g].cluster
                    let safe = hb_glyph_info_get_glyph_flags(infos + g).rawValue & HB_GLYPH_FLAG_UNSAFE_TO_BREAK.rawValue == 0
                    glyphs.append(Glyph(cluster: Int(infos[g].cluster), id: infos[g].codepoint, advance: advance,
                                        dx: Double(positions[g].x_offset) / 65536, dy: Double(positions[g].y_offset) / 65536,
                                        startsCluster: starts, safeToBreak: safe))
                }
            }
        }
        return glyphs
    }

    /// The features `shape` turns off for a letter spacing (the optional ligatures when it is not 0).
    static func features(letterSpacing: Double) -> [hb_feature_t] {
        guard letterSpacing != 0 else { return [] }
        return ["liga", "clig", "dlig", "hlig", "calt"].map { tag in
            var feature = hb_feature_t()
            _ = hb_feature_from_string(tag + "=0", -1, &feature)
            return feature
        }
    }

    /// The advance of "…" (U+2026) in `font`, as Chromium measures the ellipsis of a clamped
    /// line: shaped alone, without letter spacing (Blink applies spacing to text items, not
    /// to the ellipsis). O(1).
    static func ellipsisWidth(font: SizedFont) -> Double {
        shapeRuns([0x2026], font: font, features: [], letterSpacing: 0).advances.reduce(0, +)
    }

    /// The longest start of `units` (one line's text) whose advance within the line's
    /// shaping is at most `room`: its length in UTF-16 units (at a cluster boundary) and its advance. Used
    /// to cut a clamped line before its ellipsis. O(n).
    static func fittingPrefix(_ units: [UInt16], room: Double, font: SizedFont, letterSpacing: Double) -> (length: Int, width: Double) {
        var features: [hb_feature_t] = []
        if letterSpacing != 0 {
            for tag in ["liga", "clig", "dlig", "hlig", "calt"] {
                var feature = hb_feature_t()
                _ = hb_feature_from_string(tag + "=0", -1, &feature)
                features.append(feature)
            }
        }
        let shaped = shapeRuns(units, font: font, features: features, letterSpacing: letterSpacing)
        var best = (length: 0, width: 0.0)
        var total = 0.0
        for i in 0..<units.count {
            total += shaped.advances[i]
            if shaped.clusterStart[i + 1] {
                guard total <= room + 1e-9 else { break }
                best = (i + 1, total)
            }
        }
        // Blink keeps the kept start's positions from the line's shaping (a kerning pair cut
        // in two keeps its kerning), so its width is the prefix, not a reshaping.
        return best
    }

    /// Runs of one script each: Common and Inherited characters take the script of the run
    /// they are in (a leading one, of the first real script after it). O(n).
    static func scriptRuns(_ units: [UInt16]) -> [(range: Range<Int>, script: Int32)] {
        let common: Int32 = 0, inherited: Int32 = 1
        var runs: [(range: Range<Int>, script: Int32)] = []
        var start = 0
        var script = common
        var i = 0
        for scalar in String(decoding: units, as: UTF16.self).unicodeScalars {
            let width = scalar.utf16.count
            let s = scrollstack_script(Int32(bitPattern: scalar.value))
            if s != common && s != inherited {
                if script == common {
                    script = s
                } else if s != script {
                    runs.append((start..<i, script))
                    start = i
                    script = s
                }
            }
            i += width
        }
        if i > start { runs.append((start..<i, script == common ? 25 /* USCRIPT_LATIN */ : script)) }
        return runs
    }
}
