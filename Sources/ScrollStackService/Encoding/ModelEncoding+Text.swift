import JSONCodec
import ScrollStackCore
import ScrollStackText

extension ModelEncoding {
    /// A text node's members, as the request gives them (defaults written out).
    static func text(_ t: TextContent) -> [(String, JSON)] {
        var members: [(String, JSON)] = [
            ("text", .string(t.text)),
            ("font", font(t.font)),
        ]
        if let lineHeight = t.lineHeight { members.append(("lineHeight", .number(lineHeight))) }
        members.append(("letterSpacing", .number(t.letterSpacing)))
        if let maxLines = t.maxLines { members.append(("maxLines", .integer(Int64(maxLines)))) }
        members.append(("align", .string(t.alignment.rawValue)))
        members.append(("ellipsis", .bool(t.ellipsis)))
        return members
    }

    /// `{"family", "size", "weight", "style"}`, as a text node or menu option gives it.
    static func font(_ f: FontRequest) -> JSON {
        .object(JSONObject([
            ("family", .string(f.family)), ("size", .number(f.size)),
            ("weight", .integer(Int64(f.weight))), ("style", .string(f.style.rawValue)),
        ]))
    }

    /// An uploaded font: `{"id", "bytes", "faces": [{"family", "weight", "style", "width"}]}`.
    static func uploadedFont(_ font: UploadedFont) -> JSON {
        .object(JSONObject([
            ("id", .string(font.id)), ("bytes", .integer(Int64(font.bytes.count))),
            ("faces", .array(font.faces.map { face in
                .object(JSONObject([("family", .string(face.family)), ("weight", .integer(Int64(face.weight))),
                                    ("style", .string(face.style.rawValue)), ("width", .integer(Int64(face.widthClass)))]))
            })),
        ]))
    }

    /// `GET /v1/fonts`: every family with its faces (an uploaded face with its font's `id`),
    /// and the aliases.
    static func fonts(_ catalog: FontCatalog) -> JSON {
        let families = catalog.allFamilies.map { family, faces in
            JSON.object(JSONObject([
                ("family", .string(family)),
                ("faces", .array(catalog.matchable(faces).map { face in
                    var members: [(String, JSON)] = [("weight", .integer(Int64(face.weight))), ("style", .string(face.style.rawValue))]
                    if let id = face.fontID { members.append(("id", .string(id))) }
                    return .object(JSONObject(members))
                })),
            ]))
        }
        let aliases = FontCatalog.aliases.sorted { $0.key < $1.key }.filter { catalog.faces(of: $0.key) != nil }.map { alias, family in
            JSON.object(JSONObject([("alias", .string(alias)), ("family", .string(family))]))
        }
        return .object(JSONObject([("families", .array(families)), ("aliases", .array(aliases))]))
    }
}
