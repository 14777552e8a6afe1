import ScrollStackCore
import ScrollStackRender

/// Writes a `Scene` (`PictureScene`) as SVG 1.1, 1 unit = 1 pt: the same picture the PNG
/// draws. Rectangles, circles and groups keep the scene's attributes, so a test or a script
/// can find rows (`<g class="row VISIBILITY" data-id data-index data-visibility>`), the
/// viewport (`id="viewport"`), separators and the page indicator's dots. Text is glyph
/// outlines: each distinct glyph once as a `<path>` in `<defs>` (taken from the same font
/// the PNG draws with, `CairoCanvas.outlines`), placed with `<use>` where the text engine put
/// it; a color glyph (emoji) is its strike's PNG as an `<image>` with a data URI, placed the
/// same way; no script, CSS or external font, so every SVG 1.1 renderer draws the same.
enum LayoutSVG {
    /// The SVG document of `scene`, titled `title`.
    ///
    /// - Complexity: O(items + glyphs + distinct glyphs' outlines).
    static func render(_ scene: Scene, title: String) -> [UInt8] {
        var runs: [GlyphRun] = []
        collectRuns(scene.items, into: &runs)
        let outlines = CairoCanvas.outlines(of: runs)
        var writer = Writer(outlines: outlines, bitmaps: CairoCanvas.bitmaps(of: runs))
        for item in scene.items { writer.write(item) }
        let width = n(scene.width), height = n(scene.height)
        var svg = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"1.1\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\">\n"
        svg += "<title>\(escape(title))</title>\n"
        svg += "<defs>\n\(writer.defs)</defs>\n"
        svg += "<rect x=\"0\" y=\"0\" width=\"\(width)\" height=\"\(height)\" \(fill(scene.background))/>\n"
        svg += writer.body
        svg += "</svg>\n"
        return Array(svg.utf8)
    }

    private static func collectRuns(_ items: [SceneItem], into runs: inout [GlyphRun]) {
        for item in items {
            switch item {
            case .glyphs(let run): runs.append(run)
            case .group(_, _, _, let items): collectRuns(items, into: &runs)
            case .rect, .circle: break
            }
        }
    }

    /// The document's body and its definitions (glyph outlines, clip paths), written item by item.
    private struct Writer {
        let outlines: [CairoCanvas.GlyphKey: String]
        /// Color glyphs (emoji), drawn as PNG images instead of outlines.
        let bitmaps: [CairoCanvas.GlyphKey: CairoCanvas.GlyphBitmap]
        var glyphIDs: [CairoCanvas.GlyphKey: Int] = [:]
        var defs = ""
        var body = ""
        var clips = 0

        mutating func write(_ item: SceneItem) {
            switch item {
            case .rect(let rect, let radius, let fillColor, let stroke, let attributes):
                body += "<rect\(LayoutSVG.attributes(attributes)) \(box(rect))"
                let r = Scene.clampedRadius(radius, rect)
                if r > 0 { body += " rx=\"\(n(r))\" ry=\"\(n(r))\"" }
                body += " " + (fillColor.map(fill) ?? "fill=\"none\"")
                if let stroke {
                    body += " stroke=\"\(hex(stroke.color))\" stroke-width=\"\(n(stroke.width))\""
                    if stroke.color.alpha != 255 { body += " stroke-opacity=\"\(n(Double(stroke.color.alpha) / 255))\"" }
                    if !stroke.dash.isEmpty { body += " stroke-dasharray=\"\(stroke.dash.map(n).joined(separator: " "))\"" }
                }
                body += "/>\n"
            case .circle(let center, let radius, let fillColor, let attributes):
                body += "<circle\(LayoutSVG.attributes(attributes)) cx=\"\(n(center.x))\" cy=\"\(n(center.y))\" r=\"\(n(radius))\" \(fill(fillColor))/>\n"
            case .glyphs(let run):
                body += "<g class=\"text\" \(fill(run.color))>"
                for glyph in run.glyphs {
                    let key = CairoCanvas.GlyphKey(face: run.face, size: run.size, synthesis: run.synthesis, id: glyph.id)
                    let bitmap = bitmaps[key]
                    let outline = outlines[key] ?? ""
                    guard bitmap != nil || !outline.isEmpty else { continue }
                    let id: Int
                    if let known = glyphIDs[key] {
                        id = known
                    } else {
                        id = glyphIDs.count
                        glyphIDs[key] = id
                        if let bitmap {
                            defs += "<image id=\"g\(id)\" x=\"\(n(bitmap.x))\" y=\"\(n(bitmap.y))\" width=\"\(n(bitmap.width))\" height=\"\(n(bitmap.height))\""
                                + " xlink:href=\"data:image/png;base64,\(SHA256.base64(bitmap.png))\"/>\n"
                        } else {
                            defs += "<path id=\"g\(id)\" d=\"\(outline)\"/>\n"
                        }
                    }
                    body += "<use xlink:href=\"#g\(id)\" x=\"\(n(run.origin.x + glyph.x))\" y=\"\(n(run.origin.y + glyph.y))\"/>"
                }
                body += "</g>\n"
            case .group(let attributes, let offset, let clip, let items):
                body += "<g\(LayoutSVG.attributes(attributes))"
                if offset.x != 0 || offset.y != 0 { body += " transform=\"translate(\(n(offset.x)),\(n(offset.y)))\"" }
                if let clip {
                    let r = Scene.clampedRadius(clip.radius, clip.rect)
                    defs += "<clipPath id=\"clip-\(clips)\"><rect \(box(clip.rect))\(r > 0 ? " rx=\"\(n(r))\" ry=\"\(n(r))\"" : "")/></clipPath>\n"
                    body += " clip-path=\"url(#clip-\(clips))\""
                    clips += 1
                }
                body += ">\n"
                for item in items { write(item) }
                body += "</g>\n"
            }
        }
    }

    private static func attributes(_ list: [SceneItem.Attribute]) -> String {
        list.map { " \($0.name)=\"\(escape($0.value))\"" }.joined()
    }

    private static func hex(_ c: RGBA) -> String {
        let digits = Array("0123456789ABCDEF")
        var out = "#"
        for v in [c.red, c.green, c.blue] {
            out.append(digits[Int(v >> 4)])
            out.append(digits[Int(v & 15)])
        }
        return out
    }

    /// `fill="#RRGGBB" fill-opacity="A"`.
    private static func fill(_ c: RGBA) -> String {
        "fill=\"\(hex(c))\" fill-opacity=\"\(n(Double(c.alpha) / 255))\""
    }

    private static func box(_ r: Rect) -> String {
        "x=\"\(n(r.origin.x))\" y=\"\(n(r.origin.y))\" width=\"\(n(r.size.width))\" height=\"\(n(r.size.height))\""
    }

    /// A number with at most 3 decimals and no trailing zeros.
    static func n(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        if rounded == rounded.rounded() && abs(rounded) < 1e15 { return String(Int64(rounded)) }
        return "\(rounded)"
    }

    /// Text and attribute values with `& < > " '` escaped, and control characters other than
    /// tab and line feed (carriage return included: parsers would normalize it away), U+FFFE
    /// and U+FFFF replaced with U+FFFD. O(length).
    static func escape(_ text: String) -> String {
        var out = ""
        // Scalar by scalar, not by `Character`: a quote or `<` followed by a combining mark is
        // one character that equals neither, and was written raw (an attribute broken out of).
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n": out.unicodeScalars.append(scalar)
            default:
                // XML 1.0 forbids the other control characters but CR, and U+FFFE and U+FFFF.
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
