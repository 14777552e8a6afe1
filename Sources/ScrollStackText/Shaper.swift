import CHarfBuzz
import CICU

/// Shapes a paragraph and finds its break opportunities.
enum Shaper {
    /// Shapes `text` (one paragraph, left to right) with `font`, one HarfBuzz run per script
    /// (characters of the Common and Inherited scripts join the run around them, as
    /// Chromium's script itemization does), with kerning and ligatures on; a non-zero
    /// `letterSpacing` turns the optional ligatures off (CSS says so; Chromium does) and is
    /// added after every cluster.
    ///
    /// A line that ends where HarfBuzz says breaking is unsafe (a kerning pair or a contextual
    /// form across the break, e.g. after the hyphen of "co-operate") is measured as Chromium
    /// measures it: its last word reshaped on its own, without what follows. Breaks after
    /// spaces are never reshaped (the space is part of the line; it only hangs).
    ///
    /// - Complexity: O(n), plus reshaping the last word at each unsafe break.
    static func shape(_ text: String, font: SizedFont, letterSpacing: Double, breaker: LineBreaker) -> ShapedParagraph {
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
        let (advances, unsafe) = shapeRuns(units, font: font, features: features, letterSpacing: letterSpacing)
        var prefix = [Double](repeating: 0, count: n + 1)
        for i in 0..<n { prefix[i + 1] = prefix[i] + advances[i] }
        var stops = [ShapedParagraph.Stop(advance: 0, trimmedAdvance: 0)]
        var previous = 0
        for b in breaker.breaks(units) where b > 0 {
            var e = b
            while e > previous && units[e - 1] == 0x20 { e -= 1 }
            var trimmed = prefix[e]
            // A break after spaces ends the shaped range after them (safe: nothing to redo).
            if e == b && e > previous && e < n && unsafe[e] {
                let word = shapeRuns(Array(units[previous..<e]), font: font, features: features, letterSpacing: letterSpacing).advances
                trimmed = prefix[previous] + word.reduce(0, +)
            }
            stops.append(ShapedParagraph.Stop(advance: prefix[b], trimmedAdvance: trimmed))
            previous = b
        }
        return ShapedParagraph(stops: stops)
    }

    /// Each UTF-16 unit's advance (a cluster's at its first unit), and whether breaking before
    /// each unit is unsafe (HarfBuzz's `UNSAFE_TO_BREAK` on the cluster's first glyph). O(n).
    static func shapeRuns(_ units: [UInt16], font: SizedFont, features: [hb_feature_t], letterSpacing: Double) -> (advances: [Double], unsafe: [Bool]) {
        let n = units.count
        var advances = [Double](repeating: 0, count: n)
        var unsafe = [Bool](repeating: false, count: n + 1)
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
                    let cluster = Int(infos[g].cluster)
                    var advance = Double(positions[g].x_advance) / 65536
                    if g + 1 == Int(count) || infos[g + 1].cluster != infos[g].cluster { advance += letterSpacing }
                    advances[cluster] += advance
                    if g == 0 || infos[g - 1].cluster != infos[g].cluster,
                       hb_glyph_info_get_glyph_flags(infos + g).rawValue & HB_GLYPH_FLAG_UNSAFE_TO_BREAK.rawValue != 0 {
                        unsafe[cluster] = true
                    }
                }
            }
        }
        return (advances, unsafe)
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
