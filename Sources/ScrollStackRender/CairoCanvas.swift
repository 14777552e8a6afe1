internal import CCairo
import Dispatch
import Synchronization
import ScrollStackCore
import ScrollStackText

/// Draws scenes with Cairo: to PNG, and glyph outlines for SVG.
///
/// Glyphs come from a cairo-ft font over the very face file the text engine shaped with,
/// unhinted (hint style none, hint metrics off), grey anti-aliased, and are placed at the
/// positions the engine gave. They are filled as outlines (`cairo_glyph_path`) rather than
/// shown with `cairo_show_glyphs`: Cairo 1.16's image backend (Debian 12's) puts each shown
/// glyph on a whole pixel, up to half a pixel from where the layout says; outlines keep the
/// fractions (in the browser check, the pixels of text edges that differ from Chromium's by
/// more than 32 fell from about 1 % of the picture to under 0.1 %).
/// Drawings are serialized: one drawing at a time holds `lock` over the faces (`fonts`). A big
/// picture is drawn in horizontal bands at once, one per core, each band the whole scene
/// clipped to its rows; the bands share the faces under `faceLock`.
public enum CairoCanvas {
    /// The faces drawings use, under `lock`: one drawing at a time (FreeType faces are not thread-safe).
    static let lock = Mutex(())
    /// Within a drawing (`lock` held), what the bands of one picture take to use `fonts`.
    static let faceLock = Mutex(())
    nonisolated(unsafe) static let fonts = FontFaces()

    /// Lets go of what drawings hold of the uploaded font `fontID` (once it is deleted): its
    /// faces' bytes are freed when cairo's caches drop them. O(faces opened).
    public static func forget(fontID: String) {
        lock.withLock { _ in fonts.forget(fontID: fontID) }
    }

    /// The faces drawings hold open of the uploaded font `fontID` (for tests). O(faces opened).
    public static func facesOpen(fontID: String) -> Int {
        lock.withLock { _ in fonts.faces.keys.filter { $0.face.fontID == fontID }.count }
    }

    /// The largest scale `png` takes (pixels per point).
    public static let maxScale = 3

    /// `scene` as a PNG of `scene.width × scale` by `scene.height × scale` pixels (rounded
    /// up), written by `PNGEncoder`; nil when Cairo cannot make the surface (out of memory).
    /// `bands`: how many horizontal bands are drawn at once (by default one per core for a
    /// picture of at least `bandMinimum` pixels, else one; one for a scene with colour
    /// glyphs); the pixels are the same for any.
    ///
    /// - Complexity: O(pixels + items + glyphs × bands).
    public static func png(_ scene: Scene, scale: Int, bands: Int? = nil) -> [UInt8]? {
        png(scene, scale: scale, bands: bands, compositor: .pixman)
    }

    /// Who composites a glyph's cached mask on the picture: pixman directly where it can
    /// (`PixmanTarget`), or Cairo always (`cairo_mask_surface`). The pixels are the same.
    enum GlyphCompositor {
        case pixman, cairo
    }

