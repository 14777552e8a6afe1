import CFreeType
import Dispatch
import ScrollStackCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Measures text as Chromium lays it out (Docs/Semantics.md, "Text"): fonts from a
/// `FontCatalog`, shaping with HarfBuzz, advances from FreeType, line breaking with ICU.
///
/// Paragraphs are shaped once per (paragraph, face, size, letter spacing) and kept in a cache
/// bounded by bytes (`shapeCacheBytes`, CLOCK eviction: `ByteBoundedCache`), so re-measuring a
/// stack at another width only re-breaks lines. Sized fonts (a face at one size) are kept in a
/// cache of their own, bounded by bytes too (`fontCacheBytes`); a shaped paragraph names its
/// font by face and size, not by the font object, so many sizes passing through the font cache
/// leave the shaped text in place (a cached paragraph needs no font: its line height is kept
/// apart). The glyphs of paragraphs drawn (`glyphLines`) are kept in a third cache bounded by
/// bytes (`glyphCacheBytes`), so drawing a picture again does not shape its text again.
///
/// The fonts and caches are split into `parallelism` shards, each with its own lock, its
/// own FreeType and HarfBuzz objects (neither is thread-safe) and its share of the caches'
/// bytes. A text always goes to the same shard (by a hash of its characters), so texts of
/// different shards are measured at once, on as many threads; `prepare` shapes a batch of
/// texts ahead, one thread per shard. Every shard measures a text alike: which one did it
/// never changes an answer.
///
/// - Complexity: `lines` is O(n) for n UTF-16 units when its paragraphs are cached (hash and
///   break), plus shaping (HarfBuzz, about O(n)) when they are not, plus setting the font up
///   (FreeType opens the face) when its size is not cached.
public final class TextEngine: TextMeasuring {
    /// The fonts the engine uses now (`setCatalog` changes them).
    public var catalog: FontCatalog { shards[0].state.withLock { $0.catalog } }
    /// The most bytes the shaped paragraphs kept may take (their estimate,
    /// `ShapedParagraph.estimatedBytes`, plus the key's text and `entryOverhead`).
    public let shapeCacheBytes: Int
    /// The most bytes the sized fonts kept may take (`SizedFont.estimatedBytes` each).
    public let fontCacheBytes: Int
    /// The most bytes the drawn paragraphs' glyphs kept may take (each glyph's storage, plus
    /// the key's text and `entryOverhead`).
    public let glyphCacheBytes: Int
    /// The shards: a text's is `shard(for:)`.
    let shards: [Shard]
    /// How many texts `prepare` may shape at once: the shards.
    public var parallelism: Int { shards.count }

    /// The default shape cache holds every paragraph of a 100,000-row stack of one-paragraph
    /// labels (some 30 MB), and the font cache some hundred sizes of a typical face.
    public static let defaultShapeCacheBytes = 64 << 20
    public static let defaultFontCacheBytes = 16 << 20
    /// Some 50,000 drawn paragraphs of a few words: pictures of a few hundred screens.
    public static let defaultGlyphCacheBytes = 16 << 20

    /// The bytes counted for a cache entry besides its value: the key's text storage, the
    /// dictionary's and the slot array's entries.
    static let entryOverhead = 160

