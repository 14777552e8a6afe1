import JSONCodec
import ScrollStackCore
import ScrollStackTransitions

/// The mutation answer, its rows and its events, written straight into a `JSONWriter`: the
/// one encoding of each. Rare parts (props, content descriptions, titles, row transitions)
/// are built as small `JSON` values and written whole.
extension ModelEncoding {
    /// The answer to a mutation (`writeMutationOpening`), with the member `transition`
    /// (`writePlan`) last when `transition` is given.
    ///
    /// - Complexity: O(changed and removed rows × log n + events + the plan's rows).
    static func mutationText(revision: Int, _ result: OperationResult, in stack: ScrollStack, transition: TransitionPlan? = nil,
                             realPrecision: Int = 15) -> [UInt8] {
        mutationText(revision: revision, result, changed: changedRows(result, in: stack), transition: transition, realPrecision: realPrecision)
    }

    /// The rows `result` changed, as `stack` has them after it, with their indexes (a row
    /// changed and then removed is left out): what the answer's `changed` lists. Taken under
    /// the stack's lock, so that the answer is written after it is released.
    /// O(changed rows × log n).
    static func changedRows(_ result: OperationResult, in stack: ScrollStack) -> [(row: Row, index: Int)] {
        var rows: [(row: Row, index: Int)] = []
        rows.reserveCapacity(result.changed.count)
        for id in result.changed {
            if let index = stack.index(ofID: id) { rows.append((stack.row(at: index), index)) }
        }
        return rows
    }

    /// `mutationText(revision:_:in:transition:)`, with the changed rows already taken
    /// (`changedRows`). O(changed and removed rows + events + the plan's rows).
    static func mutationText(revision: Int, _ result: OperationResult, changed: [(row: Row, index: Int)],
                             transition: TransitionPlan? = nil, realPrecision: Int = 15) -> [UInt8] {
        var w = JSONWriter(realPrecision: realPrecision, capacity: mutationCapacity(result, planRows: transition?.rows.count ?? 0))
        writeMutationOpening(revision: revision, result, changed: changed, into: &w)
        if let transition {
            w.key(ascii: "transition")
            writePlan(transition, revision: revision, into: &w)
        }
        w.endObject()
        return w.take()
    }

    /// The answer to every mutation up to its events, the object left open for what some
    /// add (`transition`, a carousel's geometry, a scroll's window): `revision`, the rows it
    /// touched (`changed`, with their indexes), the rows it removed (`removed`, with their
    /// former indexes, when any) and its `events`.
    static func writeMutationOpening(revision: Int, _ result: OperationResult, changed: [(row: Row, index: Int)], into w: inout JSONWriter) {
        w.beginObject()
        w.key(ascii: "revision")
        w.integer(Int64(revision))
        w.key(ascii: "changed")
        w.beginArray()
        for (row, index) in changed { writeRow(row, index: index, into: &w) }
        w.endArray()
        if !result.removed.isEmpty {
            w.key(ascii: "removed")
            w.beginArray()
            for removed in result.removed { writeRow(removed.row, index: removed.index, into: &w) }
            w.endArray()
        }
        w.key(ascii: "events")
        writeEvents(result.events, into: &w)
    }

    /// A first guess at a mutation answer's size, so that its writer rarely grows.
    static func mutationCapacity(_ result: OperationResult, planRows: Int) -> Int {
        256 + 192 * (result.changed.count + result.removed.count) + 64 * result.events.count + 800 * planRows
    }

    /// A revision's events as a JSON array's text (`writeEvents`): the journal keeps them at
    /// 17 digits, answers and live streams write them at 15; each ends with `"time": time`
    /// when given.
    static func eventsText(_ events: [StackEvent], realPrecision: Int, time: String? = nil) -> [UInt8] {
        var w = JSONWriter(realPrecision: realPrecision, capacity: 2 + (time == nil ? 64 : 96) * events.count)
        writeEvents(events, time: time, into: &w)
        return w.take()
    }

