import CFreeType
import ScrollStackCore
import Synchronization

/// Measures text as Chromium lays it out (Docs/Semantics.md, "Text"): fonts from a
/// `FontCatalog`, shaping with HarfBuzz, advances from FreeType, line breaking with ICU.
///
/// Paragraphs are shaped once per (paragraph, face, size, letter spacing) and kept in a cache
/// bounded by bytes (`shapeCacheBytes`, CLOCK eviction: `ByteBoundedCache`), so re-measuring a
/// stack at another width only re-breaks lines. Sized fonts (a face at one size) are kept in a
/// cache of their own, bounded by bytes too (`fontCacheBytes`); a shaped paragraph names its
/// font by face and size, not by the font object, so many sizes passing through the font cache
/// leave the shaped text in place (a cached paragraph needs no font: its line height is kept
/// apart). One lock guards the fonts and the caches: measuring is serialized across threads.
///
/// - Complexity: `lines` is O(n) for n UTF-16 units when its paragraphs are cached (hash and
///   break), plus shaping (HarfBuzz, about O(n)) when they are not, plus setting the font up
///   (FreeType opens the face) when its size is not cached.
public final class TextEngine: TextMeasuring {
    /// The fonts the engine uses now (`setCatalog` changes them).
    public var catalog: FontCatalog { state.withLock { $0.catalog } }
    /// The most bytes the shaped paragraphs kept may take (their estimate,
    /// `ShapedParagraph.estimatedBytes`, plus the key's text and `entryOverhead`).
    public let shapeCacheBytes: Int
    /// The most bytes the sized fonts kept may take (`SizedFont.estimatedBytes` each).
    public let fontCacheBytes: Int
    let state: Mutex<State>

    /// The default shape cache holds every paragraph of a 100,000-row stack of one-paragraph
    /// labels (some 30 MB), and the font cache some hundred sizes of a typical face.
    public static let defaultShapeCacheBytes = 64 << 20
    public static let defaultFontCacheBytes = 16 << 20

    /// The bytes counted for a cache entry besides its value: the key's text storage, the
    /// dictionary's and the slot array's entries.
    static let entryOverhead = 160

    public init(catalog: FontCatalog, shapeCacheBytes: Int = defaultShapeCacheBytes, fontCacheBytes: Int = defaultFontCacheBytes) {
        self.shapeCacheBytes = max(0, shapeCacheBytes)
        self.fontCacheBytes = max(0, fontCacheBytes)
        state = Mutex(State(catalog: catalog, shapeCacheBytes: self.shapeCacheBytes, fontCacheBytes: self.fontCacheBytes))
    }

    /// Asked, outside the engine's lock, for a family the catalog does not have, before
    /// `unavailable` refuses it: it may bring the catalog up to date (`setCatalog`), as a
    /// replica does when another one has just uploaded the font.
    private let missingFamily = Mutex<(@Sendable (String) -> Void)?>(nil)

    /// Sets what `unavailable` asks before refusing a family (see `missingFamily`).
    public func onMissingFamily(_ handler: @escaping @Sendable (String) -> Void) {
        missingFamily.withLock { $0 = handler }
    }

    /// Measures with `catalog` from now on. Requests already matched are matched again; when
    /// faces are gone, the fonts and shaped paragraphs kept are dropped (they may hold those
    /// faces). Thread-safe: measuring in progress finishes with the catalog it started with.
    /// O(faces) plus emptying the caches.
    public func setCatalog(_ catalog: FontCatalog) {
        state.withLock { state in
            let kept = Set(catalog.allFamilies.flatMap(\.faces))
            let removed = state.catalog.allFamilies.flatMap(\.faces).contains { !kept.contains($0) }
            state.catalog = catalog
            state.resolved.removeAll()
            if removed {
                state.fonts.removeAll()
                state.cache.removeAll()
                state.lineHeights.removeAll()
                state.sharedFaces = state.sharedFaces.filter { kept.contains($0.key) }
            }
        }
    }

    /// What the engine holds and has done, for tests and metrics.
    public struct Statistics: Sendable, Equatable {
        /// Paragraphs shaped (HarfBuzz runs) since the engine was made.
        public var paragraphsShaped: Int
        /// Shaped paragraphs kept, and the bytes they are estimated to take.
        public var cachedParagraphs: Int
        public var shapeCacheBytes: Int
        /// Sized fonts set up since the engine was made; kept now, and their estimated bytes.
        public var fontsMade: Int
        public var cachedFonts: Int
        public var fontCacheBytes: Int
    }