    /// The shards a server's engine is given by default: one per core, at most 8.
    public static var defaultShards: Int { Swift.min(8, Swift.max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))) }

    /// An engine of `shards` shards (at least 1), each keeping its share of each cache's
    /// bytes (the whole bytes with one shard).
    public init(catalog: FontCatalog, shapeCacheBytes: Int = defaultShapeCacheBytes, fontCacheBytes: Int = defaultFontCacheBytes,
                glyphCacheBytes: Int = defaultGlyphCacheBytes, shards: Int = 1) {
        self.shapeCacheBytes = max(0, shapeCacheBytes)
        self.fontCacheBytes = max(0, fontCacheBytes)
        self.glyphCacheBytes = max(0, glyphCacheBytes)
        let count = max(1, shards)
        self.shards = (0..<count).map { _ in
            Shard(catalog: catalog, shapeCacheBytes: max(0, shapeCacheBytes) / count, fontCacheBytes: max(0, fontCacheBytes) / count,
                  glyphCacheBytes: max(0, glyphCacheBytes) / count)
        }
    }

    /// One shard's fonts and caches under its lock.
    final class Shard: Sendable {
        let state: Mutex<State>
        /// Its shape cache's bytes.
        let capacity: Int

        init(catalog: FontCatalog, shapeCacheBytes: Int, fontCacheBytes: Int, glyphCacheBytes: Int) {
            state = Mutex(State(catalog: catalog, shapeCacheBytes: shapeCacheBytes, fontCacheBytes: fontCacheBytes,
                                glyphCacheBytes: glyphCacheBytes))
            capacity = shapeCacheBytes
        }
    }

    /// The shard that measures `text`: FNV-1a of its length and its first 64 UTF-8 bytes,
    /// so the same text always meets its own cached shaping. O(1).
    func shard(for text: String) -> Shard {
        guard shards.count > 1 else { return shards[0] }
        return shards[Self.shardIndex(text, of: shards.count)]
    }

    static func shardIndex(_ text: String, of count: Int) -> Int {
        func fnv(_ bytes: some Sequence<UInt8>) -> UInt64 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(text.utf8.count)
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
            return hash
        }
        let hash = text.utf8.withContiguousStorageIfAvailable { fnv($0.prefix(64)) } ?? fnv(text.utf8.prefix(64))
        return Int(hash % UInt64(count))
    }

    /// Whether every paragraph of `text` is in its shard's shape cache (or its font cannot be
    /// set up: nothing to shape). O(n) for hashing.
    func isShaped(_ text: TextContent) -> Bool {
        let paragraphs = Self.paragraphs(text.text)
        return shard(for: text.text).state.withLock { state in
            guard let fontKey = state.fontKey(for: text.font) else { return true }
            var context = ParagraphContext()
            for paragraph in paragraphs {
                let key = ShapeKey(paragraph, of: text, font: fontKey, after: context)
                guard let shaped = state.cache.value(for: key) else { return false }
                context = shaped.endContext
            }
            return true
        }
    }

    /// Texts fewer than this are not worth preparing on other threads.
    static let preparedMinimum = 16

    /// How many texts, spread over a batch, `prepare` looks up first: when every one is
    /// cached, the batch is taken to be measured already and nothing is done ahead.
    static let preparedSample = 8

    /// Shapes the paragraphs of `texts` that are not cached yet, ahead of measuring them:
    /// each shard's texts on a thread of their own (`DispatchQueue.concurrentPerform`), a
    /// shard's lock taken per text. What it shapes is kept marked as used, and a shard stops
    /// once what it shaped for this batch fills half its shape cache, so that the eviction
    /// hand takes older entries before anything shaped ahead is measured (a fresh, unmarked
    /// entry is the first a full sweep would take). Answers are unchanged; only the time
    /// is spent earlier and on more cores. Does nothing with one shard, fewer than
    /// `preparedMinimum` texts, or when `preparedSample` texts spread over the batch are all
    /// cached (a batch measured before: looking every text up twice would cost more than
    /// it saves).
    ///
    /// - Complexity: O(n) for n UTF-16 units in all, plus shaping what is not cached,
    ///   divided among the shards; O(1) besides when the sample is cached.
    public func prepare(_ texts: [TextContent]) {
        guard shards.count > 1, texts.count >= Self.preparedMinimum else { return }
        let step = texts.count / Self.preparedSample
        guard (0..<Self.preparedSample).contains(where: { !isShaped(texts[$0 * step]) }) else { return }
        var grouped = [[Int]](repeating: [], count: shards.count)
        for i in texts.indices { grouped[Self.shardIndex(texts[i].text, of: shards.count)].append(i) }
        let groups = grouped, shards = self.shards
        DispatchQueue.concurrentPerform(iterations: shards.count) { k in
            var added = 0
            for i in groups[k] {
                let text = texts[i]
                let paragraphs = Self.paragraphs(text.text)
                added += shards[k].state.withLock { state -> Int in
                    guard let fontKey = state.fontKey(for: text.font) else { return 0 }
                    var context = ParagraphContext()
                    var bytes = 0
                    for paragraph in paragraphs {
                        let key = ShapeKey(paragraph, of: text, font: fontKey, after: context)
                        let before = state.paragraphsShaped
                        guard let shaped = state.shaped(key, ahead: true) else { return bytes }
                        if state.paragraphsShaped != before { bytes += State.cost(of: shaped, key) }
                        context = shaped.endContext
                    }
                    return bytes
                }
                if added >= shards[k].capacity / 2 { break }
            }
        }
    }

    /// Asked, outside the shards' locks, for a family the catalog does not have, before
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
        // Last shard first: `catalog` (and so `unavailable`) reads the first, so a family
        // added is reported only once every shard can measure it.
        for shard in shards.reversed() {
            shard.state.withLock { state in
                let kept = Set(catalog.allFamilies.flatMap(\.faces))
                let removed = state.catalog.allFamilies.flatMap(\.faces).contains { !kept.contains($0) }
                state.catalog = catalog
                state.resolved.removeAll()
                if removed {
                    state.fonts.removeAll(keepingFacesOf: kept)
                    state.cache.removeAll()
                    state.glyphs.removeAll()
                }
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
        /// Paragraphs shaped for drawing since the engine was made; their glyphs kept now, and
        /// the bytes they take.
        public var paragraphsShapedForDrawing: Int
        public var cachedDrawnParagraphs: Int
        public var glyphCacheBytes: Int
    }

    /// A snapshot of `Statistics`, the shards' added up. O(shards).
    public var statistics: Statistics {
        var total = Statistics(paragraphsShaped: 0, cachedParagraphs: 0, shapeCacheBytes: 0, fontsMade: 0, cachedFonts: 0, fontCacheBytes: 0,
                               paragraphsShapedForDrawing: 0, cachedDrawnParagraphs: 0, glyphCacheBytes: 0)
        for shard in shards {
            shard.state.withLock { state in
                total.paragraphsShaped += state.paragraphsShaped
                total.cachedParagraphs += state.cache.count
                total.shapeCacheBytes += state.cache.bytes
                total.fontsMade += state.fonts.made
                total.cachedFonts += state.fonts.count
                total.fontCacheBytes += state.fonts.bytes
                total.paragraphsShapedForDrawing += state.paragraphsShapedForDrawing
                total.cachedDrawnParagraphs += state.glyphs.count
                total.glyphCacheBytes += state.glyphs.bytes
            }
        }
        return total
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
        return shard(for: text.text).state.withLock { state in
            guard let fontKey = state.fontKey(for: text.font),
                  let normalLineHeight = state.normalLineHeight(fontKey) else { return TextLines(lineHeight: 0, widths: []) }
            let lineHeight = text.lineHeight.map(LayoutUnit.given) ?? normalLineHeight
            var widths: [Double] = []
            var heights: [Double] = []
            var context = ParagraphContext()
            for paragraph in paragraphs {
                let key = ShapeKey(paragraph, of: text, font: fontKey, after: context)
                guard let shaped = state.shaped(key) else { return TextLines(lineHeight: 0, widths: []) }
                context = shaped.endContext
                let room = width.map { LayoutUnit.given(Swift.max(0, $0)) }
                if text.lineHeight == nil && !shaped.fallbackRuns.isEmpty {
                    for line in shaped.lineBreaks(at: room) {
                        widths.append(line.width)
                        heights.append(state.normalLine(fontKey, fallbacks: shaped.fallbackFonts(line.start, line.end)).height)
                    }
                } else {
                    let added = shaped.lineWidths(at: room)
                    widths += added
                    heights += repeatElement(lineHeight, count: added.count)
                }
            }
            let widest = widths.max() ?? 0
            if let maxLines = text.maxLines, widths.count > maxLines {
                widths.removeLast(widths.count - maxLines)
                heights.removeLast(heights.count - maxLines)
            }
            return TextLines(lineHeight: lineHeight, widths: widths, widestLine: widest, lineHeights: heights)
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
        return shard(for: text.text).state.withLock { state in
            guard let broken = Self.broken(text, width: width, paragraphs, &state) else { return TextLines(lineHeight: 0, widths: []) }
            let ranges = broken.lines.map { paragraphs[$0.paragraph].range($0.start, $0.end) }
            let missing = state.withChain(broken.font) { Self.missingGlyphs(in: text.text, chain: $0) } ?? []
            return TextLines(lineHeight: broken.lineHeight, widths: broken.lines.map(\.width), widestLine: broken.widest, ranges: ranges,
                             truncated: broken.truncated, ellipsis: broken.ellipsis, missingGlyphs: missing,
                             lineHeights: broken.lines.map(\.height))
        }
    }

    /// The most characters a text reports missing; the rest are left out.
    static let maxMissingGlyphs = 64

    /// The characters of `text` that no font of `chain` (the text's own, then the fallback
    /// faces) has a glyph for, each once, in the order they first appear, at most
    /// `maxMissingGlyphs`. White space, controls and default-ignorable characters (joiners,
    /// variation selectors), which draw nothing, are never missing.
    /// O(n log glyphs), times the fallback faces for characters the text's font lacks.
    static func missingGlyphs(in text: String, chain: FontChain) -> [String] {
        var missing: [String] = []
        var seen: Set<Unicode.Scalar> = []
        for scalar in text.unicodeScalars where !seen.contains(scalar) {
            seen.insert(scalar)
            let properties = scalar.properties
            if properties.isWhitespace || properties.isDefaultIgnorableCodePoint || properties.generalCategory == .control { continue }
            if !chain.covers(scalar) {
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
        /// Each line's paragraph, characters, width, height and baseline (below its top).
        var lines: [(paragraph: Int, start: Int, end: Int, width: Double, height: Double, baseline: Double)]
        var widest: Double
        var truncated: Bool
        var ellipsis: TextEllipsis?
        /// What each paragraph's shaping continued from the ones before it.
        var contexts: [ParagraphContext]
    }

    /// `text` broken into lines at `width` (maxLines and the ellipsis applied); nil when its
    /// font cannot be set up.
    static func broken(_ text: TextContent, width: Double?, _ paragraphs: [MappedParagraph], _ state: inout State) -> BrokenLines? {
        guard let fontKey = state.fontKey(for: text.font), let font = state.font(fontKey) else { return nil }
        let lineHeight = text.lineHeight.map(LayoutUnit.given) ?? font.normalLineHeight
        // Chromium's placement of a line's text in its line box: half the leading above, then the ascent.
        let baseline = ((lineHeight - font.ascent - font.descent) / 2).rounded(.down) + font.ascent
        var lines: [(paragraph: Int, start: Int, end: Int, width: Double, height: Double, baseline: Double)] = []
        var contexts: [ParagraphContext] = []
        var context = ParagraphContext()
        for (index, paragraph) in paragraphs.enumerated() {
            let key = ShapeKey(paragraph.text, of: text, font: fontKey, after: context)
            guard let shaped = state.shaped(key) else { return nil }
            contexts.append(context)
            context = shaped.endContext
            for line in shaped.lineBreaks(at: width.map { LayoutUnit.given(Swift.max(0, $0)) }) {
                if text.lineHeight == nil && !shaped.fallbackRuns.isEmpty {
                    let box = state.normalLine(fontKey, fallbacks: shaped.fallbackFonts(line.start, line.end))
                    lines.append((index, line.start, line.end, line.width, box.height, box.baseline))
                } else {
                    lines.append((index, line.start, line.end, line.width, lineHeight, baseline))
                }
            }
        }
        let widest = lines.map(\.width).max() ?? 0
        var truncated = false
        if let maxLines = text.maxLines, lines.count > maxLines {
            lines.removeLast(lines.count - maxLines)
            truncated = true
        }
        var ellipsis: TextEllipsis?
        if truncated && text.ellipsis, let last = lines.last {
            let room = width.map { LayoutUnit.given(Swift.max(0, $0)) } ?? widest
            let cut = state.withChain(fontKey) { chain -> (kept: (end: Int, width: Double), ellipsis: Double) in
                let ellipsisWidth = Shaper.ellipsisWidth(chain: chain)
                guard last.width + ellipsisWidth > room else { return ((last.end, last.width), ellipsisWidth) }
                let units = Array(Array(paragraphs[last.paragraph].text.utf16)[last.start..<last.end])
                let fit = Shaper.fittingPrefix(units, room: room - ellipsisWidth, chain: chain, letterSpacing: text.letterSpacing)
                return ((last.start + fit.length, LayoutUnit.ceil(fit.width)), ellipsisWidth)
            }
            if let cut {
                var kept = last
                (kept.end, kept.width) = cut.kept
                ellipsis = TextEllipsis(offset: kept.width, width: LayoutUnit.ceil(cut.ellipsis))
                kept.width = LayoutUnit.ceil(kept.width + cut.ellipsis)
                lines[lines.count - 1] = kept
            }
        }
        return BrokenLines(font: fontKey, lineHeight: lineHeight, lines: lines, widest: widest, truncated: truncated, ellipsis: ellipsis,
                           contexts: contexts)
    }

    /// The paragraphs of `text` as CSS `white-space: pre-line` has them: `\n` (and `\r\n`,
    /// `\r`) breaks; runs of spaces and tabs collapse to one space; spaces at the start and
    /// end of a paragraph go. A final `\n` starts no new line; text with no `\n` and nothing
    /// but spaces has no line at all. O(n).
    static func paragraphs(_ text: String) -> [String] {
        isOneCollapsedParagraph(text) ? [text] : collapse(text, mapped: false).map(\.text)
    }

    /// Whether collapsing leaves `text` as it is, one paragraph: not empty, no line break
    /// or tab, no run of spaces, no space at either end (most labels). O(n), over its bytes.
    static func isOneCollapsedParagraph(_ text: String) -> Bool {
        let bytes = text.utf8
        guard let first = bytes.first, let last = bytes.last, first != 0x20, last != 0x20 else { return false }
        var previous: UInt8 = 0
        for byte in bytes {
            if byte == 0x0A || byte == 0x0D || byte == 0x09 || (byte == 0x20 && previous == 0x20) { return false }
            previous = byte
        }
        return true
    }

    /// `paragraphs`, each able to map its offsets back to `text`. O(n).
    static func mappedParagraphs(_ text: String) -> [MappedParagraph] {
        guard isOneCollapsedParagraph(text) else { return collapse(text, mapped: true) }
        // The text as given: each UTF-16 unit is where it is, and its scalar is counted.
        var whole = MappedParagraph(text: text, start: (0, 0))
        whole.utf16 = Array(0..<text.utf16.count)
        whole.scalars.reserveCapacity(whole.utf16.count)
        for (index, scalar) in text.unicodeScalars.enumerated() {
            for _ in 0..<scalar.utf16.count { whole.scalars.append(index) }
        }
        return [whole]
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

    static func collapse(_ text: String, mapped: Bool) -> [MappedParagraph] {
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
    /// What the paragraphs before it in the same text carry over (`ParagraphContext`).
    var context: ParagraphContext
}

extension ShapeKey {
    /// The key of `paragraph`, one of `text`'s, shaped in `font` after the paragraphs before
    /// it (`context`): the text's letter spacing, and whether its lines end accurately (any
    /// alignment but start).
    init(_ paragraph: String, of text: TextContent, font: SizedFontKey, after context: ParagraphContext) {
        self.init(text: paragraph, font: font, letterSpacing: text.letterSpacing, accurateEnd: text.alignment != .start, context: context)
    }
}

/// What a paragraph's glyphs for drawing depend on: its text, font, letter spacing and the
/// context the paragraphs before it carry over.
struct GlyphKey: Hashable {
    var text: String
    var font: SizedFontKey
    var letterSpacing: Double
    var context: ParagraphContext
}

extension TextEngine {
    /// One shard's fonts and caches, used under its lock.
    struct State: ~Copyable {
        /// The fonts requests are matched in.
        var catalog: FontCatalog
        let breaker = LineBreaker()
        /// The sized fonts (a reference, so a `FontChain` can set fallback faces up through it).
        let fonts: SizedFontCache
        var cache: ByteBoundedCache<ShapeKey, ShapedParagraph>
        /// The glyphs of drawn paragraphs (`glyphLines`).
        var glyphs: ByteBoundedCache<GlyphKey, DrawnParagraph>
        var paragraphsShapedForDrawing = 0
        /// The face and size each request resolved to (CSS matching done once per request):
        /// a small memo, emptied when it reaches `memoLimit` entries (sizes are free-form).
        var resolved: [FontRequest: SizedFontKey] = [:]
        static let memoLimit = 4096
        var paragraphsShaped = 0

        init(catalog: FontCatalog, shapeCacheBytes: Int, fontCacheBytes: Int, glyphCacheBytes: Int) {
            self.catalog = catalog
            fonts = SizedFontCache(capacity: fontCacheBytes)
            cache = ByteBoundedCache(capacity: shapeCacheBytes)
            glyphs = ByteBoundedCache(capacity: glyphCacheBytes)
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
        func normalLineHeight(_ key: SizedFontKey) -> Double? { fonts.normalLineHeight(key) }

        /// The sized font for `key` (`SizedFontCache.font`).
        func font(_ key: SizedFontKey) -> SizedFont? { fonts.font(key) }

        /// `body` given the chain of fonts text in `key`'s font is shaped in (`FontChain`:
        /// the fallback faces at the same size, set up through the font cache when first
        /// used); nil when `key`'s font cannot be set up.
        func withChain<R>(_ key: SizedFontKey, _ body: (FontChain) -> R) -> R? {
            guard let primary = font(key) else { return nil }
            let fallbacks = catalog.fallbackFaces
            let fonts = self.fonts
            return body(FontChain(primary: primary, face: key.face, size: key.size, fallbacks: fallbacks) { face in fonts.font(SizedFontKey(face: face, size: key.size)) })
        }

        /// The height of a line of `line-height: normal` in `key`'s font whose characters
        /// were also shaped in the chain's fallback fonts `fallbacks`, and its baseline below
        /// its top. Blink's line box takes in every font a line uses
        /// (`InlineBoxState::AccumulateUsedFonts`): each font's ascent and descent with half
        /// its own leading (its normal line height less both) added to each, the largest
        /// ascent part above the baseline and the largest descent part below. A line in its
        /// own font alone is its normal line height. O(fonts).
        func normalLine(_ key: SizedFontKey, fallbacks: Set<Int32>) -> (height: Double, baseline: Double) {
            var above = 0.0, below = 0.0
            var faces = [key.face]
            for k in fallbacks where k >= 1 && Int(k) <= catalog.fallbackFaces.count { faces.append(catalog.fallbackFaces[Int(k) - 1].face) }
            for face in faces {
                guard let font = font(SizedFontKey(face: face, size: key.size)) else { continue }
                let leading = font.normalLineHeight - font.ascent - font.descent
                let half = (leading / 2 * LayoutUnit.scale).rounded(.towardZero) / LayoutUnit.scale
                above = Swift.max(above, font.ascent + half)
                below = Swift.max(below, font.descent + leading - half)
            }
            return (above + below, above.rounded(.down))
        }

        /// The shaped paragraph for `key`, from the cache or shaped now (kept while it fits in
        /// the cache's bytes; `ahead`: shaped before it is measured, so kept marked as used,
        /// and the eviction hand passes it once). Nil when its font cannot be set up. O(1)
        /// besides hashing, shaping and eviction (amortized O(1)).
        mutating func shaped(_ key: ShapeKey, ahead: Bool = false) -> ShapedParagraph? {
            if let known = cache.value(for: key) { return known }
            let breaker = self.breaker
            guard let shaped = withChain(key.font, { chain in
                Shaper.shape(key.text, chain: chain, context: key.context, letterSpacing: key.letterSpacing, accurateEnd: key.accurateEnd,
                             breaker: breaker)
            }) else { return nil }
            paragraphsShaped += 1
            cache.insert(shaped, for: key, bytes: Self.cost(of: shaped, key), marked: ahead)
            return shaped
        }

        /// The bytes a shaped paragraph is counted for in the cache. O(1).
        static func cost(of shaped: ShapedParagraph, _ key: ShapeKey) -> Int {
            shaped.estimatedBytes + key.text.utf8.count + TextEngine.entryOverhead
        }
    }
}

/// The sized fonts an engine has set up: a cache bounded by bytes (`SizedFont.estimatedBytes`
/// each), each face's HarfBuzz tables shared by its sizes, and each face and size's normal
/// line height. Used under its shard's lock only.
final class SizedFontCache {
    let library = FreeTypeLibrary()
    private var fonts: ByteBoundedCache<SizedFontKey, SizedFont>
    /// Each face's HarfBuzz tables, shared by its sizes (at most one per face of the catalog).
    private var sharedFaces: [FontFace: SharedFace] = [:]
    /// Each face and size's normal line height: a small memo, emptied at
    /// `TextEngine.State.memoLimit` entries.
    private var lineHeights: [SizedFontKey: Double] = [:]
    /// Sized fonts set up since the cache was made.
    private(set) var made = 0

    init(capacity: Int) {
        fonts = ByteBoundedCache(capacity: capacity)
    }

    var count: Int { fonts.count }
    var bytes: Int { fonts.bytes }

    /// Drops every sized font, and the shared tables of faces not in `kept`. O(fonts).
    func removeAll(keepingFacesOf kept: Set<FontFace>) {
        fonts.removeAll()
        lineHeights.removeAll()
        sharedFaces = sharedFaces.filter { kept.contains($0.key) }
    }

    /// The normal line height of `key` (its font set up if not known), or nil when the
    /// font cannot be set up. O(1) once known.
    func normalLineHeight(_ key: SizedFontKey) -> Double? {
        if let known = lineHeights[key] { return known }
        return font(key)?.normalLineHeight
    }

    /// The sized font for `key`, from the cache or set up now (and kept while it fits in the
    /// cache's bytes). Nil when the face's file cannot be read. O(1) when cached.
    func font(_ key: SizedFontKey) -> SizedFont? {
        if let known = fonts.value(for: key) { return known }
        var shared = sharedFaces[key.face]
        if shared == nil {
            shared = SharedFace(key.face)
            sharedFaces[key.face] = shared
        }
        guard let shared, let font = SizedFont(face: key.face, size: key.size, library: library, shared: shared) else { return nil }
        made += 1
        fonts.insert(font, for: key, bytes: font.estimatedBytes + TextEngine.entryOverhead)
        if lineHeights.count >= TextEngine.State.memoLimit { lineHeights.removeAll() }
        lineHeights[key] = font.normalLineHeight
        return font
    }
}
