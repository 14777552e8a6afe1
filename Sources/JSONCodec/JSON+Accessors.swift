extension JSON {
    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The value of a boolean, nil for any other kind.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The value of a string, nil for any other kind.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The elements of an array, nil for any other kind.
    public var arrayValue: [JSON]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members of an object, nil for any other kind.
    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Any number (integer or real) as a Double, nil for any other kind. Integers beyond
    /// 2^53 in magnitude are rounded.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .real(let value): value
        default: nil
        }
    }

    /// An integer, or a real that is integral and exactly representable in 64 bits (`3.0`);
    /// nil for other reals (`3.5`, `1e300`) and other kinds.
    public var int64Value: Int64? {
        switch self {
        case .integer(let value): value
        // Not `Int64(exactly:)`, which needs libm (see `number(_:)`). -2^63 is an Int64,
        // 2^63 is not; NaN fails both comparisons.
        case .real(let value) where value >= -0x1p63 && value < 0x1p63:
            Double(Int64(value)) == value ? Int64(value) : nil
        default: nil
        }
    }

    /// The member `key` of an object; nil for a missing member or a value that is not an object.
    public subscript(key: String) -> JSON? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The kind of value, for error messages ("expected a number, got a string"): "null",
    /// "boolean", "integer", "number" (a real), "string", "array" or "object".
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .integer: "integer"
        case .real: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}
