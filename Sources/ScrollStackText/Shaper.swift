import CHarfBuzz
import CICU

/// Shapes a paragraph and finds its break opportunities.
enum Shaper {
    /// Shapes `text` (one paragraph, left to right) with `font`, one HarfBuzz run per script
    /// (characters of the Common and Inherited scripts join the run around them, as
    /// Chromium's script itemization does), with kerning and ligatures on; a non-zero
    /// `letterSpacing` turns the optional ligatures off (CSS says so; Chromium does) and is
    /// added after every cluster. O(n).
    static func shape(_ text: String, font: SizedFont, letterSpacing: Double, breaker: LineBreaker) -> ShapedParagraph {
        let units = Array(text.utf16)
        let n = units.count
        var advances = [Double](repeating: 0, count: n)
        var features: [hb_feature_t] = []
        if letterSpacing != 0 {
            for tag in ["liga", "clig", "dlig", "hlig", "calt"] {
                var feature = hb_feature_t()
                _ = hb_feature_from_string(tag + "=0", -1, &feature)
                features.append(feature)
            }
        }
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
                }
            }
        }
        var prefix = [Double](repeating: 0, count: n + 1)
        for i in 0..<n { prefix[i + 1] = prefix[i] + advances[i] }
        return ShapedParagraph(prefix: prefix, breaks: breaker.breaks(units), spaces: units.map { $0 == 0x20 })
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