    /// A row as the client wrote it (overrides only where set), plus its index when given:
    /// the one encoding of a row, in every answer that lists rows. O(the row's members).
    static func writeRow(_ row: Row, index: Int?, into w: inout JSONWriter) {
        writeRowOpening(row, index: index, into: &w)
        w.endObject()
    }

    /// `{"revision", "rows"` with each row and its index (`writeRow`), the object left open:
    /// a rows list, whole or a page of it.
    static func writeRowsOpening(_ rows: [(row: Row, index: Int)], revision: Int, into w: inout JSONWriter) {
        w.beginObject()
        w.key(ascii: "revision")
        w.integer(Int64(revision))
        w.key(ascii: "rows")
        w.beginArray()
        for (row, index) in rows { writeRow(row, index: index, into: &w) }
        w.endArray()
    }

    /// `writeRow`'s members with the object left open, for answers that add members of
    /// their own (a row's frame and visibility).
    static func writeRowOpening(_ row: Row, index: Int?, into w: inout JSONWriter) {
        w.beginObject()
        w.key(ascii: "id")
        w.string(row.id)
        if let index {
            w.key(ascii: "index")
            w.integer(Int64(index))
        }
        switch row.content {
        case .controller(let c):
            w.key(ascii: "controller")
            w.beginObject()
            w.key(ascii: "type")
            w.string(c.type)
            if let instance = c.instance {
                w.key(ascii: "instance")
                w.string(instance)
            }
            if let props = c.properties {
                w.key(ascii: "props")
                w.value(properties(props))
            }
            w.endObject()
        case .view(let v):
            w.key(ascii: "view")
            w.beginObject()
            w.key(ascii: "type")
            w.string(v.type)
            if let props = v.properties {
                w.key(ascii: "props")
                w.value(properties(props))
            }
            w.endObject()
        }
        w.key(ascii: "size")
        writeSizeRule(row.size, into: &w)
        if let content = row.contentDescription {
            w.key(ascii: "content")
            w.value(contentDescription(content))
        }
        if let rowInsets = row.insets {
            w.key(ascii: "insets")
            writeInsets(rowInsets, into: &w)
        }
        if !row.separator.isEmpty {
            w.key(ascii: "separator")
            w.beginObject()
            if let hidden = row.separator.hidden {
                w.key(ascii: "hidden")
                w.bool(hidden)
            }
            if let thickness = row.separator.thickness {
                w.key(ascii: "thickness")
                w.number(thickness)
            }
            if let separatorInsets = row.separator.insets {
                w.key(ascii: "insets")
                writeInsets(separatorInsets, into: &w)
            }
            if let color = row.separator.color {
                w.key(ascii: "color")
                w.string(color)
            }
            w.endObject()
        }
        w.key(ascii: "hidden")
        w.bool(row.hidden)
        w.key(ascii: "tappable")
        w.bool(row.tappable)
        w.key(ascii: "highlightable")
        w.bool(row.highlightable)
        if let rowTitle = row.title {
            w.key(ascii: "title")
            w.value(title(rowTitle))
        }
        if let transition = row.transition {
            w.key(ascii: "transition")
            w.value(rowTransition(transition))
        }
        if let style = row.style {
            w.key(ascii: "style")
            w.value(rowStyle(style))
        }
        if let embedded = row.stack {
            w.key(ascii: "stack")
            w.string(embedded)
        }
    }

    /// A row's frame, content frame, separator frame (or null) and visibility as members of
    /// an open object: how the row answer and the hit answer place a row. (A layout's rows
    /// are written by `writeLayoutRowOpening`, which copies repeated numbers.)
    static func writeRowPlacement(_ l: RowLayout, into w: inout JSONWriter) {
        w.key(ascii: "frame")
        writeRect(l.frame, into: &w)
        w.key(ascii: "contentFrame")
        writeRect(l.contentFrame, into: &w)
        w.key(ascii: "separatorFrame")
        if let separator = l.separatorFrame { writeRect(separator, into: &w) } else { w.null() }
        writeVisibility(l.visibility, into: &w)
    }

