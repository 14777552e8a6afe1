import CFreeType
import CHarfBuzz

/// One face at one size, set up the way Chromium (Skia + HarfBuzz, Linux) sets it up:
/// HarfBuzz shapes at a scale of size × 65536 (16.16 positions, so kerning and other GPOS
/// adjustments keep their fractions), while each glyph's advance comes from FreeType at a char
/// size of the size in 26.6: the unhinted `linearHoriAdvance` (16.16), as Skia reports it with
/// subpixel positioning.
///
/// Used only under its shard's lock (HarfBuzz fonts and FreeType faces are not thread-safe).
final class SizedFont: @unchecked Sendable {
    let size: Double
    /// CSS `line-height: normal`: round(ascent) + round(descent) + round(line gap), each
    /// from the face's metrics scaled to the size in single precision, as Chromium's
    /// `SimpleFontData` computes it.
    let normalLineHeight: Double
    /// The rounded ascent and descent `normalLineHeight` adds (where a line's baseline sits).
    let ascent: Double
    let descent: Double
    private let ftFace: FT_Face
    /// Kept alive as long as the face (the library, and the bytes of a font in memory).
    private let library: FreeTypeLibrary
    private let source: FontSource
    private(set) var hbFont: OpaquePointer!
    private var advances: [UInt32: Int32] = [:]

    /// Font functions that take every glyph's advance from FreeType and everything else from
    /// the parent (HarfBuzz's own OpenType functions).
    /// Immutable once made, so shared by every font (HarfBuzz reference-counts it).
    nonisolated(unsafe) private static let funcs: OpaquePointer = {
        let funcs = hb_font_funcs_create()!
        hb_font_funcs_set_glyph_h_advance_func(funcs, { _, data, glyph, _ in
            Unmanaged<SizedFont>.fromOpaque(data!).takeUnretainedValue().linearAdvance(glyph)
        }, nil, nil)
        hb_font_funcs_make_immutable(funcs)
        return funcs
    }()

