import JSONCodec
import ScrollStackCore
import ScrollStackTransitions

/// A stack's transition plan written straight into a `JSONWriter`: the bytes of
/// `plan(_:revision:)` serialized at the same precision (tested on random plans), without the
/// tree, which costs most of an animated change of many rows.
extension ModelEncoding {
    /// The text of `plan(p, revision:).serialized(realPrecision:)`: the journal's copy (17
    /// digits), or an answer (15).
    ///
    /// - Complexity: O(the plan's rows).
    static func planText(_ p: TransitionPlan, revision: Int, realPrecision: Int) -> [UInt8] {
        var w = JSONWriter(realPrecision: realPrecision, capacity: 640 + 800 * p.rows.count)
        writePlan(p, revision: revision, into: &w)
        return w.take()
    }

    /// `plan(_:revision:)`, written.
    static func writePlan(_ p: TransitionPlan, revision: Int, into w: inout JSONWriter) {
        w.beginObject()
        w.key(ascii: "revision")
        w.integer(Int64(revision))
        w.key(ascii: "animated")
        w.bool(p.animated)
        w.key(ascii: "timing")
        writeTiming(p.timing, into: &w)
        w.key(ascii: "axis")
        w.beginObject()
        w.key(ascii: "from")
        w.string(p.axis.from.rawValue)
        w.key(ascii: "to")
        w.string(p.axis.to.rawValue)
        w.endObject()
        w.key(ascii: "viewport")
        w.beginObject()
        w.key(ascii: "from")
        writeSize(&w, p.viewport.from, rounded: false)
        w.key(ascii: "to")
        writeSize(&w, p.viewport.to, rounded: false)
        w.endObject()
        w.key(ascii: "contentSize")
        w.beginObject()
        w.key(ascii: "from")
        writeSize(&w, p.contentSize.from, rounded: true)
        w.key(ascii: "to")
        writeSize(&w, p.contentSize.to, rounded: true)
        w.endObject()
        w.key(ascii: "offset")
        w.beginObject()
        w.key(ascii: "from")
        writePoint(p.offset.from, into: &w)
        w.key(ascii: "to")
        writePoint(p.offset.to, into: &w)
        w.endObject()
        w.key(ascii: "rows")
        w.beginArray()
        for e in p.rows {
            w.beginObject()
            w.key(ascii: "id")
            w.string(e.id)
            w.key(ascii: "change")
            w.string(e.change.rawValue)
            w.key(ascii: "enter")
            w.bool(e.enter)
            w.key(ascii: "exit")
            w.bool(e.exit)
            w.key(ascii: "from")
            writeRowState(e.from, into: &w)
            w.key(ascii: "to")
            writeRowState(e.to, into: &w)
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }

    /// `timing(_:)`, written.
    private static func writeTiming(_ t: AnimationTiming, into w: inout JSONWriter) {
        let spring = t.spring
        w.beginObject()
        if let bezier = t.curve.bezier {
            w.key(ascii: "duration")
            w.number(t.duration)
            w.key(ascii: "delay")
            w.number(t.delay)
            w.key(ascii: "curve")
            w.string(t.curve.rawValue)
            w.key(ascii: "controlPoints")
            w.beginArray()
            for value in [bezier.x1, bezier.y1, bezier.x2, bezier.y2] { w.number(value) }
            w.endArray()
            w.key(ascii: "restTime")
            writeComputed(t.restTime, into: &w)
            w.endObject()
            return
        }
        w.key(ascii: "duration")
        w.number(t.duration)
        w.key(ascii: "delay")
        w.number(t.delay)
        w.key(ascii: "damping")
        w.number(t.damping)
        w.key(ascii: "initialVelocity")
        w.number(t.initialVelocity)
        w.key(ascii: "curve")
        w.string("spring")
        w.key(ascii: "stiffness")
        writeComputed(spring.stiffness, into: &w)
        w.key(ascii: "dampingCoefficient")
        writeComputed(spring.dampingCoefficient, into: &w)
        w.key(ascii: "settleTime")
        writeComputed(spring.settleTime, into: &w)
        w.key(ascii: "restTime")
        writeComputed(t.restTime, into: &w)
        w.endObject()
    }

    /// `rowState(_:)`, written.
    private static func writeRowState(_ s: RowState, into w: inout JSONWriter) {
        w.beginObject()
        if let index = s.index {
            w.key(ascii: "index")
            w.integer(Int64(index))
        }
        w.key(ascii: "frame")
        writeRect(s.frame, into: &w)
        w.key(ascii: "contentFrame")
        writeRect(s.contentFrame, into: &w)
        w.key(ascii: "separatorFrame")
        if let separator = s.separatorFrame { writeRect(separator, into: &w) } else { w.null() }
        w.key(ascii: "alpha")
        w.number(s.alpha)
        w.key(ascii: "hidden")
        w.bool(s.hidden)
        w.key(ascii: "translate")
        writePoint(s.translate, into: &w)
        w.key(ascii: "scale")
        w.number(s.scale)
        w.endObject()
    }

    /// `rect(_:)`, written.
    private static func writeRect(_ r: Rect, into w: inout JSONWriter) {
        w.beginObject()
        w.key(ascii: "x")
        writeComputed(r.minX, into: &w)
        w.key(ascii: "y")
        writeComputed(r.minY, into: &w)
        w.key(ascii: "width")
        writeComputed(r.size.width, into: &w)
        w.key(ascii: "height")
        writeComputed(r.size.height, into: &w)
        w.endObject()
    }
}