    /// `"visibility"` and `"visibleFraction"` (`answeredFraction`) as members of an open object.
    static func writeVisibility(_ v: Visibility, into w: inout JSONWriter) {
        w.key(ascii: "visibility")
        w.string(v.name)
        w.key(ascii: "visibleFraction")
        w.number(answeredFraction(v))
    }

    /// A visibility's fraction as answers give it: rounded to 10⁻⁶, a partial one kept
    /// strictly between 0 and 1 (10⁻⁶ and 1 − 10⁻⁶ at the ends).
    static func answeredFraction(_ v: Visibility) -> Double {
        let fraction = (v.fraction * 1_000_000).rounded() / 1_000_000
        guard case .partial = v else { return fraction }
        return min(max(fraction, 0.000001), 0.999999)
    }

    /// The events, in order, as an array.
    static func writeEvents(_ events: [StackEvent], time: String? = nil, into w: inout JSONWriter) {
        w.beginArray()
        for event in events { writeEvent(event, time: time, into: &w) }
        w.endArray()
    }

    /// One event: `type`, then its members (the row's `id` and `index`, `from` and `to`, a
    /// visibility), then `time` when given (when its revision was made, `EventTime`).
    static func writeEvent(_ event: StackEvent, time: String? = nil, into w: inout JSONWriter) {
        w.beginObject()
        w.key(ascii: "type")
        w.string(event.name)
        func idIndex(_ id: String, _ index: Int) {
            w.key(ascii: "id")
            w.string(id)
            w.key(ascii: "index")
            w.integer(Int64(index))
        }
        switch event {
        case .rowAdded(let id, let index), .rowRemoved(let id, let index), .rowHidden(let id, let index), .rowShown(let id, let index):
            idIndex(id, index)
        case .rowMoved(let id, let from, let to):
            w.key(ascii: "id")
            w.string(id)
            w.key(ascii: "from")
            w.integer(Int64(from))
            w.key(ascii: "to")
            w.integer(Int64(to))
        case .rowResized(let id, let index, let from, let to):
            idIndex(id, index)
            w.key(ascii: "from")
            writeComputed(from, into: &w)
            w.key(ascii: "to")
            writeComputed(to, into: &w)
        case .becameVisible(let id, let index, let v), .becameHidden(let id, let index, let v):
            idIndex(id, index)
            writeVisibility(v, into: &w)
        case .contentSizeChanged(let from, let to):
            w.key(ascii: "from")
            writeSize(&w, from, rounded: true)
            w.key(ascii: "to")
            writeSize(&w, to, rounded: true)
        case .didScroll(let from, let to):
            w.key(ascii: "from")
            writePoint(from, into: &w)
            w.key(ascii: "to")
            writePoint(to, into: &w)
        case .layoutUpdated:
            break
        }
        if let time {
            w.key(ascii: "time")
            w.string(time)
        }
        w.endObject()
    }

    /// `computed(_:)`, written.
    static func writeComputed(_ value: Double, into w: inout JSONWriter) {
        guard value.isFinite, abs(value) < 1e12 else { return w.number(value) }
        w.number((value * 1_000_000).rounded() / 1_000_000)
    }

    static func writePoint(_ p: Point, into w: inout JSONWriter) {
        w.beginObject()
        w.key(ascii: "x")
        w.number(p.x)
        w.key(ascii: "y")
        w.number(p.y)
        w.endObject()
    }

    private static func writeInsets(_ i: EdgeInsets, into w: inout JSONWriter) {
        w.beginObject()
        w.key(ascii: "top")
        w.number(i.top)
        w.key(ascii: "left")
        w.number(i.left)
        w.key(ascii: "bottom")
        w.number(i.bottom)
        w.key(ascii: "right")
        w.number(i.right)
        w.endObject()
    }

    private static func writeSizeRule(_ rule: SizeRule, into w: inout JSONWriter) {
        guard rule.vertical == rule.horizontal else { return w.value(sizeRule(rule)) }
        switch rule.vertical {
        case .fit: w.string("fit")
        case .fixed(let length):
            w.beginObject()
            w.key(ascii: "fixed")
            w.number(length)
            w.endObject()
        }
    }
}
