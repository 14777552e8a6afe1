import JSONCodec
import ScrollStackCore

/// The layout answers written straight to text with a `JSONWriter`: one pass from the model to
/// bytes, no `JSON` tree per row; the one encoding of a layout (the stored, stateless,
/// streamed, paged, per-device and embedded layouts, and a scroll's window). The members that
/// are small and rare (carousel, content frames) are built as values and written.
extension ModelEncoding {
    /// One layout answer: `revision` (when given), `axis`, `viewport`, `offset`,
    /// `contentSize`, `rows`, `visibleRows`, `entirelyVisibleRows`, a carousel's members, each fit
    /// row's content frames when `contentFrames`, and for a page, `visibleRows` and
    /// `entirelyVisibleRows` of the whole viewport, `page` and `next` (a URL, or null at the
    /// end). `revision` is omitted when nil; `device` (`{"name", "width", "height"}`) leads
    /// the members when given, as in a `?devices=` answer. O(rows answered) after the layout.
    static func writeLayout(_ w: inout JSONWriter, revision: Int?, _ laid: LaidOut, page: Range<Int>?, next: String?,
                            contentFrames: Bool, device: Device? = nil) {
        writeLayout(&w, revision: revision, laid.layout, window: laid.window, of: laid.stack, page: page, next: next,
                    contentFrames: contentFrames, device: device)
    }

    /// `writeLayout(_:revision:_:page:next:contentFrames:device:)` of a layout's parts (the
    /// rows, a page's window, the stack laid out), so that the stack need not be copied into a `LaidOut`.
    /// With `embedded`, each row that embeds a stack also gets that stack's layout (`EmbeddedLayouts`).
    static func writeLayout(_ w: inout JSONWriter, revision: Int?, _ layout: StackLayout, window pageWindow: StackLayout?,
                            of stack: ScrollStack, page: Range<Int>?, next: String?, contentFrames: Bool, device: Device? = nil,
                            embedded: EmbeddedLayouts? = nil) {
        writeLayoutHead(&w, revision: revision, layout, device: device)
        if layout.rows.count > 1 { w.keepRepeats(slots: rowMemoSlots) }
        if let embedded {
            // The memo stays on: its slots are keyed by value, so the nested rows written
            // between two of these rows leave it right.
            let root = EmbeddedLayouts.root(layout)
            let embedding = EmbeddedLayouts.embeddingRows(of: stack, answering: layout.rows.count)
            for row in layout.rows {
                writeLayoutRowOpening(&w, id: row.id, index: row.index, frame: row.frame, contentFrame: row.contentFrame,
                                      separatorFrame: row.separatorFrame, visibility: row.visibility, axis: stack.settings.axis)
                if contentFrames, let frames = stack.contentFrames(of: row) {
                    w.key(ascii: "content")
                    w.value(contentFrame(frames))
                }
                if let id = embedding.map({ $0[row.index] }) ?? stack.embeddedStack(ofRow: row.id) {
                    embedded.writeMember(&w, id: id, row, root)
                }
                w.endObject()
            }
        } else {
            for row in layout.rows { writeLayoutRow(&w, row, of: stack, contentFrames: contentFrames) }
        }
        let window = page == nil ? layout : pageWindow ?? layout
        writeLayoutTail(&w, visible: window.rows.lazy.filter { $0.visibility.isVisible }.map(\.id),
                        entire: window.rows.lazy.filter { $0.visibility == .entire }.map(\.id), of: stack, offset: layout.offset)
        if let page, pageWindow != nil {
            writePage(page, total: stack.count, into: &w)
            w.key(ascii: "next")
            if let next { w.string(next) } else { w.null() }
        }
        w.endObject()
    }

    /// `{"name", "width", "height", "platform", "orientation", "safeArea"}`: a device as layout
    /// answers and `GET /v1/devices` give it.
    static func writeDevice(_ device: Device, into w: inout JSONWriter) {
        w.beginObject()
        w.key(ascii: "name")
        w.string(device.name)
        w.key(ascii: "width")
        w.number(device.size.width)
        w.key(ascii: "height")
        w.number(device.size.height)
        w.key(ascii: "platform")
        w.string(device.platform.rawValue)
        w.key(ascii: "orientation")
        w.string(device.orientation.rawValue)
        w.key(ascii: "safeArea")
        w.value(insets(device.safeArea))
        w.endObject()
    }

    /// The answer's opening up to and including `"rows":[`: device, revision, axis, viewport,
    /// offset and content size (`layout`'s rows are not read).
    static func writeLayoutHead(_ w: inout JSONWriter, revision: Int?, _ layout: StackLayout, device: Device?) {
        w.beginObject()
        if let device {
            w.key(ascii: "device")
            writeDevice(device, into: &w)
        }
        if let revision {
            w.key(ascii: "revision")
            w.integer(Int64(revision))
        }
        writeLayoutGeometry(&w, layout)
        w.key(ascii: "rows")
        w.beginArray()
    }