    /// A snapshot of `Statistics`. O(1).
    public var statistics: Statistics {
        state.withLock { state in
            Statistics(paragraphsShaped: state.paragraphsShaped, cachedParagraphs: state.cache.count, shapeCacheBytes: state.cache.bytes,
                       fontsMade: state.fontsMade, cachedFonts: state.fonts.count, fontCacheBytes: state.fonts.bytes)
        }
    }

    public func unavailable(_ font: FontRequest) -> String? {
        guard catalog.faces(of: font.family) == nil else { return nil }
        if let handler = missingFamily.withLock({ $0 }) {
            handler(font.family)
            if catalog.faces(of: font.family) != nil { return nil }
        }
        let catalog = self.catalog
        let known = (catalog.allFamilies.map(\.family) + FontCatalog.aliases.keys.filter { catalog.faces(of: $0) != nil }).map { "\"\($0)\"" }
        return "no font family \"\(font.family)\"; available: \(known.joined(separator: ", "))"
    }

    public func lines(of text: TextContent, width: Double?) -> TextLines {
        let paragraphs = Self.paragraphs(text.text)
        return state.withLock { state in
            guard let fontKey = state.fontKey(for: text.font),
                  let normalLineHeight = state.normalLineHeight(fontKey) else { return TextLines(lineHeight: 0, widths: []) }
            let lineHeight = text.lineHeight.map(LayoutUnit.given) ?? normalLineHeight
            var widths: [Double] = []
            for paragraph in paragraphs {
                let key = ShapeKey(text: paragraph, font: fontKey, letterSpacing: text.letterSpacing,
                                   accurateEnd: text.alignment != .start)
                guard let shaped = state.shaped(key) else { return TextLines(lineHeight: 0, widths: []) }
                widths += shaped.lineWidths(at: width.map { LayoutUnit.given(Swift.max(0, $0)) })
            }
            let widest = widths.max() ?? 0
            if let maxLines = text.maxLines, widths.count > maxLines { widths.removeLast(widths.count - maxLines) }
            return TextLines(lineHeight: lineHeight, widths: widths, widestLine: widest)
        }
    }

    /// `lines(of:width:)` with each line's characters, `truncated`, and the tail ellipsis
    /// when the text asks for one (`TextContent.ellipsis`; "…" without letter spacing, as
    /// Blink shapes it): the last shown line keeps its
    /// longest start (at a cluster boundary, shaped alone) that fits with "…" in the width
    /// (along a horizontal stack, where nothing wraps, in the widest line), and the ellipsis
    /// follows it.
    ///
    /// - Complexity: as `lines`, plus O(n) to map offsets back to the text as given and the
    ///   last line reshaped when cut with an ellipsis.
    public func drawableLines(of text: TextContent, width: Double?) -> TextLines {
        let paragraphs = Self.mappedParagraphs(text.text)
        return state.withLock { state in
            guard let broken = Self.broken(text, width: width, paragraphs, &state) else { return TextLines(lineHeight: 0, widths: []) }
            let ranges = broken.lines.map { paragraphs[$0.paragraph].range($0.start, $0.end) }
            let missing = state.font(broken.font).map { Self.missingGlyphs(in: text.text, font: $0) } ?? []
            return TextLines(lineHeight: broken.lineHeight, widths: broken.lines.map(\.width), widestLine: broken.widest, ranges: ranges,
                             truncated: broken.truncated, ellipsis: broken.ellipsis, missingGlyphs: missing)
        }
    }

    /// The most characters a text reports missing; the rest are left out.
    static let maxMissingGlyphs = 64

    /// The characters of `text` that `font` has no glyph for, each once, in the order they
    /// first appear, at most `maxMissingGlyphs`. White space, controls and default-ignorable
    /// characters (joiners, variation selectors), which draw nothing, are never missing.
    /// O(n log glyphs).
    static func missingGlyphs(in text: String, font: SizedFont) -> [String] {
        var missing: [String] = []
        var seen: Set<Unicode.Scalar> = []
        for scalar in text.unicodeScalars where !seen.contains(scalar) {
            seen.insert(scalar)
            let properties = scalar.properties
            if properties.isWhitespace || properties.isDefaultIgnorableCodePoint || properties.generalCategory == .control { continue }
            if !font.hasGlyph(scalar) {
                missing.append(String(scalar))
                if missing.count == maxMissingGlyphs { break }
            }
        }
        return missing
    }

    /// The lines `drawableLines` answers, by paragraph and UTF-16 offsets in it.
    struct BrokenLines {
        var font: SizedFontKey
        var lineHeight: Double
        var lines: [(paragraph: Int, start: Int, end: Int, width: Double)]
        var widest: Double
        var truncated: Bool
        var ellipsis: TextEllipsis?
    }

