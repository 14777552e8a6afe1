import CFreeType
import ScrollStackCore

/// One face of a font file: what CSS font matching looks at.
public struct FontFace: Sendable, Hashable {
    /// Where the face's font is: a file, or bytes held in memory (an uploaded font).
    public var source: FontSource
    /// The face's index in its font (collections hold several).
    public var index: Int
    /// The family name as the font gives it (FreeType's `family_name`).
    public var family: String
    /// OS/2 `usWeightClass` (400 when the font has no OS/2 table).
    public var weight: Int
    /// Italic when FreeType flags the face italic (oblique faces included).
    public var style: FontRequest.Style
    /// OS/2 `usWidthClass`, 1…9 (5 is normal).
    public var widthClass: Int

    public init(source: FontSource, index: Int, family: String, weight: Int, style: FontRequest.Style, widthClass: Int) {
        self.source = source
        self.index = index
        self.family = family
        self.weight = weight
        self.style = style
        self.widthClass = widthClass
    }

    /// The font file's path; empty for a font held in memory.
    public var path: String {
        if case .file(let path) = source { return path }
        return ""
    }

    /// The id of the font in memory this face is from, or nil for a face of a file.
    public var fontID: String? {
        if case .memory(let bytes) = source { return bytes.id }
        return nil
    }
}

/// Where a font's bytes are.
public enum FontSource: Sendable, Hashable {
    case file(String)
    case memory(FontBytes)

    /// Opens face `index` with FreeType (`FT_New_Face` or `FT_New_Memory_Face`); nil when it
    /// cannot. A face made from memory reads the bytes for as long as it lives: the caller
    /// keeps this source (and so the bytes) alive until `FT_Done_Face`. Returns FreeType's
    /// error code on failure.
    public func open(_ library: FT_Library, index: Int) -> Result<FT_Face, FontOpenError> {
        var face: FT_Face?
        let error: FT_Error
        switch self {
        case .file(let path):
            error = FT_New_Face(library, path, FT_Long(index), &face)
        case .memory(let bytes):
            error = FT_New_Memory_Face(library, bytes.base, FT_Long(bytes.count), FT_Long(index), &face)
        }
        guard error == 0, let face else { return .failure(FontOpenError(code: Int(error))) }
        return .success(face)
    }
}

/// A FreeType error opening a face.
public struct FontOpenError: Error, Sendable {
    public var code: Int
}

/// A font's bytes, held in memory for as long as any face made from them is in use
/// (FreeType, HarfBuzz and cairo read them in place). Immutable; two are equal when their
/// ids are (ids are content hashes).
public final class FontBytes: @unchecked Sendable, Hashable {
    /// The font's id (its content hash, as the service names uploaded fonts).
    public let id: String
    private let storage: UnsafeMutableRawBufferPointer

    public init(id: String, bytes: [UInt8]) {
        self.id = id
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 16)
        storage.copyBytes(from: bytes)
        count = bytes.count
    }

    deinit { storage.deallocate() }

    /// How many bytes the font has.
    public let count: Int

    /// The first byte; valid while this object lives.
    var base: UnsafePointer<FT_Byte> { UnsafePointer(storage.baseAddress!.assumingMemoryBound(to: FT_Byte.self)) }

    public static func == (a: FontBytes, b: FontBytes) -> Bool { a.id == b.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
