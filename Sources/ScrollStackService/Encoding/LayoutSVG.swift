import ScrollStackCore
import ScrollStackPaging

/// Draws layouts as SVG 1.1: one panel per layout (side by side for devices), 1 unit = 1 pt.
///
/// A panel shows the content (a grey box of `contentSize`), every row that is not hidden as a
/// rectangle labelled with its type and id, filled by visibility (entire green, partial
/// orange, offscreen grey and dashed), separators in their own colour over the rows, and the viewport as a
/// red frame at the offset, and a paging stack's page control as circles in its tints over the
/// viewport. Rows are `<g class="row VISIBILITY" data-id data-index
/// data-visibility>`, so a test or a script can find them. Only presentation attributes are
/// used (no CSS, scripts or external fonts), so every SVG 1.1 renderer draws the same.
enum LayoutSVG {
    /// One panel: a layout, the stack it was computed on (for row types and separators), and
    /// a heading.
    struct Panel {
        let title: String
        let laid: LaidOut
    }

    static let margin = 16.0
    static let headingHeight = 24.0
    static let gap = 32.0

    /// Fills by visibility: (fill, stroke, dash).
    static func style(_ visibility: Visibility) -> (fill: String, stroke: String, dash: String?) {
        switch visibility {
        case .entire: ("#34C759", "#248A3D", nil)
        case .partial: ("#FF9500", "#C93400", nil)
        case .offscreen, .hidden: ("#D1D1D6", "#8E8E93", "4 3")
        }
    }

    /// The SVG document.
    ///
    /// - Complexity: O(rows drawn).
    static func render(_ panels: [Panel]) -> [UInt8] {
        var body = ""
        var x = 0.0
        var height = 0.0
        for (index, panel) in panels.enumerated() {
            let bounds = extent(panel.laid)
            let width = bounds.size.width + 2 * margin
            let panelHeight = bounds.size.height + 2 * margin + headingHeight
            body += "<g class=\"panel\" transform=\"translate(\(n(x)),0)\">\n"
            body += "<text x=\"\(n(margin))\" y=\"\(n(margin + 4))\" font-family=\"sans-serif\" font-size=\"13\" fill=\"#1C1C1E\">\(escape(panel.title))</text>\n"
            // Content space, clipped to the panel's extent (a window shows part of the content).
            body += "<g transform=\"translate(\(n(margin - bounds.origin.x)),\(n(margin + headingHeight - bounds.origin.y)))\">\n"
            body += "<clipPath id=\"extent-\(index)\"><rect \(box(grown(bounds, by: 2)))/></clipPath>\n"
            body += "<g clip-path=\"url(#extent-\(index))\">\n"
            body += draw(panel.laid)
            body += "</g>\n</g>\n</g>\n"
            x += width + gap
            height = max(height, panelHeight)
        }
        let width = max(1, x - gap)
        var svg = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"\(n(width))\" height=\"\(n(max(1, height)))\" viewBox=\"0 0 \(n(width)) \(n(max(1, height)))\">\n"
        svg += "<title>\(escape(panels.map(\.title).joined(separator: " | ")))</title>\n"
        svg += "<rect x=\"0\" y=\"0\" width=\"\(n(width))\" height=\"\(n(max(1, height)))\" fill=\"#FFFFFF\"/>\n"
        svg += body
        svg += "</svg>\n"
        return Array(svg.utf8)
    }

    /// The part of content space a panel shows: the content and the viewport, or, for a window
    /// or a page, the viewport and the rows drawn.
    static func extent(_ laid: LaidOut) -> Rect {
        let layout = laid.layout
        var bounds = Rect(origin: layout.offset, size: layout.viewport)
        if laid.window == nil && layout.rows.count == laid.stack.count {
            bounds = union(bounds, Rect(origin: Point(x: 0, y: 0), size: layout.contentSize))
        }
        for row in layout.rows where row.visibility != .hidden { bounds = union(bounds, row.frame) }
        return bounds
    }

