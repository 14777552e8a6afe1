import CHarfBuzz
import CICU
import ScrollStackCore

/// Shapes a paragraph and finds its break opportunities.
enum Shaper {
    /// How far (UTF-16 units) from an unsafe break a safe offset is looked for; beyond it
    /// (text with no safe offset for that long, which real text does not have) the line is
    /// measured in the paragraph's shaping.
    static let reshapeReach = 256
    /// The most lines ending before a line start's first safe offset reshaped whole per start.
    static let wholeLineLimit = 16

    /// Shapes `text` (one paragraph, left to right) in `chain`, one HarfBuzz run per script
    /// (characters of the Common and Inherited scripts join the run around them, as
    /// Chromium's script itemization does), characters the text's font lacks shaped again in
    /// fallback fonts (`shapeGlyphs`), with kerning and ligatures on; a non-zero
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
    static func shape(_ text: String, chain: FontChain, context: ParagraphContext, letterSpacing: Double, accurateEnd: Bool,
                      breaker: LineBreaker) -> ShapedParagraph {
        let units = Array(text.utf16)
        let n = units.count
        let features = features(letterSpacing: letterSpacing)
        let (advances, safe, _, fallbackRuns, end, levels) = shapeRuns(units, chain: chain, context: context, features: features,
                                                                       letterSpacing: letterSpacing)
        var prefix = [Double](repeating: 0, count: n + 1)
        for i in 0..<n { prefix[i + 1] = prefix[i] + advances[i] }
        func reshaped(_ range: Range<Int>) -> Double {
            shapeRuns(Array(units[range]), chain: chain, context: ParagraphContext(), features: features, letterSpacing: letterSpacing).advances.reduce(0, +)
        }
        let runStarts = Bidi.levelRuns(0..<n, levels).dropFirst().map {
            ShapedParagraph.RunStart(offset: Int32($0.range.lowerBound), advance: prefix[$0.range.lowerBound])
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
        return ShapedParagraph(stops: stops, tails: tails, heads: heads, fallbackRuns: fallbackRuns, endContext: end, runStarts: runStarts)
    }

    /// Each UTF-16 unit's advance (a cluster's at its first unit), and whether breaking before
    /// each unit is safe: it starts a cluster whose first glyph HarfBuzz does not flag
    /// `UNSAFE_TO_BREAK` (Chromium's `safe_to_break_before`); the end is safe; and whether each
    /// unit starts a cluster (the end does); the runs shaped in a fallback font; and the units'
    /// bidi levels (`shapeGlyphs`). O(n).
    static func shapeRuns(_ units: [UInt16], chain: FontChain, context: ParagraphContext, features: [hb_feature_t], letterSpacing: Double)
        -> (advances: [Double], safe: [Bool], clusterStart: [Bool], fallbackRuns: [ShapedParagraph.FontRun], end: ParagraphContext,
            levels: [UInt8]?) {
        let n = units.count
        var advances = [Double](repeating: 0, count: n)
        var safe = [Bool](repeating: false, count: n + 1)
        var clusterStart = [Bool](repeating: false, count: n + 1)
        var runs: [ShapedParagraph.FontRun] = []
        safe[n] = true
        clusterStart[n] = true
        let (glyphs, end, levels) = shapeGlyphs(units, chain: chain, context: context, features: features, letterSpacing: letterSpacing)
        for (g, glyph) in glyphs.enumerated() {
            advances[glyph.cluster] += glyph.advance
            if glyph.startsCluster {
                clusterStart[glyph.cluster] = true
                safe[glyph.cluster] = glyph.safeToBreak
            }
            guard glyph.font != 0 else { continue }
            let end = Int32(g + 1 < glyphs.count ? glyphs[g + 1].cluster : n)
            if let last = runs.last, last.font == Int32(glyph.font), last.end >= Int32(glyph.cluster) {
                runs[runs.count - 1].end = Swift.max(last.end, end)
            } else {
                runs.append(ShapedParagraph.FontRun(start: Int32(glyph.cluster), end: end, font: Int32(glyph.font)))
            }
        }
        return (advances, safe, clusterStart, runs, end, levels)
    }

    /// One glyph HarfBuzz placed: its cluster (the UTF-16 offset of its first unit), the
    /// chain's font it is in (0: the text's own), glyph id, advance (letter spacing added to
    /// a cluster's last glyph), offset from the pen (y up), whether it is its cluster's first
    /// glyph and whether breaking before it is safe.
    struct Glyph {
        var cluster: Int
        var font: Int
        var id: UInt32
        var advance: Double
        var dx: Double
        var dy: Double
        var startsCluster: Bool
        var safeToBreak: Bool
    }

    /// `units` shaped run by run (`scriptRuns`), left to right, as `shape` shapes them, in
    /// the text's font; then, as Chromium's `HarfBuzzShaper` does, each run of clusters it
    /// has no glyph for (a cluster with a `.notdef` glyph) is shaped again, in the context
    /// of the whole text, in the fallback font chosen for the script run's missing
    /// characters (`FontChain.fallback`, by the hint `shape` picks), and so on for what that
    /// font lacks, each font tried once per run. A run of missing clusters ends where emoji presentation starts or stops (Chromium
    /// segments emoji apart), so an emoji is shaped in an emoji face even beside other
    /// missing characters; and a cluster presented as emoji goes to the emoji face first
    /// even when the text's font has a glyph for it (Chromium draws ❤️ in Noto Color Emoji
    /// although Inter has a ❤). Clusters no font has keep the text's font's `.notdef`.
    ///
    /// - Complexity: O(n) when the text's font has every character; each fallback reshapes
    ///   only the runs it is chosen for.
    ///
    /// `context` is what the paragraphs before this one in the same text carry over: the
    /// paragraph's leading Common characters continue their last script run (Chromium
    /// resolves scripts over a text node whole, across its line breaks, though it shapes and
    /// picks fallback fonts for each paragraph apart). Returns the glyphs, what this
    /// paragraph carries over to the next, and its units' bidi levels (`Bidi.levels`: nil
    /// when all are 0).
    static func shapeGlyphs(_ units: [UInt16], chain: FontChain, context: ParagraphContext, features: [hb_feature_t],
                            letterSpacing: Double) -> (glyphs: [Glyph], end: ParagraphContext, levels: [UInt8]?) {
        var glyphs: [Glyph] = []
        glyphs.reserveCapacity(units.count)
        let (runs, lastScript) = scriptRuns(units, continuing: context.script)
        let levels = Bidi.levels(units)
        units.withUnsafeBufferPointer { buffer in
            for run in runs {
                for piece in Bidi.levelRuns(run.range, levels) {
                    for segment in emojiSegments(buffer, piece.range) {
                        shape(buffer, segment, script: run.script, rightToLeft: piece.rightToLeft, font: 0, tried: [0], chain: chain,
                              features: features, letterSpacing: letterSpacing, into: &glyphs)
                    }
                }
            }
        }
        return (glyphs, ParagraphContext(script: lastScript), levels)
    }

    /// `range` of `buffer` shaped in the chain's font `k`, its missing clusters in fallbacks
    /// (`shapeGlyphs`), appended to `glyphs`.
    private static func shape(_ buffer: UnsafeBufferPointer<UInt16>, _ range: Range<Int>, script: Int32, rightToLeft: Bool, font k: Int,
                              tried: [Int], chain: FontChain, features: [hb_feature_t], letterSpacing: Double, into glyphs: inout [Glyph]) {
        guard let font = chain.font(k) else { return }
        let shaped = harfBuzz(buffer, range, script: script, rightToLeft: rightToLeft, font: font, index: k, features: features,
                              letterSpacing: letterSpacing)
        guard shaped.contains(where: { $0.id == 0 }) || (k == 0 && !chain.primaryDrawsEmoji && containsEmoji(buffer, range)) else {
            glyphs += shaped
            return
        }
        // The clusters, as [start, end) glyph indices, each with whether it is missing.
        // In the text's own font, a cluster presented as emoji counts as missing unless that
        // font draws emoji (Chromium draws ❤️ in the emoji face although Inter has a ❤).
        let emojiFirst = k == 0 && !chain.primaryDrawsEmoji
        var clusters: [(start: Int, end: Int, missing: Bool)] = []
        var g = 0
        while g < shaped.count {
            var e = g + 1
            while e < shaped.count && shaped[e].cluster == shaped[g].cluster { e += 1 }
            let missing = shaped[g..<e].contains { $0.id == 0 } || (emojiFirst && presentsAsEmoji(buffer, at: shaped[g].cluster))
            clusters.append((g, e, missing))
            g = e
        }
        // The holes: runs of missing clusters of one presentation (text or emoji), as glyph
        // index ranges and UTF-16 ranges.
        var holes: [(glyphs: Range<Int>, units: Range<Int>, emoji: Bool)] = []
        var c = 0
        while c < clusters.count {
            guard clusters[c].missing else {
                c += 1
                continue
            }
            let emoji = presentsAsEmoji(buffer, at: shaped[clusters[c].start].cluster)
            var d = c + 1
            while d < clusters.count && clusters[d].missing && presentsAsEmoji(buffer, at: shaped[clusters[d].start].cluster) == emoji { d += 1 }
            let start = shaped[clusters[c].start].cluster
            let end = d < clusters.count ? shaped[clusters[d].start].cluster : range.upperBound
            holes.append((clusters[c].start..<clusters[d - 1].end, start..<end, emoji))
            c = d
        }
        // One fallback font for all the text holes of the run and one for its emoji holes,
        // each chosen by the first of their characters of a script of its own (not Common or
        // Inherited), else by their first character: Chromium picks the face for "☃ 한국어"
        // by 한, so ☃ is drawn in Noto Sans CJK (which has it) rather than in DejaVu Sans.
        var next: [Bool: Int] = [:]
        for emoji in [false, true] {
            let group = holes.filter { $0.emoji == emoji }
            guard let first = group.first, let hint = hint(buffer, group.map(\.units)) ?? scalar(buffer, at: first.units.lowerBound) else { continue }
            next[emoji] = chain.fallback(for: hint, emoji: emoji, tried: tried)
        }
        var at = 0
        for hole in holes {
            glyphs += shaped[at..<hole.glyphs.lowerBound]
            if let font = next[hole.emoji] {
                shape(buffer, hole.units, script: script, rightToLeft: rightToLeft, font: font, tried: tried + [font], chain: chain,
                      features: features, letterSpacing: letterSpacing, into: &glyphs)
            } else {
                glyphs += shaped[hole.glyphs]
            }
            at = hole.glyphs.upperBound
        }
        glyphs += shaped[at...]
    }

    /// The first character of `ranges` whose script is not Common or Inherited, if any. O(n).
    private static func hint(_ buffer: UnsafeBufferPointer<UInt16>, _ ranges: [Range<Int>]) -> Unicode.Scalar? {
        for range in ranges {
            var i = range.lowerBound
            while i < range.upperBound, let s = scalar(buffer, at: i) {
                if scrollstack_script(Int32(bitPattern: s.value)) > 1 { return s }
                i += s.utf16.count
            }
        }
        return nil
    }

    /// `range` of `buffer` shaped by HarfBuzz in `font` (the chain's font `index`), in the
    /// context of the whole buffer, left to right or right to left. The glyphs are answered
    /// in logical order either way (HarfBuzz's right-to-left output reversed), each with the
    /// advance and offsets it was shaped with; a drawing puts them back in visual order
    /// (`Bidi.visualOrder`). O(range).
    private static func harfBuzz(_ buffer: UnsafeBufferPointer<UInt16>, _ range: Range<Int>, script: Int32, rightToLeft: Bool,
                                 font: SizedFont, index: Int, features: [hb_feature_t], letterSpacing: Double) -> [Glyph] {
        let hb = hb_buffer_create()
        defer { hb_buffer_destroy(hb) }
        hb_buffer_add_utf16(hb, buffer.baseAddress, Int32(buffer.count), UInt32(range.lowerBound), Int32(range.count))
        hb_buffer_set_direction(hb, rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        if let tag = scrollstack_script_tag(script) {
            hb_buffer_set_script(hb, hb_script_from_string(tag, -1))
        }
        hb_buffer_set_language(hb, hb_language_from_string("en", -1))
        hb_buffer_guess_segment_properties(hb)
        hb_shape(font.hbFont, hb, features, UInt32(features.count))
        if rightToLeft { hb_buffer_reverse(hb) }
        let cursive = letterSpacing != 0 && isCursive(script)
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(hb, &count), let positions = hb_buffer_get_glyph_positions(hb, &count) else { return [] }
        var glyphs: [Glyph] = []
        glyphs.reserveCapacity(Int(count))
        for g in 0..<Int(count) {
            var advance = Double(positions[g].x_advance) / 65536
            if g + 1 == Int(count) || infos[g + 1].cluster != infos[g].cluster,
               !cursive || buffer[Int(infos[g].cluster)] == 0x20 || buffer[Int(infos[g].cluster)] == 0xA0 {
                advance += letterSpacing
            }
            let starts = g == 0 || infos[g - 1].cluster != infos[g].cluster
            let safe = hb_glyph_info_get_glyph_flags(infos + g).rawValue & HB_GLYPH_FLAG_UNSAFE_TO_BREAK.rawValue == 0
            glyphs.append(Glyph(cluster: Int(infos[g].cluster), font: index, id: infos[g].codepoint, advance: advance,
                                dx: Double(positions[g].x_offset) / 65536, dy: Double(positions[g].y_offset) / 65536,
                                startsCluster: starts, safeToBreak: safe))
        }
        return glyphs
    }

    /// Whether `script` is cursive, its letters joined (CSS Text's list: Arabic, Hanifi
    /// Rohingya, Mandaic, Mongolian, N'Ko, Phags Pa, Syriac): in its runs letter spacing is
    /// added after spaces (U+0020, U+00A0) only, not between letters, digits or punctuation,
    /// which it would pull apart; Chromium does the same. O(1).
    static func isCursive(_ script: Int32) -> Bool {
        guard let tag = scrollstack_script_tag(script) else { return false }
        return ["Arab", "Rohg", "Mand", "Mong", "Nkoo", "Phag", "Syrc"].contains(String(cString: tag))
    }

    /// The scalar starting at UTF-16 offset `i`. O(1).
    private static func scalar(_ buffer: UnsafeBufferPointer<UInt16>, at i: Int) -> Unicode.Scalar? {
        guard i < buffer.count else { return nil }
        let unit = buffer[i]
        if UTF16.isLeadSurrogate(unit), i + 1 < buffer.count, UTF16.isTrailSurrogate(buffer[i + 1]) {
            return Unicode.Scalar(UTF16.decode(UTF16.EncodedScalar([unit, buffer[i + 1]])).value)
        }
        return Unicode.Scalar(unit)
    }

    /// `range` cut where emoji presentation starts and stops, as Chromium's run segmenter
    /// cuts text (its emoji sequences are segments of their own, with fallbacks chosen apart
    /// from the text's): an emoji sequence is a character presented as emoji and the
    /// modifiers, variation selectors, keycap marks, tags and zero-width-joined characters
    /// after it. One range when there is no emoji. O(range).
    static func emojiSegments(_ buffer: UnsafeBufferPointer<UInt16>, _ range: Range<Int>) -> [Range<Int>] {
        guard containsEmoji(buffer, range) else { return [range] }
        var segments: [Range<Int>] = []
        var start = range.lowerBound
        var i = range.lowerBound
        while i < range.upperBound, let s = scalar(buffer, at: i) {
            guard presentsAsEmoji(buffer, at: i) else {
                i += s.utf16.count
                continue
            }
            var end = i + s.utf16.count
            while end < range.upperBound, let next = scalar(buffer, at: end) {
                let v = next.value
                if v == 0xFE0F || v == 0x20E3 || (0x1F3FB...0x1F3FF).contains(v) || (0xE0020...0xE007F).contains(v) {
                    end += next.utf16.count
                } else if v == 0x200D, let joined = scalar(buffer, at: end + 1) {
                    end += 1 + joined.utf16.count
                } else {
                    break
                }
            }
            end = Swift.min(end, range.upperBound)
            if i > start { segments.append(start..<i) }
            segments.append(i..<end)
            start = end
            i = end
        }
        if start < range.upperBound { segments.append(start..<range.upperBound) }
        return segments
    }

    /// Whether any character of `range` may be presented as emoji (`Emoji_Presentation`, or
    /// followed by a variation selector 16). O(range).
    static func containsEmoji(_ buffer: UnsafeBufferPointer<UInt16>, _ range: Range<Int>) -> Bool {
        for i in range {
            let unit = buffer[i]
            // Emoji are U+231A and above; below that, only ASCII keycaps and ©/® with VS16.
            if unit == 0xFE0F || ((unit >= 0x231A || UTF16.isLeadSurrogate(unit)) && presentsAsEmoji(buffer, at: i)) { return true }
        }
        return false
    }

    /// Whether the cluster at UTF-16 offset `i` is presented as emoji: its first character
    /// is by default (`Emoji_Presentation`), or a variation selector 16 follows it. O(1).
    static func presentsAsEmoji(_ buffer: UnsafeBufferPointer<UInt16>, at i: Int) -> Bool {
        guard let first = scalar(buffer, at: i) else { return false }
        if first.properties.isEmojiPresentation { return true }
        let next = i + first.utf16.count
        return next < buffer.count && buffer[next] == 0xFE0F && first.properties.isEmoji
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
    static func ellipsisWidth(chain: FontChain) -> Double {
        shapeRuns([0x2026], chain: chain, context: ParagraphContext(), features: [], letterSpacing: 0).advances.reduce(0, +)
    }

    /// The longest start of `units` (one line's text) whose advance within the line's
    /// shaping is at most `room`: its length in UTF-16 units (at a cluster boundary) and its advance. Used
    /// to cut a clamped line before its ellipsis. O(n).
    static func fittingPrefix(_ units: [UInt16], room: Double, chain: FontChain, letterSpacing: Double) -> (length: Int, width: Double) {
        let shaped = shapeRuns(units, chain: chain, context: ParagraphContext(), features: features(letterSpacing: letterSpacing), letterSpacing: letterSpacing)
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
    /// they are in (leading ones, the script `continuing` when set, else that of the first
    /// real script after them), except that a closing bracket takes the script of the run its
    /// opening bracket was in, and the Common characters after it go on in that script
    /// (Chromium's `ScriptRunIterator` pairs brackets so: in "通知 (aside) ☃", ")" and "☃" are
    /// Han); and the last run's script (0 when the text has none). O(n).
    static func scriptRuns(_ units: [UInt16], continuing: Int32 = 0) -> (runs: [(range: Range<Int>, script: Int32)], last: Int32) {
        let common: Int32 = 0, inherited: Int32 = 1
        var runs: [(range: Range<Int>, script: Int32)] = []
        var start = 0
        var script = continuing == inherited ? common : continuing
        // Open brackets: the closing bracket each pairs with, and the script it was opened in
        // (common until the run it is in finds its script).
        var brackets: [(closing: UInt32, script: Int32)] = []
        var i = 0
        while i < units.count {
            let (value, width) = scalar(in: units, at: i)
            defer { i += width }
            var s = scrollstack_script(Int32(bitPattern: value))
            if s == common {
                switch scrollstack_bracket_type(Int32(bitPattern: value)) {
                case 1:
                    brackets.append((UInt32(bitPattern: scrollstack_paired_bracket(Int32(bitPattern: value))), script))
                case 2:
                    if let k = brackets.lastIndex(where: { $0.closing == value }) {
                        s = brackets[k].script
                        brackets.removeSubrange(k...)
                    }
                default:
                    break
                }
            }
            guard s != common && s != inherited else { continue }
            if script == common {
                script = s
                for k in brackets.indices where brackets[k].script == common { brackets[k].script = s }
            } else if s != script {
                runs.append((start..<i, script))
                start = i
                script = s
            }
        }
        if i > start { runs.append((start..<i, script == common ? 25 /* USCRIPT_LATIN */ : script)) }
        return (runs, script)
    }

    /// The scalar whose UTF-16 starts at `units[i]`, and how many units it takes. An unpaired
    /// surrogate reads as U+FFFD, one unit wide, as `String(decoding:as: UTF16.self)` repairs
    /// it. Decoded in place: making a `String` of the units to walk its scalars cost about 3 %
    /// of a cold text layout. O(1).
    @inline(__always)
    static func scalar(in units: [UInt16], at i: Int) -> (value: UInt32, width: Int) {
        let unit = units[i]
        if unit & 0xF800 != 0xD800 { return (UInt32(unit), 1) }
        if unit & 0xFC00 == 0xD800, i + 1 < units.count, units[i + 1] & 0xFC00 == 0xDC00 {
            return (0x10000 + ((UInt32(unit) & 0x3FF) << 10) + (UInt32(units[i + 1]) & 0x3FF), 2)
        }
        return (0xFFFD, 1)
    }
}

/// What a paragraph's shaping carries over to the next paragraph of the same text, as
/// Chromium resolves scripts over a text node whole across its line breaks: the script the
/// next paragraph's leading Common characters continue (0: none yet).
struct ParagraphContext: Hashable, Sendable {
    var script: Int32 = 0
}