    /// `axis`, `viewport`, `offset` and `contentSize` of a layout, as members of an open object.
    static func writeLayoutGeometry(_ w: inout JSONWriter, _ layout: StackLayout) {
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
    }

    /// One element of `rows`; when the writer keeps repeats (`rowMemoSlots`), numbers equal
    /// to the previous row's are copied from it.
    static func writeLayoutRow(_ w: inout JSONWriter, _ row: RowLayout, of stack: ScrollStack, contentFrames: Bool) {
        writeLayoutRowOpening(&w, id: row.id, index: row.index, frame: row.frame, contentFrame: row.contentFrame,
                              separatorFrame: row.separatorFrame, visibility: row.visibility, axis: stack.settings.axis)
        if contentFrames, let frames = stack.contentFrames(of: row) {
            w.key(ascii: "content")
            w.value(contentFrame(frames))
        }
        w.endObject()
    }

    /// The memo slots of a layout's rows (`JSONWriter.keepRepeats(slots:)`): 0 to 12 for a
    /// row's 13 numbers, so that a number equal to the one in its place in the row before
    /// (x, width and height in a column) is copied instead of formatted (a vertical stack's
    /// y values are always formatted); 13 to 17 for the runs of a vertical stack's row
    /// between its y values (`writeLayoutRowOpening`). Slot i always holds the same part's
    /// text, for any writer that writes layout rows.
    static let rowMemoSlots = 18

