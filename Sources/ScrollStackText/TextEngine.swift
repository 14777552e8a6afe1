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
    public let catalog: FontCatalog
    /// The most bytes the shaped paragraphs kept may take (their estimate,
    /// `ShapedParagraph.estimatedBytes`, plus the key's text and `entryOverhead`).
    public let shapeCacheBytes: Int
    /// The most bytes the sized fonts kept may take (`SizedFont.estimatedBytes` each).
    public let fontCacheBytes: Int
    private let state: Mutex<State>

    /// The default shape cache holds every paragraph of a 100,000-row stack of one-paragraph
    /// labels (some 30 MB), and the font cache some hundred sizes of a typical face.
    public static let defaultShapeCacheBytes = 64 << 20
    public static let defaultFontCacheBytes = 16 << 20

    /// The bytes counted for a cache entry besides its value: the key's text storage, the
    /// dictionary's and the slot array's entries.
    static let entryOverhead = 160

    public init(catalog: FontCatalog, shapeCacheBytes: Int = defaultShapeCacheBytes, fontCacheBytes: Int = defaultFontCacheBytes) {
        self.catalog = catalog
        self.shapeCacheBytes = max(0, shapeCacheBytes)
        self.fontCacheBytes = max(0, fontCacheBytes)
        state = Mutex(State(shapeCacheBytes: self.shapeCacheBytes, fontCacheBytes: self.fontCacheBytes))
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
        let known = (catalog.allFamilies.map(\.family) + FontCatalog.aliases.keys.filter { catalog.faces(of: $0) != nil }).map { "\"\($0)\"" }
        return "no font family \"\(font.family)\"; available: \(known.joined(separator: ", "))"
    }

    public func lines(of text: TextContent, width: Double?) -> TextLines {
        let paragraphs = Self.paragraphs(text.text)
        return state.withLock { state in
            guard let fontKey = state.fontKey(for: text.font, in: catalog),
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

    /// The paragraphs of `text` as CSS `white-space: pre-line` has them: `\n` (and `\r\n`,
    /// `\r`) breaks; runs of spaces and tabs collapse to one space; spaces at the start and
    /// end of a paragraph go. A final `\n` starts no new line; text with no `\n` and nothing
    /// but spaces has no line at all. O(n).
    static func paragraphs(_ text: String) -> [String] {
        var pieces: [String] = []
        var current = ""
        var pendingSpace = false
        var sawBreak = false
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            if scalar == "\n" && previousWasCR {
                previousWasCR = false
                continue
            }
            previousWasCR = scalar == "\r"
            switch scalar {
            case "\n", "\r":
                pieces.append(current)
                current = ""
                pendingSpace = false
                sawBreak = true
            case " ", "\t":
                pendingSpace = !current.isEmpty
            default:
                if pendingSpace { current.unicodeScalars.append(" ") }
                pendingSpace = false
                current.unicodeScalars.append(scalar)
            }
        }
        if !current.isEmpty || !sawBreak { pieces.append(current) }
        if !sawBreak && pieces == [""] { return [] }
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

        init(shapeCacheBytes: Int, fontCacheBytes: Int) {
            fonts = ByteBoundedCache(capacity: fontCacheBytes)
            cache = ByteBoundedCache(capacity: shapeCacheBytes)
        }

        /// The face and size `request` matches in `catalog`, or nil for an unknown family.
        mutating func fontKey(for request: FontRequest, in catalog: FontCatalog) -> SizedFontKey? {
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
