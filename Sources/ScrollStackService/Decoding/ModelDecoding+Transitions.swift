import JSONCodec
import ScrollStackCore
import ScrollStackTransitions

extension ModelDecoding {
    /// The members every mutation body may carry besides its own.
    static let animationKeys = ["animation", "fps"]

    /// Splits `animation` and `fps` off a mutation body (and reads `?fps=`): the rest of the
    /// body, to be decoded as before, and what they ask. `animation` is `true` (`defaults`),
    /// `false`, or `{curve, duration, delay, damping, initialVelocity}` over `defaults`; a
    /// timing curve only when `curves` (piles), else only `"curve": "spring"`.
    static func animation(_ body: ObjectReader?, _ c: RequestContext, defaults: AnimationTiming,
                          curves: Bool = false) throws(APIError) -> (ObjectReader?, AnimationRequest) {
        var request = AnimationRequest()
        if let text = c.query("fps") {
            guard let fps = Int(text), (1...240).contains(fps) else { throw .badQuery("fps", "must be an integer in 1…240, got \"\(text)\"") }
            request.fps = fps
        }
        if let body, let f = try body.optional("animation") {
            request.timing = try timing(f, defaults: defaults, curves: curves)
            request.dampingGiven = f.value.objectValue?["damping"] != nil
        }
        if let body, let f = try body.optional("fps") {
            let fps = try f.int()
            guard (1...240).contains(fps) else { throw .invalid(f.path, "must be an integer in 1…240, got \(fps)") }
            request.fps = fps
        }
        if let fps = request.fps {
            let timing = request.timing ?? defaults
            let frames = KeyframeSampler.frameCount(timing, fps: fps)
            // 422 wherever `fps` was given: the value is well-formed, its combination with the
            // spring breaks a rule (Semantics.md, Keyframes).
            guard frames <= AnimationRequest.maxFrames else { throw .invalid("fps", AnimationRequest.frameLimitMessage(timing, fps: fps, frames: frames)) }
        }
        guard let body else { return (nil, request) }
        // Most bodies have neither key: they are the rest as they are (no copy of the object).
        guard body.object.contains(where: { animationKeys.contains($0.key) }) else { return (body, request) }
        let rest = JSONObject(body.object.filter { !animationKeys.contains($0.key) }.map { ($0.key, $0.value) })
        return (ObjectReader(object: rest, path: body.path), request)
    }

    /// The members of an animation object that only a spring has.
    static let springMembers = ["damping", "initialVelocity"]

    /// `true`, `false` or `{curve, duration, delay, damping, initialVelocity}` over `defaults`;
    /// nil for `false`. `curve` (default: the defaults') is `spring` or, when `curves`, one of
    /// `linear`, `easeIn`, `easeOut`, `easeInOut`, which take `duration` and `delay` only:
    /// `damping` or `initialVelocity` beside a timing curve is 422 naming the member.
    static func timing(_ field: Field, defaults: AnimationTiming, curves: Bool = false) throws(APIError) -> AnimationTiming? {
        if let flag = field.value.boolValue { return flag ? defaults : nil }
        guard field.value.objectValue != nil else { throw .wrongType(field.path, expected: "true, false or an object", got: field.value.typeName) }
        let object = try field.object()
        try object.allowOnly(["duration", "delay", "damping", "initialVelocity", "curve"])
        var timing = defaults
        if let f = try object.optional("curve") {
            let name = try f.string()
            guard let curve = AnimationCurve(rawValue: name), curves || curve == .spring else {
                let names = curves ? AnimationCurve.allCases.map(\.rawValue).joined(separator: ", ") : "spring (timing curves are for piles)"
                throw .invalid(f.path, "must be one of \(names), got \"\(name)\"")
            }
            timing.curve = curve
        }
        if timing.curve != .spring, let member = springMembers.first(where: object.has) {
            throw .invalid(field.childPath(member), "is a spring's; the \(timing.curve.rawValue) curve takes duration and delay only")
        }
        if let f = try object.optional("duration") { timing.duration = try f.double() }
        if let f = try object.optional("delay") { timing.delay = try f.double() }
        if let f = try object.optional("damping") { timing.damping = try f.double() }
        if let f = try object.optional("initialVelocity") { timing.initialVelocity = try f.double() }
        if let (member, message) = timing.violation { throw .invalid(field.descendantPath(member), message) }
        return timing
    }

    /// `{"hide": look, "show": look}`, each look `{"alpha", "translate": {"x","y"}, "scale"}`
    /// with missing members from the identity look.
    static func rowTransition(_ field: Field) throws(APIError) -> RowTransition {
        let object = try field.object()
        try object.allowOnly(["hide", "show"])
        var transition = RowTransition()
        if let f = try object.optional("hide") { transition.hide = try look(f) }
        if let f = try object.optional("show") { transition.show = try look(f) }
        return transition
    }

    static func look(_ field: Field) throws(APIError) -> RowLook {
        let object = try field.object()
        try object.allowOnly(["alpha", "translate", "scale"])
        var look = RowLook.identity
        if let f = try object.optional("alpha") { look.alpha = try f.double() }
        if let f = try object.optional("translate") { look.translate = try point(f, base: .zero) }
        if let f = try object.optional("scale") { look.scale = try f.double() }
        return look
    }
}
