import ScrollStackCore
import ScrollStackTransitions

/// One step of a pile metric's 3D `transform`, as Core Animation builds a `CATransform3D`.
public enum PileTransformOperation: Sendable, Hashable {
    /// The eye at `distance` points: `m34 = −1/distance` (`distance > 0`).
    case perspective(Double)
    /// `CATransform3DMakeRotation` by `degrees` about the axis `(x, y, z)`.
    case rotate(degrees: Double, x: Double, y: Double, z: Double)
    case translate(x: Double, y: Double, z: Double)
    case scale(x: Double, y: Double, z: Double)

    /// The operation's own matrix.
    public var matrix: Transform3D {
        switch self {
        case .perspective(let d): .perspective(d)
        case .rotate(let degrees, let x, let y, let z): .rotation(degrees: degrees, x: x, y: y, z: z)
        case .translate(let x, let y, let z): .translation(x: x, y: y, z: z)
        case .scale(let x, let y, let z): .scale(x: x, y: y, z: z)
        }
    }

    /// The member naming the operation (`perspective`, `rotate`, `translate`, `scale`).
    public var name: String {
        switch self {
        case .perspective: "perspective"
        case .rotate: "rotate"
        case .translate: "translate"
        case .scale: "scale"
        }
    }

    /// `operations` composed as `CATransform3DConcat` chains them: the first is applied to the
    /// view first (the product `M₁ · M₂ · …` of row-vector matrices). O(n).
    public static func compose(_ operations: [PileTransformOperation]) -> Transform3D {
        operations.reduce(Transform3D.identity) { $0.concatenating($1.matrix) }
    }

    /// The first rule the operation breaks, as (member path below the operation, message), or
    /// nil: every number finite and within ±10⁹, an angle within ±36,000 degrees, a perspective
    /// distance above 0, a rotation axis other than zero.
    public func violation() -> (member: String, message: String)? {
        func outside(_ members: [(String, Double)]) -> (String, String)? {
            for (path, value) in members where !value.isFinite || abs(value) > 1e9 {
                return ("\(name).\(path)", "must be a finite number within ±1000000000, got \(AnimationTiming.text(value))")
            }
            return nil
        }
        switch self {
        case .perspective(let d):
            guard d.isFinite, d > 0, d <= 1e9 else {
                return ("perspective", "must be a distance above 0 and at most 1000000000, got \(AnimationTiming.text(d))")
            }
            return nil
        case .rotate(let degrees, let x, let y, let z):
            guard degrees.isFinite, abs(degrees) <= 36_000 else {
                return ("rotate.angle", "must be a finite number of degrees within ±36000, got \(AnimationTiming.text(degrees))")
            }
            if let found = outside([("x", x), ("y", y), ("z", z)]) { return found }
            guard x != 0 || y != 0 || z != 0 else { return ("rotate", "needs an axis other than (0, 0, 0)") }
            return nil
        case .translate(let x, let y, let z), .scale(let x, let y, let z):
            return outside([("x", x), ("y", y), ("z", z)])
        }
    }
}
