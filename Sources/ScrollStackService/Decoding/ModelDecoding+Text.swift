import Jansson
import ScrollStackCore

extension ModelDecoding {
    static let textKeys = ["text", "font", "lineHeight", "letterSpacing", "maxLines", "align"]

    /// `{"text", "font": {"family", "size", "weight"?, "style"?}, "lineHeight"?,
    /// "letterSpacing"?, "maxLines"?, "align"?}`. The family is checked against the fonts
    /// when the row enters a stack (the measurer's `check`).
    static func text(_ object: ObjectReader) throws(APIError) -> TextContent {
        let request = try font(object.required("font"))
        return TextContent(
            try object.required("text").string(),
            font: request,
            lineHeight: try object.optional("lineHeight")?.double(),
            letterSpacing: try object.optional("letterSpacing")?.double() ?? 0,
            maxLines: try object.optional("maxLines")?.int(),
            alignment: try object.optional("align")?.choice(TextContent.Alignment.allCases.map { ($0.rawValue, $0) }) ?? .start
        )
    }

    /// `{"family", "size", "weight"?, "style"?}`; weight 400 and style `normal` when not given.
    static func font(_ field: Field) throws(APIError) -> FontRequest {
        let font = try field.object()
        try font.allowOnly(["family", "size", "weight", "style"])
        return FontRequest(
            family: try font.required("family").string(),
            size: try font.required("size").double(),
            weight: try font.optional("weight").map { f throws(APIError) in try weight(f) } ?? 400,
            style: try font.optional("style")?.choice(FontRequest.Style.allCases.map { ($0.rawValue, $0) }) ?? .normal
        )
    }

    /// 1…1000, or "normal" (400) / "bold" (700).
    static func weight(_ field: Field) throws(APIError) -> Int {
        if field.value.stringValue != nil { return try field.choice([("normal", 400), ("bold", 700)]) }
        return try field.int()
    }
}
