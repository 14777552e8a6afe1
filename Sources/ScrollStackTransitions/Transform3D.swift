#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A view's 3D transform beyond its scale and translation: Core Animation's perspective
/// (`m34`) concatenated with a rotation (`CATransform3DConcat(perspective,
/// CATransform3DMakeRotation(angle, x, y, z))`, as Pile's example builds its metrics). The
/// rotation is held as a unit quaternion, so two transforms interpolate as Core Animation
/// interpolates layer transforms: the rotation by spherical linear interpolation (the
/// shorter way round), the perspective linearly.
public struct Transform3D: Sendable, Hashable {
    /// The perspective entry: −1/d for an eye d points in front of the layer (0: none).
    public var m34: Double
    /// The rotation's unit quaternion (x, y, z, w), w ≥ 0 once made from an angle and axis.
    public var quaternion: (x: Double, y: Double, z: Double, w: Double) {
        get { (qx, qy, qz, qw) }
        set { (qx, qy, qz, qw) = newValue }
    }
    private var qx, qy, qz, qw: Double

    public static let identity = Transform3D(m34: 0, angle: 0, axis: (0, 0, 1))!

    /// A perspective and a rotation by `angle` radians about `axis` (any length but zero; a
    /// zero angle needs no axis). nil for a zero axis with a non-zero angle.
    public init?(m34: Double, angle: Double, axis: (x: Double, y: Double, z: Double)) {
        self.m34 = m34
        let length = (axis.x * axis.x + axis.y * axis.y + axis.z * axis.z).squareRoot()
        if angle == 0 {
            (qx, qy, qz, qw) = (0, 0, 0, 1)
            return
        }
        guard length > 0, length.isFinite else { return nil }
        let s = sin(angle / 2) / length
        (qx, qy, qz, qw) = (axis.x * s, axis.y * s, axis.z * s, cos(angle / 2))
    }

    init(m34: Double, quaternion q: (x: Double, y: Double, z: Double, w: Double)) {
        self.m34 = m34
        (qx, qy, qz, qw) = q
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.m34 == b.m34 && a.qx == b.qx && a.qy == b.qy && a.qz == b.qz && a.qw == b.qw
    }

    public func hash(into hasher: inout Hasher) {
        for v in [m34, qx, qy, qz, qw] { hasher.combine(v) }
    }

    /// The rotation as an angle (radians, 0…2π) and a unit axis ((0, 0, 1) without rotation).
    public var rotation: (angle: Double, x: Double, y: Double, z: Double) {
        let w = Swift.min(1, Swift.max(-1, qw))
        let s = (1 - w * w).squareRoot()
        guard s > 1e-15 else { return (0, 0, 0, 1) }
        return (2 * acos(w), qx / s, qy / s, qz / s)
    }

    /// The 4×4 matrix, row by row (m11, m12, …, m44), in Core Animation's convention (a point
    /// is a row vector multiplied on the left): the rotation's matrix with m34 set, which is
    /// `CATransform3DConcat(perspective, rotation)`.
    public var matrix: [Double] {
        let (x, y, z, w) = (qx, qy, qz, qw)
        return [
            1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w), 0,
            2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w), 0,
            2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y), m34,
            0, 0, 0, 1,
        ]
    }

    /// The layer transform of a view with a uniform `scale` and a `translate` as well: scale,
    /// then translate, then this transform (`CATransform3DConcat` in that order), row by row.
    /// O(1).
    public func layerMatrix(scale: Double, translate: (x: Double, y: Double)) -> [Double] {
        let st: [Double] = [scale, 0, 0, 0, 0, scale, 0, 0, 0, 0, 1, 0, translate.x, translate.y, 0, 1]
        let m = matrix
        var out = [Double](repeating: 0, count: 16)
        for i in 0..<4 {
            for j in 0..<4 {
                var sum = 0.0
                for k in 0..<4 { sum += st[4 * i + k] * m[4 * k + j] }
                out[4 * i + j] = sum
            }
        }
        return out
    }

    /// The transform `p` of the way from `a` to `b` (p may leave 0…1 with a spring's
    /// overshoot): m34 linearly, the rotation by slerp. O(1).
    public static func interpolate(_ a: Transform3D, _ b: Transform3D, _ p: Double) -> Transform3D {
        if p == 0 { return a }
        if p == 1 { return b }
        let m34 = a.m34 + (b.m34 - a.m34) * p
        var (bx, by, bz, bw) = (b.qx, b.qy, b.qz, b.qw)
        var dot = a.qx * bx + a.qy * by + a.qz * bz + a.qw * bw
        if dot < 0 { (bx, by, bz, bw, dot) = (-bx, -by, -bz, -bw, -dot) }
        let ka: Double, kb: Double
        if dot > 0.9999995 {
            (ka, kb) = (1 - p, p)
        } else {
            let omega = acos(Swift.min(1, dot))
            (ka, kb) = (sin((1 - p) * omega) / sin(omega), sin(p * omega) / sin(omega))
        }
        var q = (x: ka * a.qx + kb * bx, y: ka * a.qy + kb * by, z: ka * a.qz + kb * bz, w: ka * a.qw + kb * bw)
        let n = (q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w).squareRoot()
        if n > 0 { q = (q.x / n, q.y / n, q.z / n, q.w / n) }
        return Transform3D(m34: m34, quaternion: q)
    }
}
