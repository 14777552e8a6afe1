import Jansson

/// Resolves an error's field path (`rows[2].size.fixed`, `[0]`, `viewport`) in the JSON it
/// was decoded from, the way `Field` builds them: a member's key after a dot (none at the
/// start), an element's index in brackets.
public enum FieldPath {
    /// The value `path` names in `root`, or nil when it names nothing. Keys may themselves
    /// hold `.` or `[` (`Field` does not escape them), so brackets are an index only in an
    /// array, and at each object the longest key that fits the rest of the path wins.
    /// - Complexity: O(path length × members on the way).
    public static func resolve(_ path: String, in root: JSON) -> JSON? {
        // Bytes, not Characters: a key starting with a combining mark joins the dot before it.
        var rest = Array(path.utf8)[...]
        var value = root
        var atStart = true
        while !rest.isEmpty {
            if rest.first == UInt8(ascii: "["), let array = value.arrayValue {
                guard let close = rest.firstIndex(of: UInt8(ascii: "]")),
                      let index = Int(String(decoding: rest[(rest.startIndex + 1)..<close], as: UTF8.self)),
                      array.indices.contains(index) else { return nil }
                value = array[index]
                rest = rest[(close + 1)...]
            } else {
                if !atStart {
                    guard rest.first == UInt8(ascii: ".") else { return nil }
                    rest = rest.dropFirst()
                }
                guard let object = value.objectValue else { return nil }
                let fitting = object.filter { key, _ in
                    let key = key.utf8
                    return rest.starts(with: key)
                        && (rest.count == key.count || [UInt8(ascii: "."), UInt8(ascii: "[")].contains(rest.dropFirst(key.count).first))
                }
                guard let (key, member) = fitting.max(by: { $0.key.utf8.count < $1.key.utf8.count }) else { return nil }
                value = member
                rest = rest.dropFirst(key.utf8.count)
            }
            atStart = false
        }
        return value
    }

    /// The path of the container holding what `path` names: `a.b` → `a`, `a[3]` → `a`, `b` → "".
    public static func parent(_ path: String) -> String {
        guard let cut = path.utf8.lastIndex(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "[") }) else { return "" }
        return String(decoding: path.utf8[..<cut], as: UTF8.self)
    }
}
