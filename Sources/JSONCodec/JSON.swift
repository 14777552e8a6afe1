/// A JSON value, decoded from or encoded to text by jansson.
///
/// Parse text with `parse(_:)` and write it with `serialized(realPrecision:)`; in between it
/// is a plain Swift value. Equality is structural: `.integer(1)` and `.real(1)` differ (compare
/// `doubleValue` for numbers), and objects are equal only with the same members in the same
/// order. Equality, hashing and releasing a value recurse once per level of nesting.
public enum JSON: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without fraction or exponent that fits in 64 bits.
    case integer(Int64)
    /// Any other number. Non-finite values are written as `null`.
    case real(Double)
    /// A string; it may contain `U+0000`.
    case string(String)
    /// An array.
    case array([JSON])
    /// An object, its members in order.
    case object(JSONObject)

    /// A number that prints without a fraction when it has none: integral values below 2^53
    /// in magnitude become `.integer` (so `44.0` is written `44`), all others `.real`.
    public static func number(_ value: Double) -> JSON {
        // Truncation by conversion, not `rounded()`: that needs libm, which a program only
        // links when something else pulls it in. NaN and infinities fail the comparison.
        if value.magnitude < 0x1p53, case let integer = Int64(value), Double(integer) == value {
            return .integer(integer)
        }
        return .real(value)
    }
}