    private static func draw(_ laid: LaidOut) -> String {
        let layout = laid.layout
        let content = Rect(origin: Point(x: 0, y: 0), size: layout.contentSize)
        var out = "<rect class=\"content\" \(box(content)) fill=\"#F2F2F7\" stroke=\"#8E8E93\" stroke-width=\"1\"/>\n"
        // Separators overlay the rows (as in UIKit), so they are drawn after every row.
        var separators = ""
        for row in layout.rows where row.visibility != .hidden {
            let stored = laid.stack.row(id: row.id)
            let type = stored?.content.typeName ?? ""
            let style = style(row.visibility)
            out += "<g class=\"row \(row.visibility.name)\" data-id=\"\(escape(row.id))\" data-index=\"\(row.index)\" data-visibility=\"\(row.visibility.name)\">\n"
            out += "<rect \(box(row.frame)) fill=\"\(style.fill)\" fill-opacity=\"0.45\" stroke=\"\(style.stroke)\" stroke-width=\"1\""
            if let dash = style.dash { out += " stroke-dasharray=\"\(dash)\"" }
            out += "/>\n"
            if let separator = row.separatorFrame, let stored {
                let color = laid.stack.settings.separator.applying(stored.separator).color
                separators += "<rect class=\"separator\" data-row=\"\(escape(row.id))\" \(box(separator)) fill=\"#\(color.dropFirst().prefix(6))\" fill-opacity=\"\(n(alpha(color)))\"/>\n"
            }
            if row.frame.size.height >= 14 && row.frame.size.width >= 40 {
                var label = type.isEmpty ? row.id : "\(type) · \(row.id)"
                if case .partial(let fraction) = row.visibility { label += " (\(Int((fraction * 100).rounded())) %)" }
                let size = min(12, row.frame.size.height - 2)
                out += "<text x=\"\(n(row.frame.origin.x + 6))\" y=\"\(n(row.frame.origin.y + min(row.frame.size.height / 2, 14) + size / 3))\" font-family=\"sans-serif\" font-size=\"\(n(size))\" fill=\"#1C1C1E\">\(escape(label))</text>\n"
            }
            out += "</g>\n"
        }
        out += "<g class=\"separators\">\n\(separators)</g>\n"
        let viewport = Rect(origin: layout.offset, size: layout.viewport)
        out += "<rect id=\"viewport\" \(box(viewport)) fill=\"none\" stroke=\"#FF3B30\" stroke-width=\"2\"/>\n"
        // The page control over the viewport: one circle per page in its tint
        // (`<g class="page-indicator">`, the current page's circle `class="dot current"`).
        if let indicator = laid.stack.pageIndicatorLayout(offset: layout.offset), !indicator.hidden {
            out += "<g class=\"page-indicator\" data-current-page=\"\(indicator.currentPage)\">\n"
            for (page, (dot, color)) in zip(indicator.dots, indicator.dotColors).enumerated() {
                let kind = page == indicator.currentPage ? "dot current" : "dot"
                out += "<circle class=\"\(kind)\" cx=\"\(n(layout.offset.x + dot.minX + dot.size.width / 2))\" cy=\"\(n(layout.offset.y + dot.minY + dot.size.height / 2))\" r=\"\(n(dot.size.width / 2))\" fill=\"#\(color.dropFirst().prefix(6))\" fill-opacity=\"\(n(alpha(color)))\"/>\n"
            }
            out += "</g>\n"
        }
        let caption = "viewport \(n(layout.viewport.width))×\(n(layout.viewport.height)) at (\(n(layout.offset.x)), \(n(layout.offset.y)))"
        out += "<text x=\"\(n(viewport.origin.x + viewport.size.width - 4))\" y=\"\(n(viewport.origin.y + 14))\" text-anchor=\"end\" font-family=\"sans-serif\" font-size=\"11\" fill=\"#FF3B30\">\(caption)</text>\n"
        return out
    }

    private static func box(_ r: Rect) -> String {
        "x=\"\(n(r.origin.x))\" y=\"\(n(r.origin.y))\" width=\"\(n(r.size.width))\" height=\"\(n(r.size.height))\""
    }

    private static func grown(_ r: Rect, by d: Double) -> Rect {
        Rect(x: r.origin.x - d, y: r.origin.y - d, width: r.size.width + 2 * d, height: r.size.height + 2 * d)
    }

    private static func union(_ a: Rect, _ b: Rect) -> Rect {
        let minX = min(a.origin.x, b.origin.x), minY = min(a.origin.y, b.origin.y)
        let maxX = max(a.origin.x + a.size.width, b.origin.x + b.size.width)
        let maxY = max(a.origin.y + a.size.height, b.origin.y + b.size.height)
        return Rect(origin: Point(x: minX, y: minY), size: Size(width: maxX - minX, height: maxY - minY))
    }

    /// The alpha of `#RRGGBBAA`, 0…1.
    private static func alpha(_ color: String) -> Double {
        Double(UInt8(color.suffix(2), radix: 16) ?? 255) / 255
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
