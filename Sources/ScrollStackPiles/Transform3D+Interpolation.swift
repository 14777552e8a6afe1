import ScrollStackTransitions
import Foundation

/// Interpolation of 3D matrices as CSS Transforms Level 2 specifies it ("Interpolation of 3D
/// matrices"), and as Chromium implements it: each matrix is decomposed into perspective,
/// translation, scale, skew and a rotation quaternion; the parts are interpolated (the
/// quaternion by spherical linear interpolation, the rest linearly) and recomposed.
///
/// In the row-vector convention of ``Transform3D`` a decomposable matrix is the product
/// `scale · skew · rotation · translation · perspective` (scale applied first), where `skew`
/// is the unit lower-triangular matrix with `m21 = skew[0]` (XY), `m31 = skew[1]` (XZ) and
/// `m32 = skew[2]` (YZ), and `perspective` is the identity whose fourth column is the
/// perspective vector.
extension Transform3D {
    /// The parts of a matrix, as the spec's "Decomposing a 3D matrix" finds them.
    public struct Decomposed: Sendable, Hashable {
        public var translate: [Double]
        public var scale: [Double]
        public var skew: [Double]
        public var perspective: [Double]
        /// `(x, y, z, w)`.
        public var quaternion: [Double]
    }

    /// Whether the matrix is a 2D one, CSS `matrix(a, b, c, d, e, f)`: only `m11 m12 m21 m22`
    /// and the translation `m41 m42` differ from the identity.
    public var is2D: Bool {
        self[0, 2] == 0 && self[0, 3] == 0 && self[1, 2] == 0 && self[1, 3] == 0 && self[2, 0] == 0 && self[2, 1] == 0
            && self[2, 2] == 1 && self[2, 3] == 0 && self[3, 2] == 0 && self[3, 3] == 1
    }

    /// The decomposition of the spec, or nil when the matrix cannot be decomposed. O(1).
    ///
    /// A 2D matrix (``is2D``) is decomposed as "Decomposing a 2D matrix" does (CSS Transforms
    /// Level 1), as Chromium does for each 2D matrix, in the same parts: the translation
    /// `(m41, m42, 0)`; a mirrored matrix (determinant below 0) negates one scale only, x's
    /// when `m11 < m22`, else y's; x's scale is the length of the first row, the XY skew what
    /// makes the second row orthogonal to it, y's scale the second row's remaining length; the
    /// rotation the first row's angle R about z, as the quaternion `(0, 0, sin R/2, cos R/2)`.
    /// So a mirror stays in the plane rather than turning through 3D. A zero determinant is
    /// not decomposable.
    ///
    /// Any other matrix follows "Decomposing a 3D matrix" (Level 2): it is not decomposable
    /// when `m44` is 0 or when, without its perspective column (`m14 m24 m34` set to 0, `m44`
    /// to 1), its determinant is 0 (it flattens some direction: a zero scale). The quaternion
    /// is read from the orthonormal rows by the numerically stable method (the largest of
    /// `w, x, y, z` first), which gives the rotation the spec's formula gives, without its
    /// loss of sign near half turns.
    public func decomposed() -> Decomposed? {
        if is2D { return decomposed2D() }
        guard self[3, 3] != 0, self[3, 3].isFinite else { return nil }
        var matrix = self
        let normalizer = self[3, 3]
        for i in 0..<16 { matrix.m[i] /= normalizer }

        var perspectiveMatrix = matrix
        for i in 0..<3 { perspectiveMatrix[i, 3] = 0 }
        perspectiveMatrix[3, 3] = 1
        guard perspectiveMatrix.determinant != 0, let inverse = perspectiveMatrix.inverse else { return nil }

        var perspective: [Double] = [0, 0, 0, 1]
        if matrix[0, 3] != 0 || matrix[1, 3] != 0 || matrix[2, 3] != 0 {
            // matrix = perspectiveMatrix · P, where P is the identity with the perspective as its
            // fourth column: that column solves perspectiveMatrix · p = (m14, m24, m34, m44).
            let rightHandSide = (0..<4).map { matrix[$0, 3] }
            perspective = (0..<4).map { i in (0..<4).reduce(0.0) { $0 + inverse[i, $1] * rightHandSide[$1] } }
        }
        let translate = (0..<3).map { matrix[3, $0] }

        var row = (0..<3).map { i in (0..<3).map { matrix[i, $0] } }
        var scale = [0.0, 0.0, 0.0], skew = [0.0, 0.0, 0.0]
        scale[0] = Self.length(row[0])
        row[0] = Self.normalized(row[0])
        skew[0] = Self.dot(row[0], row[1])
        row[1] = Self.combine(row[1], row[0], 1, -skew[0])
        scale[1] = Self.length(row[1])
        row[1] = Self.normalized(row[1])
        skew[0] /= scale[1]
        skew[1] = Self.dot(row[0], row[2])
        row[2] = Self.combine(row[2], row[0], 1, -skew[1])
        skew[2] = Self.dot(row[1], row[2])
        row[2] = Self.combine(row[2], row[1], 1, -skew[2])
        scale[2] = Self.length(row[2])
        row[2] = Self.normalized(row[2])
        skew[1] /= scale[2]
        skew[2] /= scale[2]

        // The rows are orthonormal now; a mirrored system (determinant −1) is negated.
        if Self.dot(row[0], Self.cross(row[1], row[2])) < 0 {
            for i in 0..<3 {
                scale[i] = -scale[i]
                row[i] = row[i].map { -$0 }
            }
        }
        return Decomposed(translate: translate, scale: scale, skew: skew, perspective: perspective, quaternion: Self.quaternion(rows: row))
    }

