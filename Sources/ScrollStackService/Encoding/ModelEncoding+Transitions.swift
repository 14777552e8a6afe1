import JSONCodec
import ScrollStackCore
import ScrollStackTransitions

extension ModelEncoding {
    static func rowTransition(_ t: RowTransition) -> JSON {
        var members: [(String, JSON)] = []
        if let hide = t.hide { members.append(("hide", look(hide))) }
        if let show = t.show { members.append(("show", look(show))) }
        return .object(JSONObject(members))
    }

    static func look(_ l: RowLook) -> JSON {
        .object(JSONObject([("alpha", .number(l.alpha)), ("translate", point(l.translate)), ("scale", .number(l.scale))]))
    }

    /// A plan's timing: a spring's members and physics, or a timing curve's duration, delay,
    /// Bézier control points and rest time.
    static func timing(_ t: AnimationTiming) -> JSON {
        if let bezier = t.curve.bezier {
            return .object(JSONObject([
                ("duration", .number(t.duration)), ("delay", .number(t.delay)), ("curve", .string(t.curve.rawValue)),
                ("controlPoints", .array([.number(bezier.x1), .number(bezier.y1), .number(bezier.x2), .number(bezier.y2)])),
                ("restTime", computed(t.restTime)),
            ]))
        }
        let spring = t.spring
        return .object(JSONObject([
            ("duration", .number(t.duration)), ("delay", .number(t.delay)), ("damping", .number(t.damping)),
            ("initialVelocity", .number(t.initialVelocity)), ("curve", .string("spring")),
            ("stiffness", computed(spring.stiffness)), ("dampingCoefficient", computed(spring.dampingCoefficient)),
            ("settleTime", computed(spring.settleTime)), ("restTime", computed(t.restTime)),
        ]))
    }

    static func fromTo(_ from: JSON, _ to: JSON) -> JSON { .object(JSONObject([("from", from), ("to", to)])) }

    static func rowState(_ s: RowState) -> JSON {
        var members: [(String, JSON)] = []
        if let index = s.index { members.append(("index", .integer(Int64(index)))) }
        members += [
            ("frame", rect(s.frame)), ("contentFrame", rect(s.contentFrame)), ("separatorFrame", s.separatorFrame.map(rect) ?? .null),
            ("alpha", .number(s.alpha)), ("hidden", .bool(s.hidden)), ("translate", point(s.translate)), ("scale", .number(s.scale)),
        ]
        return .object(JSONObject(members))
    }

    /// A stack's transition plan as the API answers it (and the journal keeps it).
    static func plan(_ p: TransitionPlan, revision: Int) -> JSON {
        let rows: [JSON] = p.rows.map { e in
            .object(JSONObject([
                ("id", .string(e.id)), ("change", .string(e.change.rawValue)), ("enter", .bool(e.enter)), ("exit", .bool(e.exit)),
                ("from", rowState(e.from)), ("to", rowState(e.to)),
            ]))
        }
        return .object(JSONObject([
            ("revision", .integer(Int64(revision))), ("animated", .bool(p.animated)), ("timing", timing(p.timing)),
            ("axis", fromTo(.string(p.axis.from.rawValue), .string(p.axis.to.rawValue))),
            ("viewport", fromTo(size(p.viewport.from), size(p.viewport.to))),
            ("contentSize", fromTo(computedSize(p.contentSize.from), computedSize(p.contentSize.to))),
            ("offset", fromTo(point(p.offset.from), point(p.offset.to))),
            ("rows", .array(rows)),
        ]))
    }

    /// `plan` (as encoded) with `fps` and `keyframes` added: sampled from the encoded plan, so
    /// an answer and a later read of the same revision sample the same numbers.
    static func sampled(_ plan: JSON, fps: Int) -> JSON {
        guard case .object(var object) = plan, let decoded = ModelDecoding.storedPlan(plan) else { return plan }
        let withLook = Set(decoded.rows.filter { e in
            e.from.scale != 1 || e.to.scale != 1 || e.from.translate != .zero || e.to.translate != .zero
        }.map(\.id))
        let frames: [JSON] = KeyframeSampler.sample(decoded, fps: fps).map { k in
            .object(JSONObject([
                ("time", computed(k.time)), ("progress", computed(k.progress)), ("offset", .object(JSONObject([("x", computed(k.offset.x)), ("y", computed(k.offset.y))]))),
                ("rows", .array(k.rows.map { r in
                    var members: [(String, JSON)] = [("id", .string(r.id)), ("frame", rect(r.frame)), ("alpha", computed(r.alpha))]
                    if withLook.contains(r.id) {
                        members.append(("translate", .object(JSONObject([("x", computed(r.translate.x)), ("y", computed(r.translate.y))]))))
                        members.append(("scale", computed(r.scale)))
                    }
                    return .object(JSONObject(members))
                })),
            ]))
        }
        object["fps"] = .integer(Int64(fps))
        object["keyframes"] = .array(frames)
        return .object(object)
    }
}
