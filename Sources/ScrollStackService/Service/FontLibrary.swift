import Logging
import ScrollStackCore
import ScrollStackStore
import ScrollStackText
import Synchronization

/// A font uploaded over HTTP (`POST /v1/fonts`): its id, its bytes and its faces.
struct UploadedFont: Sendable {
    /// The first 16 hex digits of the SHA-256 of its bytes.
    let id: String
    let bytes: FontBytes
    let faces: [FontFace]

    /// The id of `bytes`: the first 16 hex digits of their SHA-256. O(n).
    static func id(of bytes: [UInt8]) -> String {
        let hex = Array("0123456789abcdef")
        return String(SHA256.digest(bytes).prefix(8).flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 15)]] })
    }

    /// The name of its blob in the store.
    var blobName: String { FontLibrary.blobPrefix + id }
}

/// The fonts text can use: the server's own (its font folders, fixed) and the uploaded ones,
/// which the store keeps as blobs named `font/<id>`. Every change of the uploaded ones is
/// handed to the text engine (`TextEngine.setCatalog`) at once, so text can use a font as soon
/// as its upload is answered. Thread-safe: the catalog is swapped whole under a lock.
final class FontLibrary: Sendable {
    static let blobPrefix = "font/"

    /// The fonts of the server's folders.
    let server: FontCatalog
    /// The engine measuring with these fonts (nil for a service without text).
    let engine: TextEngine?
    /// The uploaded fonts by id, and the catalog of every font (the server's, then the
    /// uploaded ones' faces in id order).
    private let state: Mutex<(uploaded: [String: UploadedFont], catalog: FontCatalog)>
    /// Held by each upload, deletion and refresh from the store of this process, one at a time.
    let changes = Mutex<Void>(())

    init(server: FontCatalog, engine: TextEngine?) {
        self.server = server
        self.engine = engine
        state = Mutex(([:], server))
    }

    /// The catalog of every font text can use now. O(1).
    var catalog: FontCatalog { state.withLock { $0.catalog } }

    /// The uploaded fonts, ordered by id.
    var uploaded: [UploadedFont] { state.withLock { $0.uploaded.values.sorted { $0.id < $1.id } } }

    func font(_ id: String) -> UploadedFont? { state.withLock { $0.uploaded[id] } }

    /// Sets the uploaded fonts to `fonts` and hands the catalog to the engine. O(faces).
    func set(_ fonts: [String: UploadedFont]) {
        let catalog = server.adding(fonts.values.sorted { $0.id < $1.id }.flatMap(\.faces))
        state.withLock { $0 = (fonts, catalog) }
        engine?.setCatalog(catalog)
    }

    /// Brings the uploaded fonts in line with the store: reads the fonts it holds that are
    /// not known here, and forgets those it no longer holds. A stored font whose faces are
    /// unusable here, or whose family the server's folders now provide, is left out (logged).
    /// Call with `changes` held. O(fonts) plus reading the new ones.
    func refreshHoldingChanges(from backend: any JournalBackend, logger: Logger) throws(JournalError) {
        let stored = try backend.blobNames().filter { $0.name.hasPrefix(Self.blobPrefix) }
        var fonts = state.withLock { $0.uploaded }
        let names = Set(stored.map { String($0.name.dropFirst(Self.blobPrefix.count)) })
        var changed = false
        for id in fonts.keys where !names.contains(id) {
            fonts[id] = nil
            changed = true
        }
        for id in names.sorted() where fonts[id] == nil {
            guard let bytes = try backend.blob(name: Self.blobPrefix + id) else { continue }
            let held = FontBytes(id: id, bytes: bytes)
            do throws(FontProblem) {
                let faces = try FontCatalog.faces(of: held)
                if let face = faces.first(where: { server.claims($0.family) }) {
                    logger.error("uploaded font \(id) is not used: its family \"\(face.family)\" is one of the server's font folders'")
                    continue
                }
                fonts[id] = UploadedFont(id: id, bytes: held, faces: faces)
                changed = true
            } catch {
                logger.error("uploaded font \(id) is not used: \(error)")
            }
        }
        if changed { set(fonts) }
    }

    /// `refreshHoldingChanges`, taking `changes`.
    func refresh(from backend: any JournalBackend, logger: Logger) throws(JournalError) {
        try changes.withLock { _ throws(JournalError) in try refreshHoldingChanges(from: backend, logger: logger) }
    }
}

extension ScrollStack {
    /// The font families (lower-cased) its text nodes and its menu use. O(nodes).
    var fontFamilies: Set<String> {
        var families: Set<String> = []
        func visit(_ content: ContentDescription) {
            switch content.kind {
            case .box, .aspectRatio: return
            case .text(let text): families.insert(text.font.family.lowercased())
            case .stack(_, _, _, let children): children.forEach(visit)
            }
        }
        for row in rows {
            if let content = row.contentDescription { visit(content) }
        }
        if let menu = settings.menu {
            families.insert(menu.font.family.lowercased())
            families.insert(menu.selectedFont.family.lowercased())
        }
        return families
    }
}
