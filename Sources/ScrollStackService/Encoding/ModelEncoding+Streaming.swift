import JSONCodec
import MicroHTTP
import ScrollStackCore

/// Big answers produced a piece at a time as the client reads them (`HTTPBodySource`): the
/// same bytes as the whole-body encodings, in pieces of `rowsPerPiece` rows, so an answer
/// costs O(piece) memory beyond the model instead of the whole text (and the whole layout).
///
/// Each source keeps its own copy of the stack (an O(1) copy-on-write value): a change made
/// while the answer is being sent makes the stack's storage be copied once, and the answer
/// stays the one of the revision it names.
extension ModelEncoding {
    /// Rows encoded per piece.
    static let rowsPerPiece = 512

    /// Stacks of up to this many rows are laid out whole into a `LayoutBuffer` for a streamed
    /// full layout: about 90 bytes a row (11.5 MB here) held until the last piece, a third
    /// of the answer's text. Bigger stacks are laid out a piece at a time, so that their
    /// answers stay O(piece) in memory beyond the model, a million rows included.
    static let bufferedLayoutRows = 1 << 17

    /// The full layout of `stack` at `offset`, as `writeLayout` writes it with no window, no
    /// page and no device, in pieces of `rowsPerPiece` rows. A stack of at most `bufferedRows`
    /// rows is laid out once, into a `LayoutBuffer`, when the first piece is produced: O(n)
    /// then, O(rows per piece) per piece after. A bigger one is laid out per piece with
    /// `layout(offset:rows:)`: O(log n + rows per piece) per piece.
    static func layoutSource(revision: Int?, _ stack: ScrollStack, offset: Point?, contentFrames: Bool,
                             rowsPerPiece: Int = rowsPerPiece, bufferedRows: Int = bufferedLayoutRows) -> HTTPBodySource {
        var kept = LayoutStream(w: JSONWriter(capacity: rowsPerPiece * 320))
        kept.w.keepRepeats(slots: rowMemoSlots)
        return HTTPBodySource { out in
            // Each piece works on a local moved out of the closure's box and back: every
            // access to a captured variable is checked for exclusivity at run time.
            var s = LayoutStream(w: JSONWriter())
            swap(&s, &kept)
            defer { swap(&s, &kept) }
            if s.next < 0 {
                writeLayoutHead(&s.w, revision: revision, stack.layout(offset: offset, rows: 0..<0), device: nil)
                if stack.count <= bufferedRows { stack.layout(into: &s.layout, offset: offset) }
                s.next = 0
            }
            if s.next < stack.count {
                let end = min(stack.count, s.next + rowsPerPiece)
                if s.layout.count == stack.count {
                    let axis = stack.settings.axis
                    for i in s.next..<end {
                        let visibility = s.layout.visibility(at: i)
                        let id = s.layout.id(at: i)
                        if contentFrames {
                            writeLayoutRow(&s.w, s.layout[i], of: stack, contentFrames: true)
                        } else {
                            writeLayoutRowOpening(&s.w, id: id, index: i, frame: s.layout.frame(at: i), contentFrame: s.layout.contentFrame(at: i),
                                                  separatorFrame: s.layout.separatorFrame(at: i), visibility: visibility, axis: axis)
                            s.w.endObject()
                        }
                        if visibility.isVisible { s.visible.append(id) }
                        if visibility == .entire { s.entire.append(id) }
                    }
                } else {
                    for row in stack.layout(offset: offset, rows: s.next..<end).rows {
                        writeLayoutRow(&s.w, row, of: stack, contentFrames: contentFrames)
                        if row.visibility.isVisible { s.visible.append(row.id) }
                        if row.visibility == .entire { s.entire.append(row.id) }
                    }
                }
                s.next = end
                s.w.flush(into: &out)
                return true
            }
            s.layout = LayoutBuffer()
            let layoutOffset = stack.layout(offset: offset, rows: 0..<0).offset
            writeLayoutTail(&s.w, visible: s.visible, entire: s.entire, of: stack, offset: layoutOffset)
            s.w.endObject()
            s.w.flush(into: &out)
            return false
        }
    }

    /// What a streamed layout keeps from one piece to the next.
    private struct LayoutStream {
        var w: JSONWriter
        /// The next row to write; -1 before the answer's opening.
        var next = -1
        /// The whole layout, for a stack of at most `bufferedRows` rows; empty otherwise.
        var layout = LayoutBuffer()
        /// The ids of the rows written so far that are visible, and entirely visible.
        var visible: [String] = []
        var entire: [String] = []
    }

    /// The whole model (`{"id", "revision", settings…, "contentSize", "rows"}`, every row as
    /// `writeRow` writes it with its index), in pieces of `rowsPerPiece` rows: the same bytes
    /// as `stackText`. O(log n + rows per piece) per piece.
    static func stackSource(id: String, revision: Int, _ stack: ScrollStack) -> HTTPBodySource {
        var w = JSONWriter(capacity: rowsPerPiece * 320)
        var next = -1
        return HTTPBodySource { out in
            if next < 0 {
                writeStackHead(id: id, revision: revision, stack, into: &w)
                next = 0
            }
            if next < stack.count {
                let end = min(stack.count, next + rowsPerPiece)
                for index in next..<end { writeRow(stack.row(at: index), index: index, into: &w) }
                next = end
                w.flush(into: &out)
                return true
            }
            w.endArray()
            w.endObject()
            w.flush(into: &out)
            return false
        }
    }

    /// The whole model as one text: the answer to a create and to `GET /v1/stacks/{stack}`
    /// below the streaming threshold (reals at 15 digits, as every answer; 17 compare
    /// models exactly). O(n).
    static func stackText(id: String, revision: Int, _ stack: ScrollStack, realPrecision: Int = 15) -> [UInt8] {
        var w = JSONWriter(realPrecision: realPrecision, capacity: 256 + 160 * stack.count)
        writeStackHead(id: id, revision: revision, stack, into: &w)
        for (index, row) in stack.rows.enumerated() { writeRow(row, index: index, into: &w) }
        w.endArray()
        w.endObject()
        return w.take()
    }

    /// The model's members up to its `rows` array, opened.
    private static func writeStackHead(id: String, revision: Int, _ stack: ScrollStack, into w: inout JSONWriter) {
        w.beginObject()
        w.key(ascii: "id")
        w.string(id)
        w.key(ascii: "revision")
        w.integer(Int64(revision))
        for (key, value) in settings(stack.settings) {
            w.key(key)
            w.value(value)
        }
        w.key(ascii: "contentSize")
        w.value(computedSize(stack.contentSize))
        w.key(ascii: "rows")
        w.beginArray()
    }
}
