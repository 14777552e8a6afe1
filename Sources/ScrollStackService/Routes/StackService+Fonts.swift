import JSONCodec
import MicroHTTP
import ScrollStackRender
import ScrollStackCore
import ScrollStackStore
import ScrollStackText

extension StackService {
    /// The media types a font upload may be sent as.
    static let fontMediaTypes: Set<String> = ["font/ttf", "font/otf", "font/collection", "font/sfnt", "application/octet-stream"]

    /// `GET /v1/fonts`: the families text nodes can use, their faces (weight, style) and
    /// aliases; an uploaded face carries its font's `id`. A replica reads the store's fonts
    /// first, so the list is current.
    func listFonts(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery([])
        try refreshFontsIfReplicated()
        return .json(200, ModelEncoding.fonts(fonts))
    }

    /// `GET /v1/fonts/{font}`: one uploaded font's description; 404 `font_not_found` for any
    /// other id (the server's own fonts have none).
    func getFont(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery([])
        let id = c.parameter("font")
        if fontLibrary.font(id) == nil { try refreshFontsIfReplicated() }
        guard let font = fontLibrary.font(id) else { throw .fontNotFound(id) }
        return .json(200, ModelEncoding.uploadedFont(font))
    }

    /// `POST /v1/fonts`: stores a TrueType/OpenType font or collection sent as the body, once
    /// FreeType has opened every face of it from memory (each scalable, with a family name).
    /// 201 with the font's description and `Location`; the same bytes again are 200 with the
    /// same font. Refused before anything is stored: 422 `font_unusable`, 409
    /// `font_family_reserved` (a family of the server's folders), 409 `font_face_exists` (a
    /// face with the family, weight, style and width of an uploaded one), 409
    /// `font_limit_reached` (count or total bytes), 413 `payload_too_large`.
    func uploadFont(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery([])
        let contentType = c.request.header("content-type")
        guard let contentType, Self.fontMediaTypes.contains(RequestContext.mediaType(contentType)) else {
            throw APIError(.unsupportedMediaType,
                           message: "a font is sent as font/ttf, font/otf, font/collection, font/sfnt or application/octet-stream; got \(contentType.map { "\"\($0)\"" } ?? "no Content-Type")",
                           field: "Content-Type")
        }
        let body = c.request.body
        guard body.count <= limits.maxFontBytes else {
            throw APIError(.payloadTooLarge,
                           message: "the font has \(body.count) bytes; an uploaded font may have at most \(limits.maxFontBytes)")
        }
        guard !body.isEmpty else { throw .fontUnusable("the body is empty: send the font file's bytes") }
        guard let journal else { throw .storageFailed("this service keeps no fonts") }
        let id = UploadedFont.id(of: body)
        return try fontLibrary.changes.withLock { _ throws(APIError) -> HTTPResponse in
            do throws(JournalError) {
                try fontLibrary.refreshHoldingChanges(from: journal.backend, logger: logger)
            } catch {
                throw APIError(error)
            }
            if let known = fontLibrary.font(id) { return .json(200, ModelEncoding.uploadedFont(known), headers: [("Location", "/v1/fonts/\(id)")]) }
            let bytes = FontBytes(id: id, bytes: body)
            let faces: [FontFace]
            do throws(FontProblem) { faces = try FontCatalog.faces(of: bytes) } catch { throw .fontUnusable("the body is not a usable font: \(error)") }
            let uploaded = fontLibrary.uploaded
            for face in faces {
                if fontLibrary.server.claims(face.family) {
                    throw APIError(.fontFamilyReserved,
                                   message: "the family \"\(face.family)\" is one of the server's own fonts; an uploaded font must name another family")
                }
                if let other = uploaded.first(where: { $0.faces.contains { Self.sameFace($0, face) } }) {
                    throw APIError(.fontFaceExists,
                                   message: "the uploaded font \(other.id) already has a face \"\(face.family)\" of weight \(face.weight), style \(face.style.rawValue) and width \(face.widthClass); delete it first to replace it")
                }
            }
            guard uploaded.count < limits.maxUploadedFonts else {
                throw APIError(.fontLimitReached,
                               message: "this server keeps at most \(limits.maxUploadedFonts) uploaded fonts; delete one first")
            }
            let total = uploaded.reduce(0) { $0 + $1.bytes.count }
            guard total + body.count <= limits.maxUploadedFontBytes else {
                throw APIError(.fontLimitReached,
                               message: "the uploaded fonts would take \(total + body.count) bytes; at most \(limits.maxUploadedFontBytes) are kept: delete one first")
            }
            let font = UploadedFont(id: id, bytes: bytes, faces: faces)
            let stored: Bool
            do throws(JournalError) { stored = try journal.backend.putBlob(name: font.blobName, bytes: body) } catch { throw APIError(error) }
            var all = Dictionary(uniqueKeysWithValues: uploaded.map { ($0.id, $0) })
            all[id] = font
            fontLibrary.set(all)
            logger.notice("font \(id) uploaded: \(faces.map(\.family).joined(separator: ", "))")
            return .json(stored ? 201 : 200, ModelEncoding.uploadedFont(font), headers: [("Location", "/v1/fonts/\(id)")])
        }
    }

    /// `DELETE /v1/fonts/{font}`: 204, unless text in a stack this server holds uses one of the
    /// font's families (409 `font_in_use` naming the stack), a stack could not be read at
    /// start (409 `font_in_use` too: whether it uses the font cannot be told), or the store is
    /// shared by replicas (409 `font_deletion_unsupported`: no replica can see every stack).
    /// Writes to stacks wait meanwhile (`fontUse`), and the font is taken out of the catalog
    /// first, so no text can start using it; refused, it is put back.
    func deleteFont(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery([])
        let id = c.parameter("font")
        guard let journal else { throw .fontNotFound(id) }
        if isReplicated || journal.backend is any SharedJournalBackend {
            if fontLibrary.font(id) == nil { try refreshFontsIfReplicated() }
            guard fontLibrary.font(id) != nil else { throw .fontNotFound(id) }
            throw APIError(.fontDeletionUnsupported,
                           message: "uploaded fonts are not deleted on a store shared by replicas: no replica holds every stack, so none can tell that no text uses the font")
        }
        return try fontLibrary.changes.withLock { _ throws(APIError) -> HTTPResponse in
            try fontUse.withWriteLock { () throws(APIError) -> HTTPResponse in try deleteUnused(id, journal: journal) }
        }
    }

    /// `deleteFont`'s work, holding `changes` and `fontUse`.
    private func deleteUnused(_ id: String, journal: StackJournal) throws(APIError) -> HTTPResponse {
        guard let font = fontLibrary.font(id) else { throw .fontNotFound(id) }
        var all = Dictionary(uniqueKeysWithValues: fontLibrary.uploaded.map { ($0.id, $0) })
        all[id] = nil
        fontLibrary.set(all)
        all[id] = font
        if let user = fontUser(font.faces) {
            fontLibrary.set(all)
            throw APIError(.fontInUse, message: user)
        }
        do throws(JournalError) {
            try journal.backend.deleteBlob(name: font.blobName)
        } catch {
            fontLibrary.set(all)
            throw APIError(error)
        }
        CairoCanvas.forget(fontID: id)
        logger.notice("font \(id) deleted")
        return HTTPResponse(status: 204)
    }

    /// Why a font with `faces` cannot go: the first stack (by id) whose text or menu uses one
    /// of their families, or a stack that could not be read; nil when none. O(stacks × nodes),
    /// each stack read under its lock.
    private func fontUser(_ faces: [FontFace]) -> String? {
        let families = Set(faces.map { $0.family.lowercased() })
        if let unreadable = store.unreadableIDs.first {
            return "the stack \"\(unreadable)\" could not be read at start, so whether its text uses the font cannot be told; delete it first"
        }
        for entry in store.all() {
            let used = try? entry.read { stack, _ throws(APIError) in stack.fontFamilies.intersection(families).sorted().first }
            if let family = used ?? nil {
                let name = faces.first { $0.family.lowercased() == family }?.family ?? family
                return "the stack \"\(entry.id)\" has text in the family \"\(name)\"; change or delete that text first"
            }
        }
        return nil
    }

    /// Whether two faces are the same for CSS matching: family (case-insensitive), weight,
    /// style and width.
    static func sameFace(_ a: FontFace, _ b: FontFace) -> Bool {
        a.family.lowercased() == b.family.lowercased() && a.weight == b.weight && a.style == b.style && a.widthClass == b.widthClass
    }

    /// On replicas, brings the uploaded fonts in line with the store (another replica may
    /// have uploaded one).
    func refreshFontsIfReplicated() throws(APIError) {
        guard let journal, isReplicated || journal.backend is any SharedJournalBackend else { return }
        do throws(JournalError) { try fontLibrary.refresh(from: journal.backend, logger: logger) } catch { throw APIError(error) }
    }

    /// The text engine met `family`, which no font here has: a replica reads the store's fonts
    /// again (once per such request), in case another replica has just uploaded it.
    func fontMissing(_ family: String, journal: StackJournal) {
        guard isReplicated || journal.backend is any SharedJournalBackend else { return }
        do throws(JournalError) { try fontLibrary.refresh(from: journal.backend, logger: logger) } catch {
            logger.warning("reading the uploaded fonts for \"\(family)\" failed: \(error)")
        }
    }
}

extension APIError {
    static func fontNotFound(_ id: String) -> APIError {
        APIError(.fontNotFound, message: "no uploaded font has the id \"\(id)\"")
    }

    static func fontUnusable(_ message: String) -> APIError {
        APIError(.fontUnusable, message: message)
    }
}