    /// `text` broken into lines at `width` (maxLines and the ellipsis applied); nil when its
    /// font cannot be set up.
    static func broken(_ text: TextContent, width: Double?, _ paragraphs: [MappedParagraph], _ state: inout State) -> BrokenLines? {
        guard let fontKey = state.fontKey(for: text.font),
              let normalLineHeight = state.normalLineHeight(fontKey) else { return nil }
        let lineHeight = text.lineHeight.map(LayoutUnit.given) ?? normalLineHeight
        var lines: [(paragraph: Int, start: Int, end: Int, width: Double)] = []
        for (index, paragraph) in paragraphs.enumerated() {
            let key = ShapeKey(text: paragraph.text, font: fontKey, letterSpacing: text.letterSpacing,
                               accurateEnd: text.alignment != .start)
            guard let shaped = state.shaped(key) else { return nil }
            lines += shaped.lineBreaks(at: width.map { LayoutUnit.given(Swift.max(0, $0)) }).map { (index, $0.start, $0.end, $0.width) }
        }
        let widest = lines.map(\.width).max() ?? 0
        var truncated = false
        if let maxLines = text.maxLines, lines.count > maxLines {
            lines.removeLast(lines.count - maxLines)
            truncated = true
        }
        var ellipsis: TextEllipsis?
        if truncated && text.ellipsis, let last = lines.last, let font = state.font(fontKey) {
            let room = width.map { LayoutUnit.given(Swift.max(0, $0)) } ?? widest
            let ellipsisWidth = Shaper.ellipsisWidth(font: font)
            var kept = last
            if last.width + ellipsisWidth > room {
                let units = Array(Array(paragraphs[last.paragraph].text.utf16)[last.start..<last.end])
                let fit = Shaper.fittingPrefix(units, room: room - ellipsisWidth, font: font, letterSpacing: text.letterSpacing)
                kept.end = last.start + fit.length
                kept.width = LayoutUnit.ceil(fit.width)
            }
            ellipsis = TextEllipsis(offset: kept.width, width: LayoutUnit.ceil(ellipsisWidth))
            kept.width = LayoutUnit.ceil(kept.width + ellipsisWidth)
            lines[lines.count - 1] = kept
        }
        return BrokenLines(font: fontKey, lineHeight: lineHeight, lines: lines, widest: widest, truncated: truncated, ellipsis: ellipsis)
    }

    /// The paragraphs of `text` as CSS `white-space: pre-line` has them: `\n` (and `\r\n`,
    /// `\r`) breaks; runs of spaces and tabs collapse to one space; spaces at the start and
    /// end of a paragraph go. A final `\n` starts no new line; text with no `\n` and nothing
    /// but spaces has no line at all. O(n).
    static func paragraphs(_ text: String) -> [String] {
        collapse(text, mapped: false).map(\.text)
    }

    /// `paragraphs`, each able to map its offsets back to `text`. O(n).
    static func mappedParagraphs(_ text: String) -> [MappedParagraph] {
        collapse(text, mapped: true)
    }

    /// A collapsed paragraph and, per UTF-16 unit of it, where that unit is in the text as
    /// given (UTF-16 offset and scalar index; a collapsed space is the first of its run).
    struct MappedParagraph {
        var text: String
        var utf16: [Int] = []
        var scalars: [Int] = []
        /// Where the paragraph starts in the text as given (for an empty one).
        var start: (utf16: Int, scalar: Int)

        /// The range, in the text as given, of the paragraph's units `start..<end`. O(1).
        func range(_ start: Int, _ end: Int) -> TextRange {
            guard end > start, end <= utf16.count else {
                let at = start < utf16.count ? (utf16[start], scalars[start]) : self.start
                return TextRange(utf16: at.0..<at.0, scalars: at.1..<at.1)
            }
            return TextRange(utf16: utf16[start]..<(utf16[end - 1] + 1), scalars: scalars[start]..<(scalars[end - 1] + 1))
        }
    }

    private static func collapse(_ text: String, mapped: Bool) -> [MappedParagraph] {
        var pieces: [MappedParagraph] = []
        var current = MappedParagraph(text: "", start: (0, 0))
        var pendingSpace: (utf16: Int, scalar: Int)?
        var sawBreak = false
        var previousWasCR = false
        var offset = 0, index = 0
        for scalar in text.unicodeScalars {
            defer {
                offset += scalar.utf16.count
                index += 1
            }
            if scalar == "\n" && previousWasCR {
                previousWasCR = false
                current.start = (offset + 1, index + 1)
                continue
            }
            previousWasCR = scalar == "\r"
            switch scalar {
            case "\n", "\r":
                pieces.append(current)
                current = MappedParagraph(text: "", start: (offset + 1, index + 1))
                pendingSpace = nil
                sawBreak = true
            case " ", "\t":
                if pendingSpace == nil && !current.text.isEmpty { pendingSpace = (offset, index) }
            default:
                if let space = pendingSpace {
                    current.text.unicodeScalars.append(" ")
                    if mapped {
                        current.utf16.append(space.utf16)
                        current.scalars.append(space.scalar)
                    }
                }
                pendingSpace = nil
                current.text.unicodeScalars.append(scalar)
                if mapped {
                    for k in 0..<scalar.utf16.count {
                        current.utf16.append(offset + k)
                        current.scalars.append(index)
                    }
                }
            }
        }
        if !current.text.isEmpty || !sawBreak { pieces.append(current) }
        if !sawBreak && pieces.count == 1 && pieces[0].text.isEmpty { return [] }
        return pieces
    }
}

