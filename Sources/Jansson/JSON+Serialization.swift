import CJansson
import Synchronization

/// The size of the last text written, a good first guess for the next buffer.
private let lastSerializedSize = Atomic<Int>(0)

extension JSON {
    /// Compact UTF-8 text written by jansson (`json_dumpb`), members in order. Reals are
    /// written with `realPrecision` significant digits (15 prints 0.1 as `0.1`; 17 round-trips
    /// every double). Non-finite reals, which JSON cannot express, are written as `null`.
    ///
    /// - Complexity: O(size of the value).
    public func serialized(realPrecision: Int = 15) -> [UInt8] {
        guard let root = makeJansson() else { return Array("null".utf8) }
        defer { json_decref(root) }
        let flags = Int(JSON_COMPACT | JSON_ENCODE_ANY) | ((realPrecision & 0x1F) << 11)
        // Usually one pass: dump into a buffer as large as the last answer needed; only a
        // larger text is dumped a second time, into a buffer of the size jansson reported.
        var capacity = max(256, lastSerializedSize.load(ordering: .relaxed))
        while true {
            var needed = 0
            let output = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                needed = buffer.withMemoryRebound(to: CChar.self) { json_dumpb(root, $0.baseAddress, capacity, flags) }
                initialized = needed <= capacity ? needed : 0
            }
            if needed <= capacity {
                lastSerializedSize.store(needed, ordering: .relaxed)
                return output
            }
            capacity = needed
        }
    }

    /// The compact text as a String.
    public var serializedString: String {
        String(decoding: serialized(), as: UTF8.self)
    }

    /// A new jansson value with a reference count of 1 (the caller releases it).
    private func makeJansson() -> UnsafeMutablePointer<json_t>? {
        switch self {
        case .null: return json_null()
        case .bool(let value): return value ? json_true() : json_false()
        case .integer(let value): return json_integer(value)
        case .real(let value): return value.isFinite ? json_real(value) : json_null()
        case .string(let value):
            var text = value
            return text.withUTF8 { utf8 in
                utf8.withMemoryRebound(to: CChar.self) { chars in
                    // json_stringn keeps embedded NUL bytes; an empty buffer may have no address.
                    chars.baseAddress.map { json_stringn($0, chars.count) } ?? json_string("")
                }
            }
        case .array(let elements):
            guard let array = json_array() else { return nil }
            for element in elements {
                if let item = element.makeJansson() { json_array_append_new(array, item) }
            }
            return array
        case .object(let object):
            guard let result = json_object() else { return nil }
            for (key, value) in object {
                if let item = value.makeJansson() { json_object_set_new(result, key, item) }
            }
            return result
        }
    }
}
