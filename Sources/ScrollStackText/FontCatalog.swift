import CFreeType
import ScrollStackCore
#if canImport(Glibc)
import Glibc
#endif

/// The fonts a text engine can use: every face of every font file (`.ttf`, `.otf`, `.ttc`,
/// `.otc`) in some folders, grouped by family (family names compare case-insensitively).
public struct FontCatalog: Sendable {
    /// Debian's fonts-inter, fonts-dejavu-core, fonts-noto-cjk and fonts-noto-color-emoji folders.
    public static let defaultDirectories = ["/usr/share/fonts/opentype/inter", "/usr/share/fonts/truetype/dejavu",
                                            "/usr/share/fonts/opentype/noto", "/usr/share/fonts/truetype/noto"]
    /// Short names for families (alias → family): "DejaVu" is DejaVu Sans.
    public static let aliases = ["DejaVu": "DejaVu Sans"]
    /// The families characters a text's font lacks are looked for in, in order, and whether
    /// each draws emoji: the order fontconfig sorts these families in for Chromium's system
    /// fallback on Debian (locale en-US), emoji faces first for characters presented as emoji.
    public static let fallbackFamilies = [("DejaVu Sans", false), ("Noto Sans CJK JP", false), ("Noto Color Emoji", true)]

    /// Every face, by lower-cased family name, in path order (then the faces `adding` added).
    private(set) var families: [String: [FontFace]]
    /// The regular face of each `fallbackFamilies` family the folders have, in order (fonts
    /// added later are never fallbacks, as a web font never is in Chromium).
    public private(set) var fallbackFaces: [FallbackFace] = []

    /// Reads every font file in `directories` (files in name order; a folder that doesn't
    /// exist is skipped; a file FreeType cannot open is skipped).
    ///
    /// - Complexity: O(files), each opened once per face.
    public init(directories: [String]) {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else {
            families = [:]
            return
        }
        defer { FT_Done_FreeType(library) }
        var found: [String: [FontFace]] = [:]
        for directory in directories {
            for path in Self.fontFiles(in: directory) {
                for face in Self.faces(in: path, library: library) {
                    found[face.family.lowercased(), default: []].append(face)
                }
            }
        }
        families = found
        fallbackFaces = Self.fallbackFamilies.compactMap { family, emoji in
            match(FontRequest(family: family, size: 16)).map { FallbackFace(face: $0, emoji: emoji) }
        }
    }

    /// This catalog with `faces` too (each under its family, after the faces it has). O(faces).
    public func adding(_ faces: [FontFace]) -> FontCatalog {
        var copy = self
        for face in faces { copy.families[face.family.lowercased(), default: []].append(face) }
        return copy
    }

    /// Whether `family` (or the family it is an alias of) is a family of this catalog, or one
    /// of the alias names. Case-insensitive. O(aliases).
    public func claims(_ family: String) -> Bool {
        faces(of: family) != nil || Self.aliases.keys.contains { $0.lowercased() == family.lowercased() }
    }

    /// The families, each with its faces, sorted by name; aliases are not listed here.
    public var allFamilies: [(family: String, faces: [FontFace])] {
        families.values.compactMap { faces in faces.first.map { ($0.family, faces) } }.sorted { $0.family < $1.family }
    }

    /// The faces of `family` (or of the family it is an alias of), or nil.
    public func faces(of family: String) -> [FontFace]? {
        let key = family.lowercased()
        if let faces = families[key] { return faces }
        return Self.aliases.first { $0.key.lowercased() == key }.flatMap { families[$0.value.lowercased()] }
    }

    /// The face CSS font matching (CSS Fonts 4, §5.2) picks for `request` among the family's:
    /// width first (normal, then narrower, then wider), then style (italic → italic, oblique,
    /// normal; oblique → oblique, italic, normal; normal → normal, oblique, italic), then
    /// weight (400–500: up to 500 ascending, then below descending, then above 500 ascending;
    /// below 400: below descending, then above ascending; above 500: above ascending, then
    /// below descending). nil when the family is unknown. O(faces).
    public func match(_ request: FontRequest) -> FontFace? {
        guard var candidates = faces(of: request.family).map(matchable), !candidates.isEmpty else { return nil }
        let order: [FontRequest.Style]
        switch request.style {
        case .italic: order = [.italic, .oblique, .normal]
        case .oblique: order = [.oblique, .italic, .normal]
        case .normal: order = [.normal, .oblique, .italic]
        }
        let style = order.first { s in candidates.contains { $0.style == s } }!
        candidates = candidates.filter { $0.style == style }
        let w = request.weight
        func rank(_ face: FontFace) -> (Int, Int) {
            let f = face.weight
            if (400...500).contains(w) {
                if f >= w && f <= 500 { return (0, f - w) }
                if f < w { return (1, w - f) }
                return (2, f - w)
            }
            if w < 400 { return f <= w ? (0, w - f) : (1, f - w) }
            return f >= w ? (0, f - w) : (1, w - f)
        }
        return candidates.min { rank($0) < rank($1) }
    }

