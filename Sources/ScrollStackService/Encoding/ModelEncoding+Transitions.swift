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
}
