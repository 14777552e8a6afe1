import JSONCodec
import ScrollStackCore
import ScrollStackPiles
import ScrollStackTransitions

extension ModelDecoding {
    /// The read-only members a pile's view has in answers; accepted and ignored on input.
    static let pileViewKeys = ["id", "controller", "view", "index", "active", "frame", "alpha", "translate", "scale", "transform"]

    /// `{"id"?, "controller" | "view"}`; without an id, `makeID` supplies one. `props` may
    /// nest at most `maxDepth` deep.
    static func pileView(_ object: ObjectReader, maxDepth: Int, makeID: () -> String) throws(APIError) -> PileView {
        guard let id = try pileViewID(object) else { return PileView(id: makeID(), content: try pileViewContent(object, maxDepth: maxDepth)) }
        return PileView(id: id, content: try pileViewContent(object, maxDepth: maxDepth))
    }

    /// A view's `id` when given (not empty).
    static func pileViewID(_ object: ObjectReader) throws(APIError) -> String? {
        guard let id = try object.optional("id").map({ f throws(APIError) in try f.string() }) else { return nil }
        guard !id.isEmpty else { throw .invalid(object.path.isEmpty ? "id" : object.path + ".id", "must not be empty") }
        return id
    }

    /// A view's `controller` or `view` (one of them, its type not empty).
    static func pileViewContent(_ object: ObjectReader, maxDepth: Int) throws(APIError) -> RowContent {
        let content = try rowContent(object, maxDepth: maxDepth)
        if content.typeName.isEmpty {
            let kind = object.has("controller") ? "controller" : "view"
            throw .invalid((object.path.isEmpty ? "" : object.path + ".") + kind + ".type", "must not be empty")
        }
        return content
    }

    /// `{"x"?, "y"?, "width", "height"}`, each finite; sizes 0…1e9, origins within ±1e9.
    static func bounds(_ field: Field) throws(APIError) -> Rect {
        let object = try field.object()
        try object.allowOnly(["x", "y", "width", "height"])
        var values: [Double] = []
        for key in ["x", "y", "width", "height"] {
            let f = key == "width" || key == "height" ? try object.required(key) : try object.optional(key)
            let value = try f?.double() ?? 0
            let size = key == "width" || key == "height"
            guard value.isFinite, size ? (0...1e9).contains(value) : abs(value) <= 1e9 else {
                throw .invalid(field.childPath(key), size ? "must be between 0 and 1000000000, got \(value)" : "must be within ±1000000000, got \(value)")
            }
            values.append(value)
        }
        return Rect(x: values[0], y: values[1], width: values[2], height: values[3])
    }

    /// `{"alpha", "insets", "offset", "relativeOffset", "scale", "translate", "transform"}` over
    /// `base`, checked against `bounds`.
    static func pileMetric(_ field: Field, base: PileMetric, bounds: Rect) throws(APIError) -> PileMetric {
        let object = try field.object()
        try object.allowOnly(["alpha", "insets", "offset", "relativeOffset", "scale", "translate", "transform"])
        var metric = base
        if let f = try object.optional("alpha") { metric.alpha = try f.double() }
        if let f = try object.optional("insets") { metric.insets = try insets(f, base: base.insets) }
        if let f = try object.optional("offset") { metric.offset = try point(f, base: .zero) }
        if let f = try object.optional("relativeOffset") { metric.relativeOffset = try point(f, base: .zero) }
        if let f = try object.optional("scale") { metric.scale = try f.double() }
        if let f = try object.optional("translate") { metric.translate = try point(f, base: .zero) }
        if let f = try object.optional("transform") { metric.transform = try f.array().map { f throws(APIError) in try pileTransformOperation(f) } }
        if let (member, message) = metric.violation(in: bounds) { throw .invalid(field.descendantPath(member), message) }
        return metric
    }

