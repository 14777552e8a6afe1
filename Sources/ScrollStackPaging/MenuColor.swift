import ScrollStackCore

/// Colour interpolation as Parchment's `UIColor.interpolate(from:to:with:)`: each of red,
/// green, blue and alpha (0…1) moves linearly from `from` to `to` by the fraction clamped
/// to 0…1. Colours are `#RRGGBBAA`; the result is rounded to the nearest of 255 steps per
/// component (halves away from zero). O(1).
public enum MenuColor {
    public static func interpolate(from: String, to: String, fraction: Double) -> String {
        let f = Swift.min(1, Swift.max(0, fraction))
        guard f > 0 else { return from }
        guard f < 1 else { return to }
        let a = components(from), b = components(to)
        var out = "#"
        for k in 0..<4 {
            let value = (a[k] + (b[k] - a[k]) * f) * 255
            let byte = Int(Swift.min(255, Swift.max(0, value.rounded(.toNearestOrAwayFromZero))))
            out += hex(byte)
        }
        return out
    }

    /// The four components of `#RRGGBBAA`, each 0…1 (opaque black for malformed text,
    /// which validated settings never hold).
    static func components(_ color: String) -> [Double] {
        let digits = Array(color.utf8.dropFirst())
        guard digits.count == 8 else { return [0, 0, 0, 1] }
        return (0..<4).map { k in
            Double(UInt8(String(decoding: digits[2 * k ..< 2 * k + 2], as: UTF8.self), radix: 16) ?? 0) / 255
        }
    }

    private static func hex(_ byte: Int) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[byte / 16], digits[byte % 16]])
    }
}
