import JSONCodec
import ScrollStackCore
import ScrollStackPiles
import ScrollStackTransitions

extension ModelEncoding {
    /// A metric as given, with its defaults; `transform` only when it has operations.
    static func pileMetric(_ m: PileMetric) -> JSON {
        var members: [(String, JSON)] = [
            ("alpha", .number(m.alpha)), ("insets", insets(m.insets)), ("offset", point(m.offset)),
            ("relativeOffset", point(m.relativeOffset)), ("scale", .number(m.scale)), ("translate", point(m.translate)),
        ]
        if !m.transform.isEmpty { members.append(("transform", .array(m.transform.map(pileTransformOperation)))) }
        return .object(JSONObject(members))
    }

    /// An operation of a metric's `transform`, every member written out.
    static func pileTransformOperation(_ operation: PileTransformOperation) -> JSON {
        func vector(_ members: [(String, Double)]) -> JSON { .object(JSONObject(members.map { ($0.0, JSON.number($0.1)) })) }
        let value: JSON = switch operation {
        case .perspective(let d): .number(d)
        case .rotate(let degrees, let x, let y, let z): vector([("angle", degrees), ("x", x), ("y", y), ("z", z)])
        case .translate(let x, let y, let z), .scale(let x, let y, let z): vector([("x", x), ("y", y), ("z", z)])
        }
        return .object(JSONObject([(operation.name, value)]))
    }

    /// A view state's members; `transform` (16 numbers, `m11 m12 … m44`, rounded to 10⁻⁶ below
    /// 10¹² as every computed number, −0 written as 0) only in piles with a 3D transform.
    static func pileState(_ s: PileViewState) -> [(String, JSON)] {
        var members: [(String, JSON)] = [
            ("frame", rect(s.frame)), ("alpha", computed(s.alpha)), ("translate", .object(JSONObject([("x", computed(s.translate.x)), ("y", computed(s.translate.y))]))),
            ("scale", computed(s.scale)),
        ]
        if let t = s.transform { members.append(("transform", .array(t.m.map(computed)))) }
        return members
    }

    /// A pile's default animation: a spring's members, or a timing curve's duration and
    /// delay, with its `curve` either way (as the create body takes it back).
    static func pileAnimation(_ t: AnimationTiming) -> JSON {
        var members: [(String, JSON)] = [("duration", .number(t.duration)), ("delay", .number(t.delay))]
        if t.curve == .spring { members += [("damping", .number(t.damping)), ("initialVelocity", .number(t.initialVelocity))] }
        members.append(("curve", .string(t.curve.rawValue)))
        return .object(JSONObject(members))
    }

    /// A view's descriptor as the create body gives it, the way a row's content is written
    /// (`writeRowOpening`): `"controller": {"type", "instance"?, "props"?}` or
    /// `"view": {"type", "props"?}`.
    static func viewDescriptor(_ content: RowContent) -> (String, JSON) {
        switch content {
        case .controller(let c):
            var o: [(String, JSON)] = [("type", .string(c.type))]
            if let instance = c.instance { o.append(("instance", .string(instance))) }
            if let props = c.properties { o.append(("props", properties(props))) }
            return ("controller", .object(JSONObject(o)))
        case .view(let v):
            var o: [(String, JSON)] = [("type", .string(v.type))]
            if let props = v.properties { o.append(("props", properties(props))) }
            return ("view", .object(JSONObject(o)))
        }
    }

    /// A pile as GET answers it: settings, the active view's id, and the views bottom to top;
    /// the active (top) view also carries its frame, alpha and transform at rest.
    static func pile(id: String, revision: Int, _ pile: Pile) -> JSON {
        var views: [JSON] = []
        for (index, view) in pile.views.enumerated() {
            var members: [(String, JSON)] = [("id", .string(view.id)), ("index", .integer(Int64(index))), viewDescriptor(view.content)]
            let isActive = index == pile.views.count - 1
            members.append(("active", .bool(isActive)))
            if isActive { members += pileState(pile.state(pile.metrics.active)) }
            views.append(.object(JSONObject(members)))
        }
        return .object(JSONObject([
            ("id", .string(id)), ("revision", .integer(Int64(revision))), ("bounds", rect(pile.bounds)),
            ("metrics", .object(JSONObject([("leading", pileMetric(pile.metrics.leading)), ("active", pileMetric(pile.metrics.active)),
                                            ("trailing", pileMetric(pile.metrics.trailing))]))),
            ("animation", pileAnimation(pile.animation)),
            ("active", pile.active.map { .string($0.id) } ?? .null),
            ("views", .array(views)),
        ]))
    }

    static func pileEvent(_ event: PileEvent) -> JSON {
        switch event {
        case .viewPushed(let id, let index):
            .object(JSONObject([("type", "viewPushed"), ("id", .string(id)), ("index", .integer(Int64(index)))]))
        case .viewPopped(let id, let index):
            .object(JSONObject([("type", "viewPopped"), ("id", .string(id)), ("index", .integer(Int64(index)))]))
        case .viewsSet(let count):
            .object(JSONObject([("type", "viewsSet"), ("count", .integer(Int64(count)))]))
        case .viewUpdated(let id, let index):
            .object(JSONObject([("type", "viewUpdated"), ("id", .string(id)), ("index", .integer(Int64(index)))]))
        case .activeChanged(let from, let to):
            .object(JSONObject([("type", "activeChanged"), ("from", from.map(JSON.string) ?? .null), ("to", to.map(JSON.string) ?? .null)]))
        }
    }

    static func pilePlan(_ plan: PilePlan, revision: Int) -> JSON {
        .object(JSONObject([
            ("revision", .integer(Int64(revision))), ("animated", .bool(plan.animated)), ("timing", timing(plan.timing)),
            ("views", .array(plan.motions.map { m in
                .object(JSONObject([
                    ("id", .string(m.id)), ("role", .string(m.role.rawValue)), ("removed", .bool(m.removed)),
                    ("from", .object(JSONObject(pileState(m.from)))), ("to", .object(JSONObject(pileState(m.to)))),
                ]))
            })),
        ]))
    }

    /// A pile plan (as encoded) with `fps` and `keyframes`, sampled from the encoded plan.
    static func sampledPilePlan(_ plan: JSON, fps: Int) -> JSON {
        guard case .object(var object) = plan, let decoded = ModelDecoding.storedPilePlan(plan) else { return plan }
        object["fps"] = .integer(Int64(fps))
        object["keyframes"] = .array(decoded.keyframes(fps: fps).map { frame in
            .object(JSONObject([
                ("time", computed(frame.time)), ("progress", computed(frame.progress)),
                ("views", .array(frame.views.map { .object(JSONObject([("id", .string($0.id))] + pileState($0.state))) })),
            ]))
        })
        return .object(object)
    }
}