    /// `png(_:scale:bands:)` with glyph masks composited by `compositor`.
    static func png(_ scene: Scene, scale: Int, bands: Int?, compositor: GlyphCompositor) -> [UInt8]? {
        let width = Int32(max(1, (scene.width * Double(scale)).rounded(.up)))
        let height = Int32(max(1, (scene.height * Double(scale)).rounded(.up)))
        let stride = cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, width)
        guard stride > 0 else { return nil }
        // The pixels live in kept scratch memory (`Scratch`), painted over whole first.
        return Scratch.withBytes(Int(stride) * Int(height)) { data -> [UInt8]? in
            let wanted = max(1, min(bands ?? (Int(width) * Int(height) >= bandMinimum ? PNGEncoder.cores : 1), Int(height)))
            let drawn = lock.withLock { _ -> Bool in
                // A colour glyph is a scaled image, whose sampling pixman rounds differently
                // once a band's offset is in its transform: such a scene is drawn whole.
                let bands = wanted > 1 && hasColourGlyphs(scene.items) ? 1 : wanted
                var drawn = [Bool](repeating: false, count: bands)
                drawn.withUnsafeMutableBufferPointer { drawn in
                    // Each band writes only its own rows and its own slot of `drawn`.
                    nonisolated(unsafe) let drawn = drawn, data = data
                    DispatchQueue.concurrentPerform(iterations: bands) { band in
                        let top = band * Int(height) / bands, bottom = (band + 1) * Int(height) / bands
                        drawn[band] = drawBand(scene, scale: scale, into: data + top * Int(stride), width: width,
                                               rows: top..<bottom, stride: stride, compositor: compositor)
                    }
                }
                return drawn.allSatisfy { $0 }
            }
            guard drawn else { return nil }
            return PNGEncoder.encode(data, width: Int(width), height: Int(height), stride: Int(stride),
                                     opaque: scene.background.alpha == 255)
        }
    }

    /// Whether any of `items` draws a glyph of a colour bitmap face. Under `lock`. O(items).
    private static func hasColourGlyphs(_ items: [SceneItem]) -> Bool {
        items.contains { item in
            switch item {
            case .glyphs(let run): fonts.isBitmap(run.face)
            case .group(_, _, _, let items): hasColourGlyphs(items)
            case .rect, .circle: false
            }
        }
    }

    /// The fewest pixels drawn in bands at once by default (a 375 × 700 screen at scale 1).
    public static let bandMinimum = 1 << 18

    /// Draws the rows `rows` of `scene`'s picture into `pixels` (the first of those rows):
    /// the surface's device offset moves the picture up by the band's top, so every item
    /// lands on the same pixels as in one piece, and Cairo clips what falls outside.
    /// False when Cairo cannot make the surface. O(band pixels + items + glyphs).
    private static func drawBand(_ scene: Scene, scale: Int, into pixels: UnsafeMutablePointer<UInt8>, width: Int32,
                                 rows: Range<Int>, stride: Int32, compositor: GlyphCompositor) -> Bool {
        guard let surface = cairo_image_surface_create_for_data(pixels, CAIRO_FORMAT_ARGB32, width, Int32(rows.count), stride) else { return false }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let cr = cairo_create(surface) else { return false }
        defer { cairo_destroy(cr) }
        cairo_surface_set_device_offset(surface, 0, Double(-rows.lowerBound))
        cairo_scale(cr, Double(scale), Double(scale))
        set(cr, scene.background)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_paint(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        for item in scene.items { draw(item, cr, fonts, compositor) }
        cairo_surface_flush(surface)
        return true
    }

    /// The outline of each glyph of `runs` (by face, size and glyph id), as SVG path data in
    /// points relative to the glyph's origin (y down), taken from the same cairo-ft font the
    /// PNG draws with. A glyph without outline (a space) maps to "".
    ///
    /// - Complexity: O(distinct glyphs × their outline's points).
    public static func outlines(of runs: [GlyphRun]) -> [GlyphKey: String] {
        var out: [GlyphKey: String] = [:]
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1) else { return out }
        defer { cairo_surface_destroy(surface) }
        guard let cr = cairo_create(surface) else { return out }
        defer { cairo_destroy(cr) }
        lock.withLock { _ in
            for run in runs where !fonts.isBitmap(run.face) {
                guard fonts.select(run.face, size: run.size, synthesis: run.synthesis, on: cr) else { continue }
                for glyph in run.glyphs {
                    let key = GlyphKey(face: run.face, size: run.size, synthesis: run.synthesis, id: glyph.id)
                    guard out[key] == nil else { continue }
                    cairo_new_path(cr)
                    var g = cairo_glyph_t(index: UInt(glyph.id), x: 0, y: 0)
                    cairo_glyph_path(cr, &g, 1)
                    out[key] = pathData(cr)
                    cairo_new_path(cr)
                }
            }
        }
        return out
    }

    /// The picture of each glyph of `runs` in a color bitmap face (emoji), by face, size
    /// and glyph id: a PNG of the glyph's strike bitmap and the box it is drawn in, in points
    /// relative to the glyph's origin (y down). Glyphs of outline faces are left out.
    ///
    /// - Complexity: O(distinct bitmap glyphs × their pixels).
    public static func bitmaps(of runs: [GlyphRun]) -> [GlyphKey: GlyphBitmap] {
        var out: [GlyphKey: GlyphBitmap] = [:]
        lock.withLock { _ in
            for run in runs where fonts.isBitmap(run.face) {
                for glyph in run.glyphs {
                    let key = GlyphKey(face: run.face, size: run.size, synthesis: run.synthesis, id: glyph.id)
                    guard out[key] == nil, let strike = fonts.strike(run.face, glyph: glyph.id), strike.width > 0 else { continue }
                    let png = strike.pixels.withUnsafeBytes {
                        PNGEncoder.encode($0.baseAddress!, width: strike.width, height: strike.height, stride: strike.width * 4)
                    }
                    let scale = run.size / strike.ppem
                    out[key] = GlyphBitmap(png: png, x: strike.left * scale, y: -strike.top * scale,
                                           width: Double(strike.width) * scale, height: Double(strike.height) * scale)
                }
            }
        }
        return out
    }

    /// A color glyph's picture (`bitmaps`): PNG bytes, and where they are drawn from the glyph's origin.
    public struct GlyphBitmap: Sendable {
        public var png: [UInt8]
        public var x: Double
        public var y: Double
        public var width: Double
        public var height: Double
    }

    /// What names one glyph outline.
    public struct GlyphKey: Hashable, Sendable {
        public var face: FontFace
        public var size: Double
        public var synthesis: FontSynthesis
        public var id: UInt32

        public init(face: FontFace, size: Double, synthesis: FontSynthesis = [], id: UInt32) {
            self.face = face
            self.size = size
            self.synthesis = synthesis
            self.id = id
        }
    }

    private static func pathData(_ cr: OpaquePointer) -> String {
        guard let path = cairo_copy_path(cr) else { return "" }
        defer { cairo_path_destroy(path) }
        var d = ""
        var i = 0
        let count = Int(path.pointee.num_data)
        while i < count {
            let header = path.pointee.data[i].header
            func point(_ k: Int) -> String {
                let p = path.pointee.data[i + k].point
                return "\(number(p.x)) \(number(p.y))"
            }
            switch header.type {
            case CAIRO_PATH_MOVE_TO: d += "M\(point(1))"
            case CAIRO_PATH_LINE_TO: d += "L\(point(1))"
            case CAIRO_PATH_CURVE_TO: d += "C\(point(1)) \(point(2)) \(point(3))"
            case CAIRO_PATH_CLOSE_PATH: d += "Z"
            default: break
            }
            i += Int(header.length)
        }
        return d
    }

    /// A number with at most 3 decimals and no trailing zeros.
    static func number(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        if rounded == rounded.rounded() && abs(rounded) < 1e15 { return String(Int64(rounded)) }
        return "\(rounded)"
    }

    private static func set(_ cr: OpaquePointer, _ color: RGBA) {
        cairo_set_source_rgba(cr, Double(color.red) / 255, Double(color.green) / 255, Double(color.blue) / 255, Double(color.alpha) / 255)
    }

    private static func roundedRect(_ cr: OpaquePointer, _ rect: Rect, _ radius: Double) {
        let r = Scene.clampedRadius(radius, rect)
        guard r > 0 else {
            cairo_rectangle(cr, rect.minX, rect.minY, rect.size.width, rect.size.height)
            return
        }
        cairo_new_sub_path(cr)
        cairo_arc(cr, rect.maxX - r, rect.minY + r, r, -Double.pi / 2, 0)
        cairo_arc(cr, rect.maxX - r, rect.maxY - r, r, 0, Double.pi / 2)
        cairo_arc(cr, rect.minX + r, rect.maxY - r, r, Double.pi / 2, Double.pi)
        cairo_arc(cr, rect.minX + r, rect.minY + r, r, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(cr)
    }

    /// Draws `run`'s glyphs in `cr`'s source colour as cached coverage masks (`FontFaces.mask`):
    /// each glyph's device position is rounded to the nearest 1/32 pixel along each axis (at
    /// most 1/64 pixel from where the layout says: an edge's coverage moves by at most 4 of
    /// 255 levels, where Skia's quarter pixels move it by up to 32), and the mask for that
    /// offset is composited at the whole pixel. `matrix` is `cr`'s, an even scale and a translation.
    ///
    /// - Complexity: O(glyphs × mask pixels); a glyph not seen before at its face, size and
    ///   offset is filled once as an outline.
    private static func drawMasks(_ run: GlyphRun, _ cr: OpaquePointer, _ fonts: FontFaces, _ matrix: cairo_matrix_t,
                                  _ compositor: GlyphCompositor) {
        let scale = matrix.xx
        let size = run.size * scale
        cairo_identity_matrix(cr)
        defer {
            var restored = matrix
            cairo_set_matrix(cr, &restored)
        }
        // The masks are found (or made) under `faceLock` and held by a reference of their own,
        // so that another band's making of masks can drop them from the cache meanwhile.
        // Two bands may composite one mask at once: cairo built with mutexes (Debian's) wraps
        // an image surface's pixels in a pixman image of its own for each use as a source, and
        // counts its own references atomically.
        enum Placed {
            case mask(OpaquePointer, x: Int, y: Int)
            case outline(cairo_glyph_t)
        }
        var placed: [Placed] = []
        placed.reserveCapacity(run.glyphs.count)
        faceLock.withLock { _ in
            let face = fonts.number(of: run.face)
            for glyph in run.glyphs {
                let x = ((run.origin.x + glyph.x) * scale + matrix.x0) * Double(FontFaces.steps), y = ((run.origin.y + glyph.y) * scale + matrix.y0) * Double(FontFaces.steps)
                guard x.isFinite, y.isFinite, abs(x) < 1e9, abs(y) < 1e9 else { continue }
                let qx = Int(x.rounded()), qy = Int(y.rounded())
                let px = qx >> FontFaces.stepBits, py = qy >> FontFaces.stepBits  // floor division: the whole pixel
                let key = FontFaces.MaskKey(face: face, size: size, synthesis: run.synthesis, glyph: glyph.id,
                                            stepX: UInt8(qx & (FontFaces.steps - 1)), stepY: UInt8(qy & (FontFaces.steps - 1)))
                guard let mask = fonts.mask(key) else { continue }
                if let surface = mask.surface {
                    placed.append(.mask(cairo_surface_reference(surface), x: px + mask.left, y: py + mask.top))
                } else if mask.oversized {
                    placed.append(.outline(cairo_glyph_t(index: UInt(glyph.id), x: x / Double(FontFaces.steps), y: y / Double(FontFaces.steps))))
                }
            }
        }
        let target = compositor == .pixman ? PixmanTarget(cr, color: run.color) : nil
        defer { target?.finish() }
        for glyph in placed {
            switch glyph {
            case .mask(let surface, let x, let y):
                if let target {
                    target.composite(surface, x: x, y: y)
                } else {
                    cairo_mask_surface(cr, surface, Double(x), Double(y))
                }
                cairo_surface_destroy(surface)
            case .outline(var one):
                // Too big to keep: its outline filled where it is, clipped to the picture.
                target?.finish()
                faceLock.withLock { _ in
                    guard fonts.select(run.face, size: size, synthesis: run.synthesis, on: cr) else { return }
                    cairo_new_path(cr)
                    cairo_glyph_path(cr, &one, 1)
                    cairo_fill(cr)
                }
            }
        }
    }

    private static func draw(_ item: SceneItem, _ cr: OpaquePointer, _ fonts: FontFaces, _ compositor: GlyphCompositor) {
        switch item {
        case .rect(let rect, let radius, let fill, let stroke, _):
            if let fill {
                roundedRect(cr, rect, radius)
                set(cr, fill)
                cairo_fill(cr)
            }
            if let stroke, stroke.width > 0 {
                roundedRect(cr, rect, radius)
                set(cr, stroke.color)
                cairo_set_line_width(cr, stroke.width)
                stroke.dash.withUnsafeBufferPointer { cairo_set_dash(cr, $0.baseAddress, Int32($0.count), 0) }
                cairo_stroke(cr)
                cairo_set_dash(cr, nil, 0, 0)
            }
        case .circle(let center, let radius, let fill, _):
            cairo_new_path(cr)
            cairo_arc(cr, center.x, center.y, radius, 0, 2 * Double.pi)
            set(cr, fill)
            cairo_fill(cr)
        case .glyphs(let run) where faceLock.withLock({ _ in fonts.isBitmap(run.face) }):
            // A color bitmap glyph (emoji): its strike scaled to the size, as Skia draws it. Cairo's
            // GOOD filter (a box filter when shrinking) lands every pixel within 8 levels of
            // Chromium's mipmapped drawing of the same strike.
            for glyph in run.glyphs {
                guard let strike = faceLock.withLock({ _ in fonts.strike(run.face, glyph: glyph.id) }), strike.width > 0 else { continue }
                let scale = run.size / strike.ppem
                var pixels = strike.pixels
                pixels.withUnsafeMutableBytes { bytes in
                    let data = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
                    guard let image = cairo_image_surface_create_for_data(data, CAIRO_FORMAT_ARGB32, Int32(strike.width), Int32(strike.height),
                                                                          Int32(strike.width * 4)) else { return }
                    defer { cairo_surface_destroy(image) }
                    cairo_save(cr)
                    cairo_translate(cr, run.origin.x + glyph.x + strike.left * scale, run.origin.y + glyph.y - strike.top * scale)
                    cairo_scale(cr, scale, scale)
                    cairo_set_source_surface(cr, image, 0, 0)
                    cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
                    cairo_paint(cr)
                    cairo_restore(cr)
                }
            }
        case .glyphs(let run):
            set(cr, run.color)
            var matrix = cairo_matrix_t()
            cairo_get_matrix(cr, &matrix)
            // Scenes only translate and scale evenly: then each glyph is a cached mask.
            if matrix.xy == 0, matrix.yx == 0, matrix.xx == matrix.yy, matrix.xx > 0 {
                drawMasks(run, cr, fonts, matrix, compositor)
                return
            }
            var glyphs = run.glyphs.map { cairo_glyph_t(index: UInt($0.id), x: run.origin.x + $0.x, y: run.origin.y + $0.y) }
            faceLock.withLock { _ in
                guard fonts.select(run.face, size: run.size, synthesis: run.synthesis, on: cr) else { return }
                cairo_new_path(cr)
                cairo_glyph_path(cr, &glyphs, Int32(glyphs.count))
                cairo_fill(cr)
            }
        case .group(_, let offset, let clip, let items):
            cairo_save(cr)
            cairo_translate(cr, offset.x, offset.y)
            if let clip {
                roundedRect(cr, clip.rect, clip.radius)
                cairo_clip(cr)
            }
            for item in items { draw(item, cr, fonts, compositor) }
            cairo_restore(cr)
        }
    }
}

