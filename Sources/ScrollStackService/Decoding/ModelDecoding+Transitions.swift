import Jansson
import ScrollStackCore
import ScrollStackTransitions

extension ModelDecoding {
    /// The members every mutation body may carry besides its own.
    static let animationKeys = ["animation", "fps"]

    /// Splits `animation` and `fps` off a mutation body (and reads `?fps=`): the rest of the
    /// body, to be decoded as before, and what they ask. `animation` is `true` (`defaults`),
    /// `false`, or `{duration, delay, damping, initialVelocity}` over `defaults`.
    static func animation(_ body: ObjectReader?, _ c: RequestContext, defaults: AnimationTiming) throws(APIError) -> (ObjectReader?, AnimationRequest) {
        var request = AnimationRequest()
        if let text = c.query("fps") {
            guard let fps = Int(text), (1...240).contains(fps) else { throw .badQuery("fps", "must be an integer in 1…240, got \"\(text)\"") }
            request.fps = fps
        }
        if let body, let f = try body.optional("animation") {
            request.timing = try timing(f, defaults: defaults)
            request.dampingGiven = f.value.objectValue?["damping"] != nil
        }
        if let body, let f = try body.optional("fps") {
            let fps = try f.int()
            guard (1...240).contains(fps) else { throw .invalid(f.path, "must be an integer in 1…240, got \(fps)") }
            request.fps = fps
        }
        if let fps = request.fps {
            let frames = KeyframeSampler.frameCount(request.timing ?? defaults, fps: fps)
            let message = "sampling this spring at \(fps) fps gives \(AnimationRequest.describe(frames: frames)) keyframes, more than \(AnimationRequest.maxFrames): lower fps or raise the damping"
            // 422 wherever `fps` was given: the value is well-formed, its combination with the
            // spring breaks a rule (Semantics.md, Keyframes).
            guard frames <= AnimationRequest.maxFrames else { throw .invalid("fps", message) }
        }
        guard let body else { return (nil, request) }
        // Most bodies have neither key: they are the rest as they are (no copy of the object).
        guard body.object.contains(where: { animationKeys.contains($0.key) }) else { return (body, request) }
        let rest = JSONObject(body.object.filter { !animationKeys.contains($0.key) }.map { ($0.key, $0.value) })
        return (ObjectReader(object: rest, path: body.path), request)
    }

    /// `true`, `false` or `{duration, delay, damping, initialVelocity}` over `defaults`;
    /// nil for `false`.
    static func timing(_ field: Field, defaults: AnimationTiming) throws(APIError) -> AnimationTiming? {
        if let flag = field.value.boolValue { return flag ? defaults : nil }
        guard field.value.objectValue != nil else { throw .wrongType(field.path, expected: "true, false or an object", got: field.value.typeName) }
        let object = try field.object()
        try object.allowOnly(["duration", "delay", "damping", "initialVelocity"])
        var timing = defaults
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
