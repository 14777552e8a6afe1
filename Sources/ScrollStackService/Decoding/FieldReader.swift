import JSONCodec

/// A JSON value together with its path in the request body, so that every decoding error
/// names the exact field (`rows[2].size.fixed`).
struct Field {
    let value: JSON
    let path: String

    init(_ value: JSON, path: String) {
        self.value = value
        self.path = path
    }

    /// The path of a member or an element of this field.
    func childPath(_ key: String) -> String { Field.memberPath(path, key) }
    func elementPath(_ index: Int) -> String { path + "[\(index)]" }

    var isNull: Bool { value.isNull }

    func object() throws(APIError) -> ObjectReader {
        guard let object = value.objectValue else { throw .wrongType(path, expected: "an object", got: value.typeName) }
        return ObjectReader(object: object, path: path)
    }

    func array() throws(APIError) -> [Field] {
        guard let array = value.arrayValue else { throw .wrongType(path, expected: "an array", got: value.typeName) }
        return array.enumerated().map { Field($0.element, path: elementPath($0.offset)) }
    }

    func string() throws(APIError) -> String {
        guard let string = value.stringValue else { throw .wrongType(path, expected: "a string", got: value.typeName) }
        return string
    }

    func bool() throws(APIError) -> Bool {
        guard let bool = value.boolValue else { throw .wrongType(path, expected: "true or false", got: value.typeName) }
        return bool
    }

    /// A finite number (integers included).
    func double() throws(APIError) -> Double {
        guard let double = value.doubleValue else { throw .wrongType(path, expected: "a number", got: value.typeName) }
        return double
    }

    /// An integer; a number with a fraction is rejected.
    func int() throws(APIError) -> Int {
        guard let int = value.int64Value, let result = Int(exactly: int) else {
            if value.doubleValue != nil { throw .wrongType(path, expected: "an integer", got: "a number with a fraction") }
            throw .wrongType(path, expected: "an integer", got: value.typeName)
        }
        return result
    }

    /// One of `choices`.
    func choice<T>(_ choices: [(String, T)]) throws(APIError) -> T {
        let text = try string()
        guard let match = choices.first(where: { $0.0 == text }) else {
            throw .invalid(path, "must be one of \(choices.map { "\"\($0.0)\"" }.joined(separator: ", ")), got \"\(text)\"")
        }
        return match.1
    }
}

/// Reads the members of a JSON object; unknown members are rejected so that typos surface.
struct ObjectReader {
    let object: JSONObject
    let path: String

    func has(_ key: String) -> Bool { object[key] != nil }

    /// The member `key`, or nil when it is absent. A JSON `null` counts as present.
    func field(_ key: String) -> Field? {
        object[key].map { Field($0, path: Field.memberPath(path, key)) }
    }

    /// The member `key`, or nil when it is absent. A null member is an error here: null
    /// means something only where the API says so (clearing an override), and those places
    /// read the member with `field(_:)`.
    func optional(_ key: String) throws(APIError) -> Field? {
        guard let field = field(key) else { return nil }
        guard !field.isNull else { throw .wrongType(field.path, expected: "a value (null means nothing here)", got: "null") }
        return field
    }

    /// The member `key`; absent or null is `missing_field`.
    func required(_ key: String) throws(APIError) -> Field {
        guard let field = field(key), !field.isNull else { throw .missing(Field.memberPath(path, key)) }
        return field
    }

    /// Rejects members not in `allowed`.
    func allowOnly(_ allowed: [String]) throws(APIError) {
        for key in object.keys where !allowed.contains(key) {
            throw .unknownField(Field.memberPath(path, key), allowed: allowed)
        }
    }

    /// Rejects members not in `allowed`, as `allowOnly(_:)`, but a member `misplaced` knows
    /// (one that is valid elsewhere: beside a member this object lacks, or inside another)
    /// gets `misplaced`'s error, which says what to add or where it goes.
    func allowOnly(_ allowed: [String], misplaced: (String) -> APIError?) throws(APIError) {
        for key in object.keys where !allowed.contains(key) {
            throw misplaced(key) ?? .unknownField(Field.memberPath(path, key), allowed: allowed)
        }
    }
}