/// The cairo-ft faces drawings use, each over a FreeType face of its own, opened once per
/// face of the catalog (and once more with synthesized bold) and kept until its font is
/// deleted (`forget`). A cairo face owns its FreeType face and the font's source (the bytes of
/// an uploaded font): both go when cairo drops the face, which its caches may do after
/// `forget` (cairo keeps a bounded number of recently used fonts). Used only under
/// `CairoCanvas.lock`: every drawing holds it throughout, so cairo drops faces under it too.
final class FontFaces {
    var library: FT_Library?
    var faces: [Key: OpaquePointer] = [:]
    let options: OpaquePointer? = {
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        return options
    }()

    struct Key: Hashable {
        var face: FontFace
        var bold: Bool
    }

    /// What a cairo face owns (its user data under `ownedKey`).
    final class Owned {
        let face: FT_Face
        let source: FontSource
        init(face: FT_Face, source: FontSource) {
            self.face = face
            self.source = source
        }
    }

    nonisolated(unsafe) static var ownedKey = cairo_user_data_key_t()

    /// What names a glyph's coverage mask: the glyph at a device size (points × scale), with
    /// its origin `stepX`/`stepY` steps (1/`steps` of a pixel) right of and below a whole pixel.
    struct MaskKey: Hashable {
        /// The face's number (`number(of:)`): hashing a number, not the face's names and
        /// source, for every glyph drawn.
        var face: Int
        var size: Double
        var synthesis: FontSynthesis
        var glyph: UInt32
        var stepX: UInt8
        var stepY: UInt8
    }

