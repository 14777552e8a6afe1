/// A JSON value. Jansson reads and writes the text (see `JSON+Parsing.swift` and
/// `JSON+Serialization.swift`); this enum is what Swift code works with.
public enum JSON: Sendable, Hashable {
    case null
    case bool(Bool)
    /// A number written without fraction or exponent that fits in 64 bits.
    case integer(Int64)
    /// Any other number.
    case real(Double)
    case string(String)
    case array([JSON])
    case object(JSONObject)

    /// A number: integral values below 2^53 in magnitude become `.integer` (written `44`,
    /// not `44.0`); the rest `.real`.
    public static func number(_ value: Double) -> JSON {
        if value.isFinite, value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
            return .integer(Int64(value))
        }
        return .real(value)
    }
}

extension JSON: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .real(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSON)...) { self = .object(JSONObject(elements)) }
}
