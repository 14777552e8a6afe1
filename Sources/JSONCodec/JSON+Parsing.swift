import CJansson

extension JSON {
    /// Parses UTF-8 text with jansson (`json_loadb`; the bytes need no NUL terminator).
    ///
    /// Any value is accepted at the top level. Duplicate keys in an object are an error, and so
    /// are invalid UTF-8, an empty text, trailing text, integers beyond 64 bits, numbers beyond
    /// a double, and nesting deeper than jansson's 2048 levels. `\u0000` is allowed in string
    /// values but not in keys (a jansson limit).
    ///
    /// - Throws: `JSONParseError`, with jansson's message, line and column.
    /// - Complexity: O(size of the text); the conversion to `JSON` uses no recursion.
    public static func parse(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> JSON {
        let result = bytes.withContiguousStorageIfAvailable { load(UnsafeRawBufferPointer($0)) }
            ?? Array(bytes).withUnsafeBytes { load($0) }
        return try result.get()
    }

    /// Parses a string's UTF-8 text; see `parse(_:)` for bytes.
    ///
    /// - Throws: `JSONParseError`, with jansson's message, line and column.
    public static func parse(_ text: String) throws(JSONParseError) -> JSON {
        var text = text
        return try text.withUTF8 { load(UnsafeRawBufferPointer($0)) }.get()
    }

    /// Loads `text` with jansson and converts the tree.
    private static func load(_ text: UnsafeRawBufferPointer) -> Result<JSON, JSONParseError> {
        var error = json_error_t()
        let flags = Int(JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL)
        // An empty buffer may have no address; jansson wants one all the same.
        let root = withUnsafePointer(to: 0 as CChar) { empty in
            json_loadb(text.baseAddress?.assumingMemoryBound(to: CChar.self) ?? empty, text.count, flags, &error)
        }
        guard let root else {
            let message = withUnsafeBytes(of: &error.text) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            return .failure(JSONParseError(
                line: Int(error.line), column: Int(error.column), position: Int(error.position), message: message))
        }
        defer { json_decref(root) }
        return .success(JSON(jansson: root))
    }

    /// A container being converted: its jansson node, where the walk is in it, and the
    /// values converted so far.
    private struct PendingContainer {
        let node: UnsafeMutablePointer<json_t>
        /// The next element of an array.
        var index = 0
        /// The current member of an object.
        var iterator: UnsafeMutableRawPointer?
        var elements: [JSON] = []
        var members: [JSONObject.Element] = []
    }

    /// Converts a jansson tree, depth first with an explicit stack rather than recursion, so
    /// that deep texts cannot exhaust a thread's stack here.
    init(jansson root: UnsafeMutablePointer<json_t>) {
        var stack: [PendingContainer] = []
        var node = root
        descend: while true {
            // Convert `node`, or enter it when it is a non-empty container.
            var value: JSON
            switch node.pointee.type {
            case JSON_OBJECT:
                if let iterator = json_object_iter(node) {
                    var pending = PendingContainer(node: node, iterator: iterator)
                    pending.members.reserveCapacity(json_object_size(node))
                    stack.append(pending)
                    node = json_object_iter_value(iterator)!
                    continue descend
                }
                value = .object(JSONObject())
            case JSON_ARRAY:
                if json_array_size(node) > 0 {
                    var pending = PendingContainer(node: node)
                    pending.elements.reserveCapacity(json_array_size(node))
                    stack.append(pending)
                    node = json_array_get(node, 0)!
                    continue descend
                }
                value = .array([])
            case JSON_STRING:
                value = .string(Self.string(json_string_value(node), count: json_string_length(node)))
            case JSON_INTEGER:
                value = .integer(json_integer_value(node))
            case JSON_REAL:
                value = .real(json_real_value(node))
            case JSON_TRUE:
                value = .bool(true)
            case JSON_FALSE:
                value = .bool(false)
            default:
                value = .null
            }
            // Hand `value` to the containers it completes, up to one with more to convert.
            while !stack.isEmpty {
                let top = stack.count - 1
                let parent = stack[top].node
                if let iterator = stack[top].iterator {
                    let key = Self.string(json_object_iter_key(iterator), count: json_object_iter_key_len(iterator))
                    stack[top].members.append((key, value))
                    if let next = json_object_iter_next(parent, iterator) {
                        stack[top].iterator = next
                        node = json_object_iter_value(next)!
                        continue descend
                    }
                    value = .object(JSONObject(uniqueMembers: stack.removeLast().members))
                } else {
                    stack[top].elements.append(value)
                    stack[top].index += 1
                    if stack[top].index < json_array_size(parent) {
                        node = json_array_get(parent, stack[top].index)!
                        continue descend
                    }
                    value = .array(stack.removeLast().elements)
                }
            }
            self = value
            return
        }
    }

    /// A String from jansson's UTF-8 bytes (already validated by jansson; NULs kept).
    private static func string(_ text: UnsafePointer<CChar>?, count: Int) -> String {
        guard let text, count > 0 else { return "" }
        return UnsafeRawPointer(text).withMemoryRebound(to: UInt8.self, capacity: count) {
            String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }
    }
}
