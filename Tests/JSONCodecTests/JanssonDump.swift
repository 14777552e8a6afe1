import CJansson
import JSONCodec

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

    /// What the writer must write: jansson's text, except that at a precision of 15 or 16 each
    /// real is jansson's text of it at the fewest digits up to 17 that read back (`strtod`) as
    /// the real itself (the writer's one departure; see `NumberText`). Such reals are set in
    /// jansson's text through placeholder strings (U+E000 and an index, quoted; the corpus's
    /// strings never contain U+E000, so a placeholder is never mistaken for one of them).
    static func writerText(of value: JSON, realPrecision: Int) -> [UInt8] {
        guard realPrecision == 15 || realPrecision == 16 else { return text(of: value, realPrecision: realPrecision) }
        var reals: [[UInt8]] = []
        var result = text(of: placeholders(value, realPrecision: realPrecision, reals: &reals), realPrecision: realPrecision)
        for (index, real) in reals.enumerated().reversed() {
            let placeholder = Array("\"\u{E000}\(index)\"".utf8)
            guard let range = result.firstRange(of: placeholder) else { continue }
            result.replaceSubrange(range, with: real)
        }
        return result
    }

    /// jansson's text of `real` at the fewest digits from `realPrecision` to 17 that reads back
    /// as `real`.
    static func realText(_ real: Double, realPrecision: Int) -> [UInt8] {
        var digits = realPrecision
        while digits < 17 {
            let text = text(of: .real(real), realPrecision: digits)
            if strtod(String(decoding: text, as: UTF8.self), nil) == real { return text }
            digits += 1
        }
        return text(of: .real(real), realPrecision: 17)
    }

    /// `value` with each real that needs more than `realPrecision` digits replaced by the
    /// string U+E000 and its index in `reals`, where its text goes.
    private static func placeholders(_ value: JSON, realPrecision: Int, reals: inout [[UInt8]]) -> JSON {
        switch value {
        case .real(let real) where real.isFinite:
            let text = realText(real, realPrecision: realPrecision)
            guard text != self.text(of: value, realPrecision: realPrecision) else { return value }
            reals.append(text)
            return .string("\u{E000}\(reals.count - 1)")
        case .array(let elements):
            return .array(elements.map { placeholders($0, realPrecision: realPrecision, reals: &reals) })
        case .object(let object):
            return .object(JSONObject(object.map { ($0.key, placeholders($0.value, realPrecision: realPrecision, reals: &reals)) }))
        default:
            return value
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
