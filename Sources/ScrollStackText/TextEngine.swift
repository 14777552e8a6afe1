import CFreeType
import ScrollStackCore
import Synchronization

/// Measures text as Chromium lays it out (Docs/Semantics.md, "Text"): fonts from a
/// `FontCatalog`, shaping with HarfBuzz, advances from FreeType, line breaking with ICU.
///
/// Paragraphs are shaped once per (paragraph, face, size, letter spacing) and kept in a
/// first-in-first-out cache of `shapeCacheCapacity` paragraphs, so re-measuring a stack at
/// another width only re-breaks lines. One lock guards the fonts and the cache: measuring
/// is serialized across threads.
///
/// - Complexity: `lines` is O(n) for n UTF-16 units when its paragraphs are cached (hash and
///   break), plus shaping (HarfBuzz, about O(n)) when they are not.
public final class TextEngine: TextMeasuring {
    public let catalog: FontCatalog
    /// The most (face, size) pairs kept set up at once.
    static let fontCapacity = 256
    /// The most paragraphs kept shaped.
    public let shapeCacheCapacity: Int
    private let state: Mutex<State>

    /// The default capacity holds every paragraph of a 100,000-row stack of one-paragraph
    /// rows (at a few hundred bytes each, some tens of MB).
    public init(catalog: FontCatalog, shapeCacheCapacity: Int = 131_072) {
        self.catalog = catalog
        self.shapeCacheCapacity = max(1, shapeCacheCapacity)
        state = Mutex(State())
    }

    public func unavailable(_ font: FontRequest) -> String? {
        guard catalog.faces(of: font.family) == nil else { return nil }
        let known = (catalog.allFamilies.map(\.family) + FontCatalog.aliases.keys.filter { catalog.faces(of: $0) != nil }).map { "\"\($0)\"" }
        return "no font family \"\(font.family)\"; available: \(known.joined(separator: ", "))"
    }

    public func lines(of text: TextContent, width: Double?) -> TextLines {
        let paragraphs = Self.paragraphs(text.text)
        let capacity = shapeCacheCapacity
        return state.withLock { state in
            guard let font = state.font(for: text.font, in: catalog) else { return TextLines(lineHeight: 0, widths: []) }
            let lineHeight = text.lineHeight.map(LayoutUnit.given) ?? font.normalLineHeight
            var widths: [Double] = []
            for paragraph in paragraphs {
                let key = ShapeKey(text: paragraph, font: ObjectIdentifier(font), letterSpacing: text.letterSpacing,
                                   accurateEnd: text.alignment != .start)
                let shaped = state.shaped(key, font: font, capacity: capacity)
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

/// What a shaped paragraph depends on.
struct ShapeKey: Hashable {
    var text: String
    /// The `SizedFont` (face and size); fonts are never dropped, so the identity is stable.
    var font: ObjectIdentifier
    var letterSpacing: Double
    /// Lines ending at spaces are reshaped at their end (centred and end-aligned text).
    var accurateEnd: Bool
}

extension TextEngine {
    /// The fonts and the cache, used under the engine's lock.
    struct State: ~Copyable {
        let library = FreeTypeLibrary()
        let breaker = LineBreaker()
        var fonts: [SizedFontKey: SizedFont] = [:]
        /// The sized font each request resolved to (CSS matching done once per request).
        var resolved: [FontRequest: SizedFont] = [:]
        var cache: [ShapeKey: ShapedParagraph] = [:]
        /// Cached keys, oldest first from `oldest` (a ring once full).
        var order: [ShapeKey] = []
        var oldest = 0

        init() {}

        struct SizedFontKey: Hashable {
            var face: FontFace
            var size: Double
        }

        /// The sized font `request` matches in `catalog`, or nil for an unknown family.
        mutating func font(for request: FontRequest, in catalog: FontCatalog) -> SizedFont? {
            if let known = resolved[request] { return known }
            guard let face = catalog.match(request), let made = font(face, size: request.size) else { return nil }
            resolved[request] = made
            return made
        }

        /// The face at `size`, made on first use and kept; past `fontCapacity` sized fonts
        /// (sizes are free-form), every font and the cache start over (cache keys name fonts
        /// by identity, so they go with them).
        mutating func font(_ face: FontFace, size: Double) -> SizedFont? {
            let key = SizedFontKey(face: face, size: size)
            if let known = fonts[key] { return known }
            if fonts.count >= TextEngine.fontCapacity {
                fonts.removeAll()
                resolved.removeAll()
                cache.removeAll()
                order.removeAll()
                oldest = 0
            }
            guard let made = SizedFont(face: face, size: size, library: library) else { return nil }
            fonts[key] = made
            return made
        }

        /// The shaped paragraph for `key`, from the cache or shaped now (evicting the oldest
        /// entry when `capacity` are held). O(1) besides hashing and shaping.
        mutating func shaped(_ key: ShapeKey, font: SizedFont, capacity: Int) -> ShapedParagraph {
            if let known = cache[key] { return known }
            let shaped = Shaper.shape(key.text, font: font, letterSpacing: key.letterSpacing, accurateEnd: key.accurateEnd, breaker: breaker)
            if order.count < capacity {
                order.append(key)
            } else {
                cache[order[oldest]] = nil
                order[oldest] = key
                oldest = (oldest + 1) % capacity
            }
            cache[key] = shaped
            return shaped
        }
    }
}
