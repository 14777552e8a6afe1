import ScrollStackTransitions
import Foundation

/// A 4×4 transform in Core Animation's `CATransform3D` convention: points are row vectors
/// multiplied on the left (`p' = p · M`), so the translation is `m41 m42 m43` and a
/// perspective's depth term is `m34`. The sixteen numbers are kept in member order
/// `m11 m12 m13 m14 m21 … m44`, which is also the argument order of CSS `matrix3d()` (CSS
/// lists its column-vector matrix column by column: the same numbers).
public struct Transform3D: Sendable, Hashable {
    /// `m11 m12 m13 m14 m21 … m44`.
    public var m: [Double]

    public init(_ m: [Double]) {
        precondition(m.count == 16, "a 4×4 matrix has 16 numbers")
        self.m = m
    }

    public static let identity = Transform3D([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])

    /// The member in row `row`, column `column` (0-based: `self[3, 2]` is `m43`).
    public subscript(row: Int, column: Int) -> Double {
        get { m[row * 4 + column] }
        set { m[row * 4 + column] = newValue }
    }

    public var isIdentity: Bool { self == .identity }

    /// `CATransform3DConcat(self, next)`: `self` applied first, then `next` (the product
    /// `self · next`). O(1) (64 multiplications).
    public func concatenating(_ next: Transform3D) -> Transform3D {
        var result = Transform3D(Array(repeating: 0, count: 16))
        for i in 0..<4 {
            for j in 0..<4 {
                var sum = 0.0
                for k in 0..<4 { sum += self[i, k] * next[k, j] }
                result[i, j] = sum
            }
        }
        return result
    }

    /// A perspective of eye distance `distance`: the identity with `m34 = −1/distance`.
    public static func perspective(_ distance: Double) -> Transform3D {
        var t = identity
        t[2, 3] = -1 / distance
        return t
    }

    /// `CATransform3DMakeRotation` by `degrees` about the axis `(x, y, z)` (normalised; it must
    /// not be zero). Positive angles about z turn +x towards +y.
    public static func rotation(degrees: Double, x: Double, y: Double, z: Double) -> Transform3D {
        let length = (x * x + y * y + z * z).squareRoot()
        let (x, y, z) = (x / length, y / length, z / length)
        let radians = degrees * .pi / 180
        let c = cos(radians), s = sin(radians), t = 1 - c
        return Transform3D([t * x * x + c, t * x * y + z * s, t * x * z - y * s, 0,
                            t * x * y - z * s, t * y * y + c, t * y * z + x * s, 0,
                            t * x * z + y * s, t * y * z - x * s, t * z * z + c, 0,
                            0, 0, 0, 1])
    }

    /// `CATransform3DMakeTranslation`.
    public static func translation(x: Double, y: Double, z: Double) -> Transform3D {
        var t = identity
        t[3, 0] = x
        t[3, 1] = y
        t[3, 2] = z
        return t
    }

    /// `CATransform3DMakeScale`.
    public static func scale(x: Double, y: Double, z: Double) -> Transform3D {
        var t = identity
        t[0, 0] = x
        t[1, 1] = y
        t[2, 2] = z
        return t
    }

    /// The determinant, by cofactor expansion. O(1).
    public var determinant: Double {
        func det3(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double, _ g: Double, _ h: Double, _ i: Double) -> Double {
            a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
        }
        var result = 0.0
        for column in 0..<4 {
            let others = (0..<4).filter { $0 != column }
            let minor = det3(self[1, others[0]], self[1, others[1]], self[1, others[2]],
                             self[2, others[0]], self[2, others[1]], self[2, others[2]],
                             self[3, others[0]], self[3, others[1]], self[3, others[2]])
            result += (column % 2 == 0 ? 1 : -1) * self[0, column] * minor
        }
        return result
    }

    /// The inverse by Gauss–Jordan elimination with partial pivoting, or nil when the matrix
    /// is singular. O(1).
    public var inverse: Transform3D? {
        var a = self, inv = Transform3D.identity
        for column in 0..<4 {
            guard let pivot = (column..<4).max(by: { abs(a[$0, column]) < abs(a[$1, column]) }), a[pivot, column] != 0 else { return nil }
            if pivot != column {
                for j in 0..<4 {
                    a.m.swapAt(pivot * 4 + j, column * 4 + j)
                    inv.m.swapAt(pivot * 4 + j, column * 4 + j)
                }
            }
            let scale = 1 / a[column, column]
            for j in 0..<4 {
                a[column, j] *= scale
                inv[column, j] *= scale
            }
            for row in 0..<4 where row != column {
                let factor = a[row, column]
                guard factor != 0 else { continue }
                for j in 0..<4 {
                    a[row, j] -= factor * a[column, j]
                    inv[row, j] -= factor * inv[column, j]
                }
            }
        }
        return inv
    }
}