    private func decomposed2D() -> Decomposed? {
        var (a, b, c, d) = (self[0, 0], self[0, 1], self[1, 0], self[1, 1])
        let determinant = a * d - b * c
        guard determinant != 0, determinant.isFinite else { return nil }
        var scale = [1.0, 1.0, 1.0]
        if determinant < 0 {
            if a < d { scale[0] = -1 } else { scale[1] = -1 }
        }
        scale[0] *= (a * a + b * b).squareRoot()
        a /= scale[0]
        b /= scale[0]
        let shear = a * c + b * d
        c -= a * shear
        d -= b * shear
        scale[1] *= (c * c + d * d).squareRoot()
        let angle = atan2(b, a)
        return Decomposed(translate: [self[3, 0], self[3, 1], 0], scale: scale, skew: [shear / scale[1], 0, 0],
                          perspective: [0, 0, 0, 1], quaternion: [0, 0, sin(angle / 2), cos(angle / 2)])
    }

    /// The matrix of `parts`, as the spec's "Recomposing to a 3D matrix" builds it: the
    /// perspective, then the translation, the rotation, the skew and the scale (each
    /// multiplied on the left, so the scale is applied to a point first). O(1).
    public init(recomposing parts: Decomposed) {
        var matrix = Transform3D.identity
        for i in 0..<4 { matrix[i, 3] = parts.perspective[i] }
        matrix = Transform3D.translation(x: parts.translate[0], y: parts.translate[1], z: parts.translate[2]).concatenating(matrix)
        matrix = Self.rotationMatrix(parts.quaternion).concatenating(matrix)
        var skew = Transform3D.identity
        skew[1, 0] = parts.skew[0]
        skew[2, 0] = parts.skew[1]
        skew[2, 1] = parts.skew[2]
        matrix = skew.concatenating(matrix)
        for i in 0..<3 {
            for j in 0..<4 { matrix[i, j] *= parts.scale[i] }
        }
        self = matrix
    }

    /// The matrix a fraction `progress` of the way from `from` to `to`: decomposed, the parts
    /// interpolated, recomposed. `progress` may leave 0…1 (a spring overshoots): the parts
    /// extrapolate. Exactly `from` at 0 and exactly `to` at 1. When either matrix cannot be
    /// decomposed, the spec's fallback applies: `from` while `progress < 0.5`, then `to` (and so
    /// when a result would not be finite).
    /// O(1); a caller sampling many frames decomposes once with ``interpolator(from:to:)``.
    public static func interpolate(_ from: Transform3D, _ to: Transform3D, _ progress: Double) -> Transform3D {
        interpolator(from: from, to: to)(progress)
    }

    /// The interpolation `interpolate(from, to, _)` with both matrices decomposed once.
    public static func interpolator(from: Transform3D, to: Transform3D) -> @Sendable (Double) -> Transform3D {
        guard from != to else { return { _ in from } }
        guard let a = from.decomposed(), let b = to.decomposed() else { return { $0 < 0.5 ? from : to } }
        return { p in
            if p == 0 { return from }
            if p == 1 { return to }
            func lerp(_ x: [Double], _ y: [Double]) -> [Double] { zip(x, y).map { $0 + ($1 - $0) * p } }
            let result = Transform3D(recomposing: Decomposed(translate: lerp(a.translate, b.translate), scale: lerp(a.scale, b.scale),
                                                            skew: lerp(a.skew, b.skew), perspective: lerp(a.perspective, b.perspective),
                                                            quaternion: slerp(a.quaternion, b.quaternion, p)))
            // Extreme matrices (numbers near a double's limits) can overflow on the way: discrete then.
            return result.m.allSatisfy(\.isFinite) ? result : (p < 0.5 ? from : to)
        }
    }