    /// An element of `rows` up to its `visibleFraction` (the object stays open), in one
    /// capacity check: the fixed runs of keys as fragments, numbers written in place, or
    /// when the writer keeps repeats, copied from the previous row's where they are the same
    /// value. In a vertical stack, where rows of a column differ in their y values only, the
    /// text between two y values is copied whole when all its numbers are the previous row's.
    static func writeLayoutRowOpening(_ w: inout JSONWriter, id: String, index: Int, frame: Rect, contentFrame: Rect,
                                      separatorFrame: Rect?, visibility: Visibility, axis: Axis) {
        let fraction = answeredFraction(visibility)
        let name = visibility.name
        w.write(room: JSONCursor.stringRoom(id) + JSONCursor.stringRoom(name) + rowRoom) { c in
            c.text(#"{"id":"#)
            c.string(id)
            c.text(#","index":"#)
            c.integer(Int64(index))
            guard axis == .vertical else {
                c.text(#","frame":{"x":"#)
                writeRectMembers(&c, frame, slot: 0)
                c.text(#"},"contentFrame":{"x":"#)
                writeRectMembers(&c, contentFrame, slot: 4)
                if let separatorFrame {
                    c.text(#"},"separatorFrame":{"x":"#)
                    writeRectMembers(&c, separatorFrame, slot: 8)
                    c.text(#"},"visibility":"#)
                } else {
                    c.text(#"},"separatorFrame":null,"visibility":"#)
                }
                writeVisibilityValues(&c, name, fraction)
                return
            }
            c.write(SIMD4(frame.minX.bitPattern, 0, 0, 0), slot: 13) { c in
                c.text(#","frame":{"x":"#)
                writeComputed(&c, frame.minX, slot: 0)
                c.text(#","y":"#)
            }
            writeNumber(&c, frame.minY)
            c.write(SIMD4(frame.size.width.bitPattern, frame.size.height.bitPattern, contentFrame.minX.bitPattern, 0), slot: 14) { c in
                writeSizeMembers(&c, frame.size, slot: 2)
                c.text(#"},"contentFrame":{"x":"#)
                writeComputed(&c, contentFrame.minX, slot: 4)
                c.text(#","y":"#)
            }
            writeNumber(&c, contentFrame.minY)
            let visibilityKey = fraction.bitPattern ^ visibilityCode(visibility)
            if let separatorFrame {
                c.write(SIMD4(contentFrame.size.width.bitPattern, contentFrame.size.height.bitPattern, separatorFrame.minX.bitPattern, 0),
                        slot: 15) { c in
                    writeSizeMembers(&c, contentFrame.size, slot: 6)
                    c.text(#"},"separatorFrame":{"x":"#)
                    writeComputed(&c, separatorFrame.minX, slot: 8)
                    c.text(#","y":"#)
                }
                writeNumber(&c, separatorFrame.minY)
                c.write(SIMD4(separatorFrame.size.width.bitPattern, separatorFrame.size.height.bitPattern, visibilityKey, 0), slot: 16) { c in
                    writeSizeMembers(&c, separatorFrame.size, slot: 10)
                    c.text(#"},"visibility":"#)
                    writeVisibilityValues(&c, name, fraction)
                }
            } else {
                c.write(SIMD4(contentFrame.size.width.bitPattern, contentFrame.size.height.bitPattern, visibilityKey, 0), slot: 17) { c in
                    writeSizeMembers(&c, contentFrame.size, slot: 6)
                    c.text(#"},"separatorFrame":null,"visibility":"#)
                    writeVisibilityValues(&c, name, fraction)
                }
            }
        }
    }

    /// The visibility's name, then `visibleFraction` and its value (through memo slot 12):
    /// what follows `"visibility":` in a row.
    @inline(__always)
    private static func writeVisibilityValues(_ c: inout JSONCursor, _ name: String, _ fraction: Double) {
        c.string(name)
        c.text(#","visibleFraction":"#)
        c.write(fraction.bitPattern, slot: 12) { $0.number(fraction) }
    }

    /// A key word for the visibility's case, to be mixed with its fraction's bits: the
    /// fraction tells the cases apart but for `hidden` and `offscreen` (both 0). A fraction
    /// from 0 to 1 has its two top bits (the sign and the exponent's top bit) clear; these
    /// codes set them to 10 for `hidden` and 11 for `offscreen`.
    private static func visibilityCode(_ visibility: Visibility) -> UInt64 {
        switch visibility {
        case .hidden: 1 << 63
        case .offscreen: 3 << 62
        case .entire, .partial: 0
        }
    }

    /// The most bytes of a row's opening besides its id and visibility name: 13 numbers, the
    /// index, under 200 bytes of keys and punctuation, and the memo's overshoot.
    private static let rowRoom = 13 * JSONCursor.numberRoom + JSONCursor.integerRoom + 256 + JSONCursor.memoOvershoot

    /// From the end of `rows` to the carousel's members: `visibleRows`, `entirelyVisibleRows`
    /// and `paging`, `pageIndicator`, `menu` when the stack has them. The object stays open.
    static func writeLayoutTail(_ w: inout JSONWriter, visible: some Sequence<String>, entire: some Sequence<String>, of stack: ScrollStack,
                                offset: Point) {
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

    /// `computed(_:)`'s number: rounded to 10⁻⁶ when finite and below 10¹². A value whose
    /// millionfold is already whole (every value of whole, half or quarter points) skips the
    /// rounding call, which would leave it as it is.
    static func computedValue(_ value: Double) -> Double {
        guard value.isFinite, abs(value) < 1e12 else { return value }
        let scaled = value * 1_000_000
        if Double(Int64(scaled)) == scaled { return scaled / 1_000_000 }  // |scaled| < 1e18: Int64 holds it
        return scaled.rounded() / 1_000_000
    }

    /// `rect(_:)`'s members after `"x":` (the value of `x`, then `y`, `width`, `height`, as
    /// `computedValue`s), without the closing brace, through the memo slots `slot` to
    /// `slot + 3`. Inlined, so that its key runs are copied as literals of known size.
    @inline(__always)
    private static func writeRectMembers(_ c: inout JSONCursor, _ r: Rect, slot: Int) {
        writeComputed(&c, r.minX, slot: slot)
        c.text(#","y":"#)
        writeComputed(&c, r.minY, slot: slot + 1)
        writeSizeMembers(&c, r.size, slot: slot + 2)
    }

    /// `,"width":…,"height":…` as `computedValue`s, through the memo slots `slot` and
    /// `slot + 1`.
    @inline(__always)
    private static func writeSizeMembers(_ c: inout JSONCursor, _ size: Size, slot: Int) {
        c.text(#","width":"#)
        writeComputed(&c, size.width, slot: slot)
        c.text(#","height":"#)
        writeComputed(&c, size.height, slot: slot + 1)
    }

    /// `computedValue(value)` as a number, through the memo's `slot` (keyed by `value`'s bits,
    /// so the same value always gives the same text).
    @inline(__always)
    private static func writeComputed(_ c: inout JSONCursor, _ value: Double, slot: Int) {
        c.write(value.bitPattern, slot: slot) { writeNumber(&$0, value) }
    }

    /// `computedValue(value)` as a number, formatted (for a value that changes from row to
    /// row, such as a column's y). A whole value below 2³² is its own `computedValue` (its
    /// millionfold is exact) and is written as the integer it is.
    @inline(__always)
    private static func writeNumber(_ c: inout JSONCursor, _ value: Double) {
        if value.magnitude < 0x1p32, case let whole = Int64(value), Double(whole) == value {
            c.integer(whole)
        } else {
            c.number(computedValue(value))
        }
    }

    /// `"page": {"from", "limit", "total"}`: a paged answer's window of `total` items.
    static func writePage(_ page: Range<Int>, total: Int, into w: inout JSONWriter) {
        w.key(ascii: "page")
        w.beginObject()
        w.key(ascii: "from")
        w.integer(Int64(page.lowerBound))
        w.key(ascii: "limit")
        w.integer(Int64(page.count))
        w.key(ascii: "total")
        w.integer(Int64(total))
        w.endObject()
    }

    /// `size(_:)`, or `computedSize(_:)` when `rounded`, written.
    static func writeSize(_ w: inout JSONWriter, _ s: Size, rounded: Bool) {
        w.beginObject()
        w.key(ascii: "width")
        w.number(rounded ? computedValue(s.width) : s.width)
        w.key(ascii: "height")
        w.number(rounded ? computedValue(s.height) : s.height)
        w.endObject()
    }
}