/// A face at a size: what a sized font is made from, and how shaped paragraphs name theirs.
struct SizedFontKey: Hashable {
    var face: FontFace
    var size: Double
}

/// What a shaped paragraph depends on.
struct ShapeKey: Hashable {
    var text: String
    var font: SizedFontKey
    var letterSpacing: Double
    /// Lines ending at spaces are reshaped at their end (centred and end-aligned text).
    var accurateEnd: Bool
}

extension TextEngine {
    /// The fonts and the caches, used under the engine's lock.
    struct State: ~Copyable {
        /// The fonts requests are matched in.
        var catalog: FontCatalog
        let library = FreeTypeLibrary()
        let breaker = LineBreaker()
        var fonts: ByteBoundedCache<SizedFontKey, SizedFont>
        var cache: ByteBoundedCache<ShapeKey, ShapedParagraph>
        /// Each face's HarfBuzz tables, shared by its sizes (at most one per face of the catalog).
        var sharedFaces: [FontFace: SharedFace] = [:]
        /// The face and size each request resolved to (CSS matching done once per request),
        /// and each face and size's normal line height: small memos, emptied when they reach
        /// `memoLimit` entries (sizes are free-form).
        var resolved: [FontRequest: SizedFontKey] = [:]
        var lineHeights: [SizedFontKey: Double] = [:]
        static let memoLimit = 4096
        var paragraphsShaped = 0
        var fontsMade = 0

        init(catalog: FontCatalog, shapeCacheBytes: Int, fontCacheBytes: Int) {
            self.catalog = catalog
            fonts = ByteBoundedCache(capacity: fontCacheBytes)
            cache = ByteBoundedCache(capacity: shapeCacheBytes)
        }

        /// The face and size `request` matches in `catalog`, or nil for an unknown family.
        mutating func fontKey(for request: FontRequest) -> SizedFontKey? {
            if let known = resolved[request] { return known }
            guard let face = catalog.match(request) else { return nil }
            if resolved.count >= Self.memoLimit { resolved.removeAll() }
            let key = SizedFontKey(face: face, size: request.size)
            resolved[request] = key
            return key
        }

        /// The normal line height of `key` (its font set up if not known), or nil when the
        /// font cannot be set up.
        mutating func normalLineHeight(_ key: SizedFontKey) -> Double? {
            if let known = lineHeights[key] { return known }
            return font(key)?.normalLineHeight
        }

        /// The sized font for `key`, from the font cache or set up now (and kept while it fits
        /// in `fontCacheBytes`). Nil when the face's file cannot be read.
        mutating func font(_ key: SizedFontKey) -> SizedFont? {
            if let known = fonts.value(for: key) { return known }
            var shared = sharedFaces[key.face]
            if shared == nil {
                shared = SharedFace(key.face)
                sharedFaces[key.face] = shared
            }
            guard let shared, let made = SizedFont(face: key.face, size: key.size, library: library, shared: shared) else { return nil }
            fontsMade += 1
            fonts.insert(made, for: key, bytes: made.estimatedBytes + TextEngine.entryOverhead)
            if lineHeights.count >= Self.memoLimit { lineHeights.removeAll() }
            lineHeights[key] = made.normalLineHeight
            return made
        }

        /// The shaped paragraph for `key`, from the cache or shaped now (kept while it fits in
        /// the cache's bytes). Nil when its font cannot be set up. O(1) besides hashing,
        /// shaping and eviction (amortized O(1)).
        mutating func shaped(_ key: ShapeKey) -> ShapedParagraph? {
            if let known = cache.value(for: key) { return known }
            guard let font = font(key.font) else { return nil }
            let shaped = Shaper.shape(key.text, font: font, letterSpacing: key.letterSpacing, accurateEnd: key.accurateEnd, breaker: breaker)
            paragraphsShaped += 1
            cache.insert(shaped, for: key, bytes: shaped.estimatedBytes + key.text.utf8.count + TextEngine.entryOverhead)
            return shaped
        }
    }
}
