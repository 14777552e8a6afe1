import CJansson

extension JSON {
    /// Parses `bytes` with jansson: any top-level value, duplicate keys rejected, `\u0000`
    /// allowed in string values (not in keys: a jansson limit), integers limited to 64 bits,
    /// nesting limited to jansson's 2048 levels.
    ///
    /// - Complexity: O(size of the text).
    public static func parse(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> JSON {
        var error = json_error_t()
        let flags = Int(JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL)
        let root: UnsafeMutablePointer<json_t>? = bytes.withContiguousStorageIfAvailable { buffer in
            buffer.withMemoryRebound(to: CChar.self) { json_loadb($0.baseAddress, $0.count, flags, &error) }
        } ?? Array(bytes).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { json_loadb($0.baseAddress, $0.count, flags, &error) }
        }
        guard let root else {
            let message = withUnsafeBytes(of: &error.text) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            throw JSONParseError(line: Int(error.line), column: Int(error.column), position: Int(error.position), message: message)
        }
        defer { json_decref(root) }
        return JSON(jansson: root)
    }

    /// Parses a string.
    public static func parse(_ text: String) throws(JSONParseError) -> JSON {
        try parse(Array(text.utf8))
    }

    /// Converts a jansson tree. Recursion depth is bounded by jansson's parser limit (2048),
    /// well within the stack of every thread here.
    init(jansson value: UnsafeMutablePointer<json_t>) {
        switch value.pointee.type {
        case JSON_OBJECT:
            var members: [(String, JSON)] = []
            members.reserveCapacity(json_object_size(value))
            var iterator = json_object_iter(value)
            while let current = iterator {
                let key = String(cString: json_object_iter_key(current))
                members.append((key, JSON(jansson: json_object_iter_value(current))))
                iterator = json_object_iter_next(value, current)
            }
            self = .object(JSONObject(members))
        case JSON_ARRAY:
            let count = json_array_size(value)
            var elements: [JSON] = []
            elements.reserveCapacity(count)
            for i in 0..<count { elements.append(JSON(jansson: json_array_get(value, i))) }
            self = .array(elements)
        case JSON_STRING:
            let length = json_string_length(value)
            let text = json_string_value(value)!
            self = .string(text.withMemoryRebound(to: UInt8.self, capacity: length) {
                String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
            })
        case JSON_INTEGER:
            self = .integer(json_integer_value(value))
        case JSON_REAL:
            self = .real(json_real_value(value))
        case JSON_TRUE:
            self = .bool(true)
        case JSON_FALSE:
            self = .bool(false)
        default:
            self = .null
        }
    }
}
