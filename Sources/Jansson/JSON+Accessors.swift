extension JSON {
    public var isNull: Bool { self == .null }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var arrayValue: [JSON]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Any number as a Double.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .real(let value): value
        default: nil
        }
    }

    /// An integer, or a real that is integral and exactly representable.
    public var int64Value: Int64? {
        switch self {
        case .integer(let value): value
        case .real(let value): Int64(exactly: value)
        default: nil
        }
    }

    /// The member `key` of an object; nil for a missing member or a value that is not an object.
    public subscript(key: String) -> JSON? {
        objectValue?[key]
    }

    /// The kind of value, for error messages: "null", "boolean", "integer", "number",
    /// "string", "array" or "object".
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
