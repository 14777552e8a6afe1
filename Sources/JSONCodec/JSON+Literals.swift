extension JSON: ExpressibleByNilLiteral {
    /// `null`.
    public init(nilLiteral: ()) { self = .null }
}

extension JSON: ExpressibleByBooleanLiteral {
    /// `true` or `false`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSON: ExpressibleByIntegerLiteral {
    /// An `.integer`.
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension JSON: ExpressibleByFloatLiteral {
    /// A `.real`, even when integral (`1.0`); use `number(_:)` to get `.integer` for those.
    public init(floatLiteral value: Double) { self = .real(value) }
}

extension JSON: ExpressibleByStringLiteral {
    /// A `.string`.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSON: ExpressibleByArrayLiteral {
    /// An `.array`.
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
}

extension JSON: ExpressibleByDictionaryLiteral {
    /// An `.object` with the members in the order written; a repeated key keeps its first
    /// position and its last value.
    public init(dictionaryLiteral elements: (String, JSON)...) { self = .object(JSONObject(elements)) }
}
