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

    /// The progress at each of `times` (seconds since the motion started, ≥ 0), from the
    /// closed-form solution: `x(t) = e^(−ζω₀t)·(x₀·cos ω_d t + (v₀ + ζω₀x₀)/ω_d · sin ω_d t)`
    /// with `ω_d = ω₀√(1 − ζ²)` when under-damped, `(x₀ + (v₀ + ω₀x₀)·t)·e^(−ω₀t)` when
    /// critically damped (ζ ≥ 1 is taken as critical, as ``settleTime`` takes it). Times at
    /// or past ``settleTime`` give exactly 1.
    ///
    /// - Complexity: O(times), whatever the spring's settling time (integrating the motion
    ///   step by step cost O(last time / step): 0.6 s of CPU for an hour-long spring).
    public func progress(at times: [Double]) -> [Double] {
        let settle = settleTime
        let w0 = naturalFrequency, zeta = dampingRatio, x0 = -1.0, v0 = initialVelocity
        var result: [Double] = []
        result.reserveCapacity(times.count)
        if zeta < 1 {
            let decay = zeta * w0
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            let b = (v0 + decay * x0) / wd
            for time in times {
                result.append(time >= settle ? 1 : 1 + exp(-decay * time) * (x0 * cos(wd * time) + b * sin(wd * time)))
            }
        } else {
            let b = v0 + w0 * x0
            for time in times {
                result.append(time >= settle ? 1 : 1 + (x0 + b * time) * exp(-w0 * time))
            }
        }
        return result
    }
}