    /// Set up with FreeType (a face of its own, at `size`) and with HarfBuzz over `shared`,
    /// the face's tables parsed once for every size.
    init?(face: FontFace, size: Double, library: FreeTypeLibrary, shared: SharedFace) {
        guard let handle = library.handle, case .success(let ft) = face.source.open(handle, index: face.index) else { return nil }
        let scalable = ft.pointee.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0
        // A color bitmap face (emoji) draws its largest strike scaled to the size, as Skia does.
        let set = scalable ? FT_Set_Char_Size(ft, 0, FT_F26Dot6((size * 64).rounded(.towardZero)), 72, 72)
                           : FT_Select_Size(ft, Self.largestStrike(ft))
        guard set == 0 else {
            FT_Done_Face(ft)
            return nil
        }
        self.size = size
        self.library = library
        source = face.source
        ftFace = ft
        if scalable {
            (ascent, descent, normalLineHeight) = Self.verticalMetrics(ft, size: size)
            strikeScale = nil
        } else {
            strikeScale = size / Double(max(1, ft.pointee.size.pointee.metrics.x_ppem))
            (ascent, descent, normalLineHeight) = Self.verticalMetrics(ft, size: size)
        }
        glyphCount = Int(ft.pointee.num_glyphs)
        // hb_font_create takes its own reference to the face.
        let parent = hb_font_create(shared.face)
        let scale = Int32(clamping: Int64((size * 65536).rounded(.towardZero)))
        hb_font_set_scale(parent, scale, scale)
        hbFont = hb_font_create_sub_font(parent)
        hb_font_destroy(parent)
        hb_font_set_funcs(hbFont, Self.funcs, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    /// The glyphs the face has (the advances cache holds at most one entry per glyph).
    let glyphCount: Int

    /// What the font is estimated to take in memory, for the engine's byte-bounded font cache:
    /// FreeType's face and size objects and HarfBuzz's font (a fixed 32 KiB), and its advances
    /// cache when full (about 16 bytes per glyph). O(1).
    var estimatedBytes: Int { 32 << 10 + 16 * glyphCount }

    deinit {
        hb_font_destroy(hbFont)
        FT_Done_Face(ftFace)
    }

    /// Whether the face maps `scalar` to a glyph (its cmap; `.notdef` otherwise). O(log glyphs).
    func hasGlyph(_ scalar: Unicode.Scalar) -> Bool {
        FT_Get_Char_Index(ftFace, FT_ULong(scalar.value)) != 0
    }

    /// For a color bitmap face: the size over the strike's ppem, which its advances and
    /// metrics are scaled by; nil for an outline face.
    private let strikeScale: Double?

    /// The glyph's unhinted advance in 16.16, cached: an outline glyph's `linearHoriAdvance`;
    /// a bitmap glyph's advance in its strike scaled to the size (Skia's advance for a
    /// bitmap strike). O(1) after the first load.
    func linearAdvance(_ glyph: UInt32) -> Int32 {
        if let known = advances[glyph] { return known }
        var advance: Int32 = 0
        if let strikeScale {
            if FT_Load_Glyph(ftFace, glyph, Int32(FT_LOAD_COLOR)) == 0 {
                let pixels = Double(ftFace.pointee.glyph.pointee.advance.x) / 64
                advance = Int32(clamping: Int64((pixels * strikeScale * 65536).rounded()))
            }
        } else if FT_Load_Glyph(ftFace, glyph, Int32(FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)) == 0 {
            advance = Int32(clamping: ftFace.pointee.glyph.pointee.linearHoriAdvance)
        }
        advances[glyph] = advance
        return advance
    }

    /// The index of `face`'s strike with the most pixels per em. O(strikes).
    private static func largestStrike(_ face: FT_Face) -> FT_Int {
        var best: FT_Int = 0
        for i in 0..<Int(face.pointee.num_fixed_sizes) where face.pointee.available_sizes[i].y_ppem > face.pointee.available_sizes[Int(best)].y_ppem {
            best = FT_Int(i)
        }
        return best
    }

    /// Skia's ascent, descent and leading (OS/2 typographic metrics when the font sets
    /// USE_TYPO_METRICS, otherwise FreeType's, i.e. hhea's), each rounded half up.
    /// A color bitmap face's come from its hhea and head tables as an outline face's do
    /// (FreeType leaves them 0 for a face without outlines; Chromium's line boxes follow
    /// hhea, not the strike's own metrics).
    private static func verticalMetrics(_ face: FT_Face, size: Double) -> (ascent: Double, descent: Double, lineHeight: Double) {
        var ascender = Float(face.pointee.ascender)
        var descender = Float(face.pointee.descender)
        var height = Float(face.pointee.height)
        var unitsPerEm = Float(face.pointee.units_per_EM)
        if face.pointee.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) == 0,
           let hhea = FT_Get_Sfnt_Table(face, FT_SFNT_HHEA)?.assumingMemoryBound(to: TT_HoriHeader.self).pointee,
           let head = FT_Get_Sfnt_Table(face, FT_SFNT_HEAD)?.assumingMemoryBound(to: TT_Header.self).pointee {
            ascender = Float(hhea.Ascender)
            descender = Float(hhea.Descender)
            height = Float(hhea.Ascender) - Float(hhea.Descender) + Float(hhea.Line_Gap)
            unitsPerEm = Float(head.Units_Per_EM)
        }
        if let table = FT_Get_Sfnt_Table(face, FT_SFNT_OS2) {
            let os2 = table.assumingMemoryBound(to: TT_OS2.self).pointee
            if os2.version != 0xFFFF && os2.fsSelection & (1 << 7) != 0 {
                ascender = Float(os2.sTypoAscender)
                descender = Float(os2.sTypoDescender)
                height = Float(os2.sTypoAscender) - Float(os2.sTypoDescender) + Float(os2.sTypoLineGap)
            }
        }
        let units = Swift.max(1, unitsPerEm)
        let s = Float(size)
        let ascent = ascender / units * s
        let descent = -descender / units * s
        let gap = (height - ascender + descender) / units * s
        func round(_ x: Float) -> Float { (x + 0.5).rounded(.down) }
        return (Double(round(ascent)), Double(round(descent)), Double(round(ascent) + round(descent) + Swift.max(0, round(gap))))
    }
}

/// A face's HarfBuzz tables (`hb_face_t`), made once and shared by every size of it.
final class SharedFace: @unchecked Sendable {
    let face: OpaquePointer

    /// Nil when the file cannot be read. A font in memory is read in place: the blob holds
    /// its bytes until HarfBuzz destroys it.
    init?(_ face: FontFace) {
        let blob: OpaquePointer?
        switch face.source {
        case .file(let path):
            blob = hb_blob_create_from_file_or_fail(path)
        case .memory(let bytes):
            let held = Unmanaged.passRetained(bytes).toOpaque()
            blob = UnsafeRawPointer(bytes.base).withMemoryRebound(to: CChar.self, capacity: bytes.count) { data in
                hb_blob_create_or_fail(data, UInt32(bytes.count), HB_MEMORY_MODE_READONLY, held) { held in
                    Unmanaged<FontBytes>.fromOpaque(held!).release()
                }
            }
            if blob == nil { Unmanaged<FontBytes>.fromOpaque(held).release() }
        }
        guard let blob else { return nil }
        self.face = hb_face_create(blob, UInt32(face.index))
        hb_blob_destroy(blob)
    }

    deinit {
        hb_face_destroy(face)
    }
}
