/// The fonts one text is shaped in: the face its request matched, then the catalog's
/// fallback faces (`FontCatalog.fallbackFaces`) at the same size, each set up on first use.
/// Font 0 is the text's own; font k ≥ 1 is fallback face k − 1.
///
/// Used under its shard's lock, for one shaping: `make` sets a face up through the shard's
/// font cache.
final class FontChain {
    let primary: SizedFont
    /// The face `primary` was set up from.
    let primaryFace: FontFace
    let size: Double
    /// The fallback faces, in the order they are tried, and which of them draw emoji.
    let fallbacks: [FallbackFace]
    private let make: (FontFace) -> SizedFont?
    private var made: [Int: SizedFont] = [:]

    init(primary: SizedFont, face: FontFace, size: Double, fallbacks: [FallbackFace], make: @escaping (FontFace) -> SizedFont?) {
        self.primary = primary
        primaryFace = face
        self.size = size
        self.fallbacks = fallbacks
        self.make = make
    }

    /// Whether the text's own face is one of the chain's emoji faces (then emoji stay in it).
    var primaryDrawsEmoji: Bool { fallbacks.contains { $0.emoji && $0.face == primaryFace } }

    /// Font `k` (0: the text's own), or nil when its face cannot be set up. O(1) once made.
    func font(_ k: Int) -> SizedFont? {
        if k == 0 { return primary }
        if let known = made[k] { return known }
        guard k <= fallbacks.count, let font = make(fallbacks[k - 1].face) else { return nil }
        made[k] = font
        return font
    }

    /// The fallback font for a run of characters the fonts `tried` lack, chosen by the run's
    /// first character (`hint`) as Chromium's system fallback chooses: the first fallback
    /// face that has it, emoji faces first for a run presented as emoji. Nil when none
    /// (not already tried) has it. O(fallbacks).
    func fallback(for hint: Unicode.Scalar, emoji: Bool, tried: [Int]) -> Int? {
        let order = emoji ? fallbacks.indices.filter { fallbacks[$0].emoji } + fallbacks.indices.filter { !fallbacks[$0].emoji }
                          : Array(fallbacks.indices)
        for i in order where !tried.contains(i + 1) {
            if let font = font(i + 1), font.hasGlyph(hint) { return i + 1 }
        }
        return nil
    }

    /// Whether any of the chain's fonts has a glyph for `scalar`. O(fallbacks).
    func covers(_ scalar: Unicode.Scalar) -> Bool {
        if primary.hasGlyph(scalar) { return true }
        return fallbacks.indices.contains { font($0 + 1)?.hasGlyph(scalar) == true }
    }
}

/// A face of the fallback chain, and whether it draws emoji (tried first for characters
/// presented as emoji).
public struct FallbackFace: Sendable, Hashable {
    public var face: FontFace
    public var emoji: Bool

    public init(face: FontFace, emoji: Bool) {
        self.face = face
        self.emoji = emoji
    }
}