    /// The faces of one width among `faces`, the one CSS matching prefers for a normal
    /// `font-stretch`: normal, else the widest narrower one, else the narrowest wider one.
    public func matchable(_ faces: [FontFace]) -> [FontFace] {
        let widths = faces.map(\.widthClass)
        guard let width = widths.filter({ $0 <= 5 }).max() ?? widths.min() else { return [] }
        return faces.filter { $0.widthClass == width }
    }

    /// The font files directly in `directory`, in name order.
    static func fontFiles(in directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let lower = name.lowercased()
            if [".ttf", ".otf", ".ttc", ".otc"].contains(where: lower.hasSuffix) { names.append(name) }
        }
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        return names.sorted().map { base + $0 }
    }

    /// Every face of the file at `path` that FreeType opens, is scalable and has a family
    /// name (the others are skipped).
    static func faces(in path: String, library: FT_Library) -> [FontFace] {
        (try? faces(of: .file(path), library: library, skipping: true)) ?? []
    }

    /// Every face of the font in `bytes`, each of which must open, be scalable and have a
    /// family name (fonts uploaded over HTTP are held to this).
    ///
    /// - Throws: `FontProblem` naming the first face at fault.
    /// - Complexity: O(faces), each opened once from memory.
    public static func faces(of bytes: FontBytes) throws(FontProblem) -> [FontFace] {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { throw .unreadable(index: nil, freeTypeError: -1) }
        defer { FT_Done_FreeType(library) }
        return try faces(of: .memory(bytes), library: library, skipping: false)
    }

    /// The faces of `source`; with `skipping`, a face at fault is left out, otherwise it throws.
    static func faces(of source: FontSource, library: FT_Library, skipping: Bool) throws(FontProblem) -> [FontFace] {
        let first: FT_Face
        switch source.open(library, index: 0) {
        case .success(let face): first = face
        case .failure(let error): throw .unreadable(index: nil, freeTypeError: error.code)
        }
        let count = first.pointee.num_faces
        FT_Done_Face(first)
        var faces: [FontFace] = []
        for index in 0..<max(1, count) {
            let face: FT_Face
            switch source.open(library, index: index) {
            case .success(let opened): face = opened
            case .failure(let error):
                if skipping { continue }
                throw .unreadable(index: index, freeTypeError: error.code)
            }
            defer { FT_Done_Face(face) }
            // A color bitmap face (emoji) scales its strikes as Skia does; other bitmap fonts are left out.
            let colorBitmap = skipping && face.pointee.face_flags & FT_Long(FT_FACE_FLAG_COLOR) != 0 && face.pointee.num_fixed_sizes > 0
            guard face.pointee.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0 || colorBitmap else {
                if skipping { continue }
                throw .notScalable(index: index)
            }
            guard let name = face.pointee.family_name, name.pointee != 0 else {
                if skipping { continue }
                throw .noFamilyName(index: index)
            }
            var weight = 400
            var widthClass = 5
            if let table = FT_Get_Sfnt_Table(face, FT_SFNT_OS2) {
                let os2 = table.assumingMemoryBound(to: TT_OS2.self).pointee
                if os2.usWeightClass >= 1 && os2.usWeightClass <= 1000 { weight = Int(os2.usWeightClass) }
                if os2.usWidthClass >= 1 && os2.usWidthClass <= 9 { widthClass = Int(os2.usWidthClass) }
            }
            let italic = face.pointee.style_flags & FT_Long(FT_STYLE_FLAG_ITALIC) != 0
            faces.append(FontFace(source: source, index: index, family: String(cString: name), weight: weight,
                                  style: italic ? .italic : .normal, widthClass: widthClass))
        }
        return faces
    }
}

/// Why a font's bytes cannot be used (`FontCatalog.faces(of:)`).
public enum FontProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// FreeType cannot open the font (`index` nil) or one of its faces.
    case unreadable(index: Int?, freeTypeError: Int)
    /// A face is a bitmap font (no outlines to scale).
    case notScalable(index: Int)
    /// A face names no family.
    case noFamilyName(index: Int)

    public var description: String {
        switch self {
        case .unreadable(nil, let code): "FreeType cannot open it as a TrueType, OpenType or collection font (FreeType error \(code))"
        case .unreadable(let index?, let code): "FreeType cannot open its face \(index) (FreeType error \(code))"
        case .notScalable(let index): "its face \(index) is not scalable (a bitmap font)"
        case .noFamilyName(let index): "its face \(index) has no family name"
        }
    }
}