    /// The steps of a pixel glyph origins are rounded to, along each axis: 32.
    static let stepBits = 5, steps = 1 << stepBits

    /// A glyph's coverage (an A8 surface; nil for a glyph without outline, such as a space,
    /// or one whose mask would pass `largestMask`: `oversized`, drawn as an outline) and
    /// where its top left sits from the whole pixel of the glyph's origin.
    struct Mask {
        var surface: OpaquePointer?
        var left: Int
        var top: Int
        var oversized = false
        var bytes = 0
    }

    /// The masks made so far, at most `maskLimit` of them and `maskByteLimit` bytes of
    /// coverage (all dropped when full: a screen's text uses a few hundred, of a few hundred
    /// bytes each).
    private var masks: [MaskKey: Mask] = [:]
    /// Each face drawn so far, numbered in the order first drawn (`MaskKey.face`); a number
    /// is never reused, even once its font is deleted.
    private var faceNumbers: [FontFace: Int] = [:]
    private var numberedFaces: [FontFace] = []

    /// The number of `face` in `MaskKey`. O(1) amortized.
    func number(of face: FontFace) -> Int {
        if let known = faceNumbers[face] { return known }
        faceNumbers[face] = numberedFaces.count
        numberedFaces.append(face)
        return numberedFaces.count - 1
    }
    private var maskBytes = 0
    static let maskLimit = 8192, maskByteLimit = 32 << 20
    /// The most pixels one mask covers (a glyph about 500 pixels square).
    static let largestMask = 1 << 18
    /// A context on a 1 × 1 surface, where glyph outlines are made and measured.
    private var scratch: OpaquePointer?