    /// One operation of a metric's `transform`: an object with exactly one of
    /// `{"perspective": d}`, `{"rotate": {"angle", "x"?, "y"?, "z"?}}` (the z axis when no member of the axis is
    /// given, else a missing member is 0),
    /// `{"translate": {"x"?, "y"?, "z"?}}` (default 0), `{"scale": {"x"?, "y"?, "z"?}}` (default 1).
    /// Ranges are `PileTransformOperation.violation`'s, checked with the metric.
    static func pileTransformOperation(_ field: Field) throws(APIError) -> PileTransformOperation {
        let object = try field.object()
        let kinds = ["perspective", "rotate", "translate", "scale"]
        try object.allowOnly(kinds)
        guard object.object.keys.count == 1, let kind = kinds.first(where: object.has) else {
            throw .invalid(field.path, "must have exactly one of \"perspective\", \"rotate\", \"translate\" or \"scale\", got \(object.object.keys.count) members")
        }
        let member = try object.required(kind)
        if kind == "perspective" { return .perspective(try member.double()) }
        let vector = try member.object()
        try vector.allowOnly(kind == "rotate" ? ["angle", "x", "y", "z"] : ["x", "y", "z"])
        func component(_ key: String, _ fallback: Double) throws(APIError) -> Double { try vector.optional(key)?.double() ?? fallback }
        switch kind {
        case "rotate":
            // The axis is z when none of x, y, z is given; otherwise a missing one is 0.
            let axisGiven = vector.has("x") || vector.has("y") || vector.has("z")
            return .rotate(degrees: try vector.required("angle").double(), x: try component("x", 0), y: try component("y", 0), z: try component("z", axisGiven ? 0 : 1))
        case "translate":
            return .translate(x: try component("x", 0), y: try component("y", 0), z: try component("z", 0))
        default:
            return .scale(x: try component("x", 1), y: try component("y", 1), z: try component("z", 1))
        }
    }

    /// `{"leading", "active", "trailing"}`, each over Pile's default for that position.
    static func pileMetrics(_ field: Field, bounds: Rect) throws(APIError) -> PileMetrics {
        let object = try field.object()
        try object.allowOnly(["leading", "active", "trailing"])
        var metrics = PileMetrics()
        if let f = try object.optional("leading") { metrics.leading = try pileMetric(f, base: .leading, bounds: bounds) }
        if let f = try object.optional("active") { metrics.active = try pileMetric(f, base: .active, bounds: bounds) }
        if let f = try object.optional("trailing") { metrics.trailing = try pileMetric(f, base: .trailing, bounds: bounds) }
        return metrics
    }

    /// A pile plan as `ModelEncoding.pilePlan` wrote it, or nil.
    static func storedPilePlan(_ json: JSON) -> PilePlan? {
        guard let timing = json["timing"].flatMap(storedTiming), let views = json["views"]?.arrayValue else { return nil }
        var motions: [PileMotion] = []
        for view in views {
            guard let id = view["id"]?.stringValue, let role = view["role"]?.stringValue.flatMap(PileMotion.Role.init(rawValue:)),
                  let from = view["from"].flatMap(storedPileState), let to = view["to"].flatMap(storedPileState) else { return nil }
            motions.append(PileMotion(id: id, role: role, removed: view["removed"]?.boolValue ?? false, from: from, to: to))
        }
        return PilePlan(animated: json["animated"]?.boolValue ?? false, timing: timing, motions: motions)
    }

    static func storedPileState(_ json: JSON) -> PileViewState? {
        guard let frame = json["frame"].flatMap(storedRect), let alpha = json["alpha"]?.doubleValue,
              let translate = json["translate"].flatMap(storedPoint), let scale = json["scale"]?.doubleValue else { return nil }
        var transform: Transform3D?
        if let numbers = json["transform"]?.arrayValue {
            let values = numbers.compactMap(\.doubleValue)
            guard values.count == 16 else { return nil }
            transform = Transform3D(values)
        }
        return PileViewState(frame: frame, alpha: alpha, translate: translate, scale: scale, transform: transform)
    }
}
