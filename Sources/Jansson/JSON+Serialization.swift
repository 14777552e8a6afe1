import CJansson

extension JSON {
    /// Compact UTF-8 text written by jansson (`json_dumpb`): no spaces, members in order,
    /// non-ASCII characters as they are, `U+0000` and control characters escaped.
    ///
    /// Reals are written with `realPrecision` significant digits, from 1 to 31 (15 prints 0.1
    /// as `0.1`; 17 round-trips every double; 0 means jansson's default, 17), and always with a
    /// fraction or an exponent (`1.0`), so they read back as reals. Non-finite reals, which JSON
    /// cannot express, are written as `null`. Any value may be at the top level. Below 17
    /// digits, reals next to the largest double round up past it (`1.79769313486232e308` at
    /// 15), which jansson then refuses to read back as too large.
    ///
    /// - Complexity: O(size of the value). Building the jansson tree uses no recursion;
    ///   jansson's writer recurses once per level of nesting.
    public func serialized(realPrecision: Int = 15) -> [UInt8] {
        let precision = min(max(realPrecision, 0), 31)
        var builder = TreeBuilder(realDigits: precision == 0 ? 17 : precision)
        guard let root = builder.build(self) else { return Array("null".utf8) }
        defer { json_decref(root) }
        let flags = Int(JSON_COMPACT | JSON_ENCODE_ANY) | (precision << 11)
        // One dump into a buffer of the estimated size; only when escapes made the text longer
        // than that, a second into a buffer of the size jansson reported.
        var capacity = builder.estimatedSize
        while true {
            var needed = 0
            let text = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                needed = buffer.withMemoryRebound(to: CChar.self) { json_dumpb(root, $0.baseAddress, capacity, flags) }
                initialized = needed <= capacity ? needed : 0
            }
            if needed == 0 { return Array("null".utf8) }  // jansson failed (out of memory)
            if needed <= capacity { return text }
            capacity = needed
        }
    }

    /// The compact text of `serialized()` as a String.
    public var serializedString: String {
        String(decoding: serialized(), as: UTF8.self)
    }
}

/// Builds the jansson tree of a `JSON` value, depth first with an explicit stack, and
/// estimates the length of its compact text on the way.
private struct TreeBuilder {
    /// The significant digits of reals.
    let realDigits: Int
    /// An upper bound of the text's length, unless strings need escapes.
    private(set) var estimatedSize = 0

    init(realDigits: Int) { self.realDigits = realDigits }

    /// A container whose members are being added.
    private struct PendingContainer {
        let node: UnsafeMutablePointer<json_t>
        let elements: [JSON]
        let members: [JSONObject.Element]
        let isObject: Bool
        var index = 0
        var count: Int { isObject ? members.count : elements.count }
    }

    /// A new jansson tree for `value`, with a reference count of 1 (the caller releases it).
    /// A node jansson cannot allocate is left out; nil when the root cannot be.
    mutating func build(_ value: JSON) -> UnsafeMutablePointer<json_t>? {
        guard let root = node(for: value) else { return nil }
        var stack: [PendingContainer] = []
        if let pending = Self.pending(root, value) { stack.append(pending) }
        while !stack.isEmpty {
            let top = stack.count - 1
            let index = stack[top].index
            guard index < stack[top].count else {
                stack.removeLast()
                continue
            }
            stack[top].index = index + 1
            let parent = stack[top].node
            let child: JSON
            let attached: Bool
            if stack[top].isObject {
                var key = stack[top].members[index].key
                child = stack[top].members[index].value
                guard let node = node(for: child) else { continue }
                estimatedSize += key.utf8.count + 4  // quotes, colon, comma
                // The `_new` setters take over the node's reference, even when they fail.
                attached = key.withUTF8 { utf8 in
                    utf8.withMemoryRebound(to: CChar.self) { key in
                        // Swift strings are valid UTF-8: no need for jansson to check. With the
                        // length given, a key may hold NUL.
                        guard let base = key.baseAddress else { return json_object_set_new_nocheck(parent, "", node) }
                        return json_object_setn_new_nocheck(parent, base, key.count, node)
                    }
                } == 0
                if attached, let pending = Self.pending(node, child) { stack.append(pending) }
            } else {
                child = stack[top].elements[index]
                guard let node = node(for: child) else { continue }
                estimatedSize += 1  // comma
                attached = json_array_append_new(parent, node) == 0
                if attached, let pending = Self.pending(node, child) { stack.append(pending) }
            }
        }
        return root
    }

    /// The members still to add to `node` when `value` is a non-empty container.
    private static func pending(_ node: UnsafeMutablePointer<json_t>, _ value: JSON) -> PendingContainer? {
        switch value {
        case .array(let elements) where !elements.isEmpty:
            PendingContainer(node: node, elements: elements, members: [], isObject: false)
        case .object(let object) where !object.isEmpty:
            PendingContainer(node: node, elements: [], members: object.members, isObject: true)
        default:
            nil
        }
    }

    /// A new jansson node for a scalar, or an empty container for a container; nil if
    /// jansson cannot allocate it.
    private mutating func node(for value: JSON) -> UnsafeMutablePointer<json_t>? {
        switch value {
        case .null:
            estimatedSize += 4
            return json_null()
        case .bool(let value):
            estimatedSize += 5
            return value ? json_true() : json_false()
        case .integer(let value):
            estimatedSize += Self.length(of: value)
            return json_integer(value)
        case .real(let value):
            // Sign, point, digits, and an exponent such as e-308.
            estimatedSize += realDigits + 7
            // json_real refuses NaN and infinities (NULL): write them as null.
            return value.isFinite ? json_real(value) : json_null()
        case .string(var text):
            estimatedSize += text.utf8.count + 2
            return text.withUTF8 { utf8 in
                utf8.withMemoryRebound(to: CChar.self) { chars in
                    // Valid UTF-8 already; the length keeps embedded NUL bytes.
                    guard let base = chars.baseAddress else { return json_string("") }
                    return json_stringn_nocheck(base, chars.count)
                }
            }
        case .array:
            estimatedSize += 2
            return json_array()
        case .object:
            estimatedSize += 2
            return json_object()
        }
    }

    /// The number of characters of `value` in decimal.
    private static func length(of value: Int64) -> Int {
        var magnitude = value.magnitude
        var length = value < 0 ? 2 : 1
        while magnitude >= 10 {
            magnitude /= 10
            length += 1
        }
        return length
    }
}
