import JSONCodec
import ScrollStackCore

extension ModelDecoding {
    static let textKeys = ["text", "font", "lineHeight", "letterSpacing", "maxLines", "align", "ellipsis"]

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
            maxLines: try maxLines(object.optional("maxLines")),
            alignment: try object.optional("align")?.choice(TextContent.Alignment.allCases.map { ($0.rawValue, $0) }) ?? .start,
            ellipsis: try object.optional("ellipsis")?.bool() ?? false
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

    /// The weight names CSS and UIKit use, with their CSS numbers (CSS Fonts 4, §2.2
    /// `font-weight`; UIKit's `.semibold` is CSS's 600). Matched case-insensitively.
    static let weightNames: [(String, Int)] = [
        ("thin", 100), ("extralight", 200), ("light", 300), ("normal", 400), ("regular", 400),
        ("medium", 500), ("semibold", 600), ("bold", 700), ("extrabold", 800), ("black", 900),
    ]

    /// A number 1…1000 (checked when the row enters a stack), one of `weightNames`, or an
    /// integer written as a string (`"600"`, as CSS text and design tools give it).
    static func weight(_ field: Field) throws(APIError) -> Int {
        guard let text = field.value.stringValue else { return try field.int() }
        if let named = weightNames.first(where: { $0.0 == text.lowercased() }) { return named.1 }
        if text.utf8.count <= 4, !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let number = Int(text) {
            guard (1...1000).contains(number) else { throw .invalid(field.path, "must be 1…1000, got \"\(text)\"") }
            return number
        }
        let names = weightNames.map { "\"\($0.0)\"" }.joined(separator: ", ")
        throw .invalid(field.path, "must be a number 1…1000, a number written as a string (\"600\"), or one of \(names); got \"\(text.prefix(40))\"")
    }

    /// An integer ≥ 0; 0 is UIKit's `numberOfLines = 0`, no limit (nil).
    static func maxLines(_ field: Field?) throws(APIError) -> Int? {
        guard let field else { return nil }
        let value = try field.int()
        guard value >= 0 else { throw .invalid(field.path, "must be 0 (no limit) or more, got \(value)") }
        return value == 0 ? nil : value
    }
}
