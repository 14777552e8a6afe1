import JSONCodec
import ScrollStackCore
import ScrollStackTransitions

/// A stack's transition plan written straight into a `JSONWriter`: the one encoding of a
/// plan, in answers (15 digits) and in the journal (17).
extension ModelEncoding {
    /// The plan's text: the journal's copy (17 digits), or an answer (15).
    ///
    /// - Complexity: O(the plan's rows).
    static func planText(_ p: TransitionPlan, revision: Int, realPrecision: Int) -> [UInt8] {
        var w = JSONWriter(realPrecision: realPrecision, capacity: 640 + 800 * p.rows.count)
        writePlan(p, revision: revision, into: &w)
        return w.take()
    }

    /// A plan as the API answers it (and the journal keeps it): `revision`, `animated`,
    /// `timing`, `axis`, `viewport`, `contentSize`, `offset` (each `{from, to}`) and `rows`,
    /// each `{id, change, enter, exit, from, to}`. With `nested` (one entry per planned row),
    /// a row that embeds a stack also gets its `stack` member (`EmbeddedLayouts.nestedRows`);
    /// with `fps`, the plan ends with `fps` and `keyframes` (`writeKeyframes`, sampled from
    /// the plan as the journal keeps it).
    ///
    /// - Complexity: O(the plan's rows), plus O(keyframes × rows) with `fps`.
    static func writePlan(_ p: TransitionPlan, revision: Int, nested: [JSON?]? = nil, fps: Int? = nil, into w: inout JSONWriter) {
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
        for (i, e) in p.rows.enumerated() {
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
            if let nested, i < nested.count, let member = nested[i] {
                w.key(ascii: "stack")
                w.value(member)
            }
            w.endObject()
        }
        w.endArray()
        if let fps {
            // Sampled from the journal's copy read back, so that this answer and a later read
            // of the same revision (`GET …/transitions/{revision}?fps=`) give the same numbers.
            let kept = (try? JSON.parse(planText(p, revision: revision, realPrecision: 17))).flatMap(ModelDecoding.storedPlan) ?? p
            writeKeyframes(kept, fps: fps, into: &w)
        }
        w.endObject()
    }

    /// `"fps"` and `"keyframes"` as members of the open plan object: `p` sampled at `fps`
    /// (`KeyframeSampler`), each keyframe `{time, progress, offset, rows}`, each row
    /// `{id, frame, alpha}` plus `translate` and `scale` for a row whose plan moves or scales
    /// it. O(keyframes × rows).
    static func writeKeyframes(_ p: TransitionPlan, fps: Int, into w: inout JSONWriter) {
        let withLook = Set(p.rows.filter { e in
            e.from.scale != 1 || e.to.scale != 1 || e.from.translate != .zero || e.to.translate != .zero
        }.map(\.id))
        w.key(ascii: "fps")
        w.integer(Int64(fps))
        w.key(ascii: "keyframes")
        w.beginArray()
        for k in KeyframeSampler.sample(p, fps: fps) {
            w.beginObject()
            w.key(ascii: "time")
            writeComputed(k.time, into: &w)
            w.key(ascii: "progress")
            writeComputed(k.progress, into: &w)
            w.key(ascii: "offset")
            writeComputedPoint(k.offset, into: &w)
            w.key(ascii: "rows")
            w.beginArray()
            for r in k.rows {
                w.beginObject()
                w.key(ascii: "id")
                w.string(r.id)
                w.key(ascii: "frame")
                writeRect(r.frame, into: &w)
                w.key(ascii: "alpha")
                writeComputed(r.alpha, into: &w)
                if withLook.contains(r.id) {
                    w.key(ascii: "translate")
                    writeComputedPoint(r.translate, into: &w)
                    w.key(ascii: "scale")
                    writeComputed(r.scale, into: &w)
                }
                w.endObject()
            }
            w.endArray()
            w.endObject()
        }
        w.endArray()
    }

    /// `{"x", "y"}`, each rounded as a computed value is.
    private static func writeComputedPoint(_ p: Point, into w: inout JSONWriter) {
        w.beginObject()
        w.key(ascii: "x")
        writeComputed(p.x, into: &w)
        w.key(ascii: "y")
        writeComputed(p.y, into: &w)
        w.endObject()
    }

    /// A plan's timing: a spring's members and physics, or a timing curve's duration, delay,
    /// Bézier control points and rest time.
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

    /// A row's state at one end of a plan.
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

    /// `{x, y, width, height}`, each rounded as a computed value is.
    static func writeRect(_ r: Rect, into w: inout JSONWriter) {
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