    /// Spherical linear interpolation of unit quaternions, the spec's formula
    /// `a·sin((1−p)θ)/sin θ + b·sin(pθ)/sin θ` with `cos θ = a·b`. As Chromium does, the shorter
    /// arc is taken (`a` is negated when `a·b < 0`: `q` and `−q` are the same rotation); when the
    /// two are the same rotation, `a`.
    static func slerp(_ a: [Double], _ b: [Double], _ p: Double) -> [Double] {
        var a = a
        var product = dot4(a, b)
        if product < 0 {
            a = a.map { -$0 }
            product = -product
        }
        product = min(product, 1)
        let sinTheta = (1 - product * product).squareRoot()
        guard sinTheta > 1e-12 else { return a }
        let theta = acos(product)
        let wa = sin((1 - p) * theta) / sinTheta, wb = sin(p * theta) / sinTheta
        return (0..<4).map { a[$0] * wa + b[$0] * wb }
    }

    /// The rotation of unit quaternion `(x, y, z, w)` in row-vector form (the transpose of the
    /// spec's column-vector matrix).
    static func rotationMatrix(_ q: [Double]) -> Transform3D {
        let (x, y, z, w) = (q[0], q[1], q[2], q[3])
        // The spec's matrix r (column vectors); a row-vector matrix is its transpose.
        let r = [[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                 [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                 [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]]
        var t = Transform3D.identity
        for i in 0..<3 { for j in 0..<3 { t[i, j] = r[j][i] } }
        return t
    }

    /// The unit quaternion of the orthonormal, right-handed `rows` (a row-vector rotation).
    static func quaternion(rows u: [[Double]]) -> [Double] {
        // r = uᵀ is the column-vector rotation the quaternion describes.
        let r = (0..<3).map { i in (0..<3).map { u[$0][i] } }
        let trace = r[0][0] + r[1][1] + r[2][2]
        var q: [Double]
        if trace > 0 {
            let s = 0.5 / (trace + 1).squareRoot()
            q = [(r[2][1] - r[1][2]) * s, (r[0][2] - r[2][0]) * s, (r[1][0] - r[0][1]) * s, 0.25 / s]
        } else if r[0][0] > r[1][1] && r[0][0] > r[2][2] {
            let s = 2 * (1 + r[0][0] - r[1][1] - r[2][2]).squareRoot()
            q = [0.25 * s, (r[0][1] + r[1][0]) / s, (r[0][2] + r[2][0]) / s, (r[2][1] - r[1][2]) / s]
        } else if r[1][1] > r[2][2] {
            let s = 2 * (1 + r[1][1] - r[0][0] - r[2][2]).squareRoot()
            q = [(r[0][1] + r[1][0]) / s, 0.25 * s, (r[1][2] + r[2][1]) / s, (r[0][2] - r[2][0]) / s]
        } else {
            let s = 2 * (1 + r[2][2] - r[0][0] - r[1][1]).squareRoot()
            q = [(r[0][2] + r[2][0]) / s, (r[1][2] + r[2][1]) / s, 0.25 * s, (r[1][0] - r[0][1]) / s]
        }
        let norm = dot4(q, q).squareRoot()
        q = q.map { $0 / norm }
        return q[3] < 0 ? q.map { -$0 } : q
    }

    static func dot(_ a: [Double], _ b: [Double]) -> Double { a[0] * b[0] + a[1] * b[1] + a[2] * b[2] }
    static func dot4(_ a: [Double], _ b: [Double]) -> Double { a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] }
    static func length(_ a: [Double]) -> Double { dot(a, a).squareRoot() }
    static func normalized(_ a: [Double]) -> [Double] { let l = length(a); return a.map { $0 / l } }
    static func combine(_ a: [Double], _ b: [Double], _ sa: Double, _ sb: Double) -> [Double] { (0..<3).map { a[$0] * sa + b[$0] * sb } }
    static func cross(_ a: [Double], _ b: [Double]) -> [Double] {
        [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    }
}