    /// The mask of `key`, filled from the glyph's outline (as `cairo_glyph_path` gives it, the
    /// way the PNG drew glyphs before masks: the same pixels) the first time; nil when the
    /// face cannot be opened. O(1) when cached, else O(outline + mask pixels).
    func mask(_ key: MaskKey) -> Mask? {
        if let known = masks[key] { return known }
        if scratch == nil, let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1) {
            scratch = cairo_create(surface)
            cairo_surface_destroy(surface)
        }
        guard let scratch, numberedFaces.indices.contains(key.face),
              select(numberedFaces[key.face], size: key.size, synthesis: key.synthesis, on: scratch) else { return nil }
        var glyph = cairo_glyph_t(index: UInt(key.glyph), x: Double(key.stepX) / Double(Self.steps), y: Double(key.stepY) / Double(Self.steps))
        cairo_new_path(scratch)
        cairo_glyph_path(scratch, &glyph, 1)
        var x1 = 0.0, y1 = 0.0, x2 = 0.0, y2 = 0.0
        cairo_path_extents(scratch, &x1, &y1, &x2, &y2)
        var mask = Mask(surface: nil, left: 0, top: 0)
        var bytes = 0
        if x2 > x1, y2 > y1 {
            let left = Int((x1 - 1).rounded(.down)), top = Int((y1 - 1).rounded(.down))
            let width = Int((x2 + 1).rounded(.up)) - left, height = Int((y2 + 1).rounded(.up)) - top
            if (x2 - x1 + 3) * (y2 - y1 + 3) > Double(Self.largestMask) {
                mask.oversized = true
            } else if let path = cairo_copy_path(scratch) {
                defer { cairo_path_destroy(path) }
                let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(width), Int32(height))
                if cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let cr = cairo_create(surface) {
                    cairo_translate(cr, Double(-left), Double(-top))
                    cairo_append_path(cr, path)
                    cairo_fill(cr)
                    cairo_destroy(cr)
                    cairo_surface_flush(surface)
                    bytes = width * height
                    mask = Mask(surface: surface, left: left, top: top, bytes: bytes)
                } else {
                    cairo_surface_destroy(surface)
                }
            }
        }
        cairo_new_path(scratch)
        if masks.count >= Self.maskLimit || maskBytes + bytes > Self.maskByteLimit {
            dropMasks { _ in true }
        }
        maskBytes += bytes
        masks[key] = mask
        return mask
    }

    private func dropMasks(where drop: (MaskKey) -> Bool) {
        for (key, mask) in masks where drop(key) {
            cairo_surface_destroy(mask.surface)
            maskBytes -= mask.bytes
            masks.removeValue(forKey: key)
        }
    }

    /// Lets go of the faces of the font in memory `fontID`. O(faces opened).
    func forget(fontID: String) {
        dropMasks { numberedFaces[$0.face].fontID == fontID }
        for key in faces.keys where key.face.fontID == fontID {
            cairo_font_face_destroy(faces.removeValue(forKey: key))
        }
        for face in bitmapFaces.keys where face.fontID == fontID {
            if let ft = bitmapFaces.removeValue(forKey: face) ?? nil { FT_Done_Face(ft) }
        }
        strikes = strikes.filter { $0.key.face.fontID != fontID }
    }

    /// A color glyph as its face's largest strike has it: premultiplied BGRA pixels (cairo's
    /// ARGB32 on a little-endian machine, as FreeType's BGRA bitmaps are), its size, where its
    /// top left sits from the origin in strike pixels (x right, y up) and the strike's ppem.
    struct Strike {
        var pixels: [UInt32]
        var width: Int
        var height: Int
        var left: Double
        var top: Double
        var ppem: Double
    }

    /// FreeType faces of color bitmap faces (nil: an outline face, or one that cannot be
    /// opened), and the strikes of their glyphs drawn so far (bounded by `strikeLimit`).
    private var bitmapFaces: [FontFace: FT_Face?] = [:]
    private var strikes: [StrikeKey: Strike] = [:]
    private struct StrikeKey: Hashable {
        var face: FontFace
        var glyph: UInt32
    }
    /// The most glyph strikes kept (an emoji strike is about 70 KB).
    static let strikeLimit = 512

    /// Whether `face` is a color bitmap face (no outlines: its glyphs are drawn as images).
    /// O(1) once opened.
    func isBitmap(_ face: FontFace) -> Bool { bitmapFace(face) != nil }

    private func bitmapFace(_ face: FontFace) -> FT_Face? {
        if let known = bitmapFaces[face] { return known }
        var opened: FT_Face?
        if library == nil {
            var made: FT_Library?
            if FT_Init_FreeType(&made) == 0 { library = made }
        }
        if let library, case .success(let ft) = face.source.open(library, index: face.index) {
            if ft.pointee.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) == 0 && ft.pointee.num_fixed_sizes > 0 {
                var best: FT_Int = 0
                for i in 0..<Int(ft.pointee.num_fixed_sizes) where ft.pointee.available_sizes[i].y_ppem > ft.pointee.available_sizes[Int(best)].y_ppem {
                    best = FT_Int(i)
                }
                if FT_Select_Size(ft, best) == 0 { opened = ft } else { FT_Done_Face(ft) }
            } else {
                FT_Done_Face(ft)
            }
        }
        bitmapFaces[face] = .some(opened)
        return opened
    }

    /// Glyph `glyph` of the color bitmap face `face`, loaded in color. O(pixels) the first time.
    func strike(_ face: FontFace, glyph: UInt32) -> Strike? {
        let key = StrikeKey(face: face, glyph: glyph)
        if let known = strikes[key] { return known }
        guard let ft = bitmapFace(face), FT_Load_Glyph(ft, glyph, Int32(FT_LOAD_COLOR)) == 0 else { return nil }
        let slot = ft.pointee.glyph.pointee
        let bitmap = slot.bitmap
        let width = Int(bitmap.width), height = Int(bitmap.rows)
        var pixels = [UInt32](repeating: 0, count: width * height)
        if bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_BGRA.rawValue), let buffer = bitmap.buffer {
            for y in 0..<height {
                let row = buffer + y * Int(bitmap.pitch)
                for x in 0..<width {
                    let p = row + 4 * x
                    pixels[y * width + x] = UInt32(p[0]) | UInt32(p[1]) << 8 | UInt32(p[2]) << 16 | UInt32(p[3]) << 24
                }
            }
        }
        let strike = Strike(pixels: pixels, width: width, height: height, left: Double(slot.bitmap_left), top: Double(slot.bitmap_top),
                            ppem: Double(ft.pointee.size.pointee.metrics.y_ppem))
        if strikes.count >= Self.strikeLimit { strikes.removeAll() }
        strikes[key] = strike
        return strike
    }

    /// Sets `face` at `size` as `cr`'s font, with `synthesis` (cairo-ft's bold, FreeType's
    /// `FT_GlyphSlot_Embolden`; the slant as the font matrix's skew); false when its file
    /// cannot be opened.
    func select(_ face: FontFace, size: Double, synthesis: FontSynthesis, on cr: OpaquePointer) -> Bool {
        let key = Key(face: face, bold: synthesis.contains(.bold))
        if faces[key] == nil {
            if library == nil {
                var made: FT_Library?
                guard FT_Init_FreeType(&made) == 0 else { return false }
                library = made
            }
            guard let library, case .success(let ft) = face.source.open(library, index: face.index) else { return false }
            guard let cairoFace = cairo_ft_font_face_create_for_ft_face(ft, Int32(FT_LOAD_NO_HINTING)),
                  cairo_font_face_status(cairoFace) == CAIRO_STATUS_SUCCESS else {
                FT_Done_Face(ft)
                return false
            }
            // The FreeType face, and the source its bytes come from, live as long as the cairo face.
            let owned = Unmanaged.passRetained(Owned(face: ft, source: face.source)).toOpaque()
            guard cairo_font_face_set_user_data(cairoFace, &FontFaces.ownedKey, owned, { pointer in
                guard let pointer else { return }
                let owned = Unmanaged<Owned>.fromOpaque(pointer).takeRetainedValue()
                FT_Done_Face(owned.face)
            }) == CAIRO_STATUS_SUCCESS else {
                Unmanaged<Owned>.fromOpaque(owned).release()
                cairo_font_face_destroy(cairoFace)
                FT_Done_Face(ft)
                return false
            }
            if key.bold { cairo_ft_font_face_set_synthesize(cairoFace, UInt32(CAIRO_FT_SYNTHESIZE_BOLD.rawValue)) }
            faces[key] = cairoFace
        }
        guard let cairoFace = faces[key] else { return false }
        cairo_set_font_face(cr, cairoFace)
        var matrix = cairo_matrix_t()
        let skew = synthesis.contains(.oblique) ? -FontSynthesis.obliqueSkew * size : 0
        cairo_matrix_init(&matrix, size, 0, skew, size, 0, 0)
        cairo_set_font_matrix(cr, &matrix)
        cairo_set_font_options(cr, options)
        return true
    }
}
