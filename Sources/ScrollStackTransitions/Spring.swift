#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The progress of a transition: a unit mass on a damped spring, pulled from 0 to 1.
///
/// With response `T` and damping ratio `ζ` (the response/damping-fraction form):
/// natural frequency `ω₀ = 2π / T`, stiffness `k = ω₀²`, damping coefficient `c = 2ζω₀`, so
/// the displacement `x = p − 1` obeys `x″ + 2ζω₀ x′ + ω₀² x = 0` with `x(0) = −1` and
/// `x′(0) = v₀` (the initial velocity). The spring is settled once `|x|` can no longer exceed
/// ``tolerance`` (a thousandth of the distance): from then on its envelope stays below it.
public struct Spring: Sendable, Hashable {
    public var response: Double
    public var dampingRatio: Double
    public var initialVelocity: Double

    /// The displacement (fraction of the distance) below which the spring counts as at rest.
    public static let tolerance = 0.001

    public init(response: Double, dampingRatio: Double, initialVelocity: Double = 0) {
        self.response = response
        self.dampingRatio = dampingRatio
        self.initialVelocity = initialVelocity
    }

    public var naturalFrequency: Double { 2 * Double.pi / response }
    /// `k` for a unit mass.
    public var stiffness: Double { naturalFrequency * naturalFrequency }
    /// `c` for a unit mass.
    public var dampingCoefficient: Double { 2 * dampingRatio * naturalFrequency }

    /// Seconds from the start until the displacement stays within ``tolerance``, from the
    /// closed-form envelope: `A·e^(−ζω₀t)` with `A = √(x₀² + ((v₀ + ζω₀x₀)/ω_d)²)` when
    /// under-damped, `(|x₀| + |v₀ + ω₀x₀|·t)·e^(−ω₀t)` when critically damped (solved by
    /// bisection past its peak).
    public var settleTime: Double {
        let w0 = naturalFrequency, zeta = dampingRatio, x0 = -1.0, v0 = initialVelocity
        let eps = Self.tolerance
        if zeta < 1 {
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            let b = (v0 + zeta * w0 * x0) / wd
            let amplitude = (x0 * x0 + b * b).squareRoot()
            return Swift.max(0, log(amplitude / eps) / (zeta * w0))
        }
        let b = abs(v0 + w0 * x0)
        let bound = { (t: Double) in (abs(x0) + b * t) * exp(-w0 * t) }
        // The bound rises until its peak, then falls for good.
        var low = b > 0 ? Swift.max(0, 1 / w0 - abs(x0) / b) : 0
        if bound(low) <= eps { return low }
        var high = low + 1 / w0
        while bound(high) > eps { high *= 2 }
        for _ in 0..<100 {
            let mid = (low + high) / 2
            if bound(mid) > eps { low = mid } else { high = mid }
        }
        return high
    }

    /// The progress at each of `times` (seconds since the motion started, ascending, ≥ 0),
    /// integrating the equation of motion with classical Runge–Kutta (fourth order) in steps
    /// of at most half a millisecond. Times at or past ``settleTime`` give exactly 1.
    ///
    /// - Complexity: O(times + last time / 0.5 ms).
    public func progress(at times: [Double]) -> [Double] {
        let k = stiffness, c = dampingCoefficient
        let settle = settleTime
        var x = -1.0, v = initialVelocity, now = 0.0
        func acceleration(_ x: Double, _ v: Double) -> Double { -k * x - c * v }
        var result: [Double] = []
        result.reserveCapacity(times.count)
        for time in times {
            if time >= settle {
                result.append(1)
                continue
            }
            let span = time - now
            let steps = Swift.max(1, Int((span / 0.0005).rounded(.up)))
            let h = span / Double(steps)
            for _ in 0..<(span > 0 ? steps : 0) {
                let k1x = v, k1v = acceleration(x, v)
                let k2x = v + h / 2 * k1v, k2v = acceleration(x + h / 2 * k1x, v + h / 2 * k1v)
                let k3x = v + h / 2 * k2v, k3v = acceleration(x + h / 2 * k2x, v + h / 2 * k2v)
                let k4x = v + h * k3v, k4v = acceleration(x + h * k3x, v + h * k3v)
                x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
                v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
            }
            now = time
            result.append(1 + x)
        }
        return result
    }
}
