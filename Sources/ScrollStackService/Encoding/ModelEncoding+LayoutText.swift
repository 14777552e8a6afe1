import Jansson
import ScrollStackCore

/// The layout answers written straight to text with a `JSONWriter`: one pass from the model to
/// bytes, no `JSON` tree per row. The text is byte for byte what the tree encoding
/// (`layout(revision:_:content:)` with the carousel and page members) serializes to; the
/// members that are small and rare (carousel, content frames) are built as values and written.
extension ModelEncoding {
    /// One layout answer: `layout(revision:_:content:)`'s members with a carousel's, each fit
    /// row's content frames when `contentFrames`, and for a page, `visibleRows` and
    /// `entirelyVisibleRows` of the whole viewport, `page` and `next` (a URL, or null at the
    /// end). `revision` is omitted when nil; `device` (`{"name", "width", "height"}`) leads
    /// the members when given, as in a `?devices=` answer. O(rows answered) after the layout.
    static func writeLayout(_ w: inout JSONWriter, revision: Int?, _ laid: LaidOut, page: Range<Int>?, next: String?,
                            contentFrames: Bool, device: Device? = nil) {
        let layout = laid.layout
        writeLayoutHead(&w, revision: revision, layout, device: device)
        for row in layout.rows { writeLayoutRow(&w, row, of: laid.stack, contentFrames: contentFrames) }
        let window = page == nil ? layout : laid.window ?? layout
        writeLayoutTail(&w, visible: window.rows.filter { $0.visibility.isVisible }.map(\.id),
                        entire: window.rows.filter { $0.visibility == .entire }.map(\.id), of: laid.stack, offset: layout.offset)
        if let page, laid.window != nil {
            w.key(ascii: "page")
            w.beginObject()
            w.key(ascii: "from")
            w.integer(Int64(page.lowerBound))
            w.key(ascii: "limit")
            w.integer(Int64(page.count))
            w.key(ascii: "total")
            w.integer(Int64(laid.stack.count))
            w.endObject()
            w.key(ascii: "next")
            if let next { w.string(next) } else { w.null() }
        }
        w.endObject()
    }

    /// The answer's opening up to and including `"rows":[`: device, revision, axis, viewport,
    /// offset and content size (`layout`'s rows are not read).
    static func writeLayoutHead(_ w: inout JSONWriter, revision: Int?, _ layout: StackLayout, device: Device?) {
        w.beginObject()
        if let device {
            w.key(ascii: "device")
            w.beginObject()
            w.key(ascii: "name")
            w.string(device.name)
            w.key(ascii: "width")
            w.number(device.size.width)
            w.key(ascii: "height")
            w.number(device.size.height)
            w.endObject()
        }
        if let revision {
            w.key(ascii: "revision")
            w.integer(Int64(revision))
        }
        w.key(ascii: "axis")
        w.string(layout.axis.rawValue)
        w.key(ascii: "viewport")
        writeSize(&w, layout.viewport, rounded: false)
        w.key(ascii: "offset")
        w.beginObject()
        w.key(ascii: "x")
        w.number(layout.offset.x)
        w.key(ascii: "y")
        w.number(layout.offset.y)
        w.endObject()
        w.key(ascii: "contentSize")
        writeSize(&w, layout.contentSize, rounded: true)
        w.key(ascii: "rows")
        w.beginArray()
    }

    /// One element of `rows`. Its fixed runs of keys are written as fragments (one copy each).
    static func writeLayoutRow(_ w: inout JSONWriter, _ row: RowLayout, of stack: ScrollStack, contentFrames: Bool) {
        w.beginObject()
        w.key(ascii: "id")
        w.string(row.id)
        w.fragment(#","index":"#)
        w.integer(Int64(row.index))
        w.fragment(#","frame":"#)
        writeRectMembers(&w, row.frame, opening: #"{"x":"#)
        writeRectMembers(&w, row.contentFrame, opening: #"},"contentFrame":{"x":"#)
        if let separator = row.separatorFrame {
            writeRectMembers(&w, separator, opening: #"},"separatorFrame":{"x":"#)
            w.fragment(#"},"visibility":"#)
        } else {
            w.fragment(#"},"separatorFrame":null,"visibility":"#)
        }
        var fraction = (row.visibility.fraction * 1_000_000).rounded() / 1_000_000
        if case .partial = row.visibility { fraction = min(max(fraction, 0.000001), 0.999999) }
        w.string(row.visibility.name)
        w.fragment(#","visibleFraction":"#)
        w.number(fraction)
        if contentFrames, let frames = stack.contentFrames(of: row) {
            w.key(ascii: "content")
            w.value(contentFrame(frames))
        }
        w.endObject()
    }

    /// From the end of `rows` to the carousel's members: `visibleRows`, `entirelyVisibleRows`
    /// and `paging`, `pageIndicator`, `menu` when the stack has them. The object stays open.
    static func writeLayoutTail(_ w: inout JSONWriter, visible: [String], entire: [String], of stack: ScrollStack, offset: Point) {
        w.endArray()
        w.key(ascii: "visibleRows")
        w.beginArray()
        for id in visible { w.string(id) }
        w.endArray()
        w.key(ascii: "entirelyVisibleRows")
        w.beginArray()
        for id in entire { w.string(id) }
        w.endArray()
        for (key, value) in carouselLayout(stack, offset: offset) {
            w.key(key)
            w.value(value)
        }
    }

    /// `computed(_:)`'s number: rounded to 10⁻⁶ when finite and below 10¹².
    static func computedValue(_ value: Double) -> Double {
        guard value.isFinite, abs(value) < 1e12 else { return value }
        return (value * 1_000_000).rounded() / 1_000_000
    }

    /// `opening` (which ends with `"x":`), then the rest of `rect(_:)`'s members (`x`, `y`,
    /// `width`, `height` as `computedValue`s), without the closing brace.
    private static func writeRectMembers(_ w: inout JSONWriter, _ r: Rect, opening: StaticString) {
        w.fragment(opening)
        w.number(computedValue(r.minX))
        w.fragment(#","y":"#)
        w.number(computedValue(r.minY))
        w.fragment(#","width":"#)
        w.number(computedValue(r.size.width))
        w.fragment(#","height":"#)
        w.number(computedValue(r.size.height))
    }

    private static func writeSize(_ w: inout JSONWriter, _ s: Size, rounded: Bool) {
        w.beginObject()
        w.key(ascii: "width")
        w.number(rounded ? computedValue(s.width) : s.width)
        w.key(ascii: "height")
        w.number(rounded ? computedValue(s.height) : s.height)
        w.endObject()
    }
}
