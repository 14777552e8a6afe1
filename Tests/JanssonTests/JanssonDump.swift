import CJansson
import Jansson

/// The reference the writer is held to: `value` built as a jansson tree and written by
/// jansson's own `json_dumpb`, as the service did before `JSONWriter` (test code only).
enum JanssonDump {
    static func text(of value: JSON, realPrecision: Int) -> [UInt8] {
        let precision = min(max(realPrecision, 0), 31)
        guard let root = node(value) else { return [] }
        defer { json_decref(root) }
        let flags = Int(JSON_COMPACT | JSON_ENCODE_ANY) | (precision << 11)
        let needed = json_dumpb(root, nil, 0, flags)
        return [UInt8](unsafeUninitializedCapacity: needed) { buffer, initialized in
            initialized = buffer.withMemoryRebound(to: CChar.self) { json_dumpb(root, $0.baseAddress, needed, flags) }
        }
    }

    private static func node(_ value: JSON) -> UnsafeMutablePointer<json_t>? {
        switch value {
        case .null: return json_null()
        case .bool(let flag): return flag ? json_true() : json_false()
        case .integer(let integer): return json_integer(integer)
        case .real(let real): return real.isFinite ? json_real(real) : json_null()
        case .string(let text): return utf8(text) { json_stringn_nocheck($0, $1) }
        case .array(let elements):
            let array = json_array()
            for element in elements { json_array_append_new(array, node(element)) }
            return array
        case .object(let object):
            let node = json_object()
            for member in object {
                let child = self.node(member.value)
                _ = utf8(member.key) { json_object_setn_new_nocheck(node, $0, $1, child) }
            }
            return node
        }
    }

    private static func utf8<R>(_ text: String, _ body: (UnsafePointer<CChar>, Int) -> R) -> R {
        var text = text
        return text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                withUnsafePointer(to: CChar(0)) { empty in body(chars.baseAddress ?? empty, chars.count) }
            }
        }
    }
}
