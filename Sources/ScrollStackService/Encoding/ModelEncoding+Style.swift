import JSONCodec
import ScrollStackCore

extension ModelEncoding {
    /// A row's style as `ModelDecoding.rowStyle` reads it, members in that order.
    static func rowStyle(_ style: RowStyle) -> JSON {
        var members: [(String, JSON)] = []
        if let background = style.background { members.append(("background", .string(background))) }
        if let radius = style.cornerRadius { members.append(("cornerRadius", .number(radius))) }
        if let border = style.border {
            members.append(("border", .object(JSONObject([("width", .number(border.width)), ("color", .string(border.color))]))))
        }
        if let textColor = style.textColor { members.append(("textColor", .string(textColor))) }
        if let image = style.image {
            members.append(("image", .object(JSONObject([("aspectRatio", .number(image.aspectRatio)), ("fill", .string(image.fill))]))))
        }
        return .object(JSONObject(members))
    }
}
