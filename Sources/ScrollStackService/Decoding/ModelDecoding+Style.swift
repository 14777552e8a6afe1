import JSONCodec
import ScrollStackCore

/// Decoding of a row's `style` (`RowStyle`): what pictures paint, never what layout reads.
extension ModelDecoding {
    /// `{"background"?, "cornerRadius"?, "border"?: {"width", "color"}, "textColor"?,
    /// "image"?: {"aspectRatio", "fill"}}`: colours `#RRGGBB` or `#RRGGBBAA` (answered
    /// `#RRGGBBAA`), each error a 422 naming the field. O(1).
    static func rowStyle(_ field: Field) throws(APIError) -> RowStyle {
        let object = try field.object()
        try object.allowOnly(["background", "cornerRadius", "border", "textColor", "image"])
        var style = RowStyle()
        if let f = try object.optional("background") { style.background = try color(f) }
        if let f = try object.optional("cornerRadius") { style.cornerRadius = try number(f, upTo: RowStyle.maxRadius) }
        if let f = try object.optional("border") {
            let border = try f.object()
            try border.allowOnly(["width", "color"])
            style.border = RowStyle.Border(width: try number(try border.required("width"), upTo: RowStyle.maxBorderWidth),
                                           color: try color(try border.required("color")))
        }
        if let f = try object.optional("textColor") { style.textColor = try color(f) }
        if let f = try object.optional("image") {
            let image = try f.object()
            try image.allowOnly(["aspectRatio", "fill"])
            let ratioField = try image.required("aspectRatio")
            let ratio = try ratioField.double()
            guard ratio.isFinite, ratio > 0, ratio <= 1000 else {
                throw .invalid(ratioField.path, "must be greater than 0 and at most 1000, got \(ratio)")
            }
            style.image = RowStyle.ImagePlaceholder(aspectRatio: ratio, fill: try color(try image.required("fill")))
        }
        return style
    }

    private static func number(_ field: Field, upTo limit: Double) throws(APIError) -> Double {
        let value = try field.double()
        guard value.isFinite, (0...limit).contains(value) else {
            throw .invalid(field.path, "must be between 0 and \(Int(limit)), got \(value)")
        }
        return value
    }
}
