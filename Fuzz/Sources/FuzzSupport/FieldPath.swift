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
        var rest = Substring(path)
        var value = root
        var atStart = true
        while !rest.isEmpty {
            if rest.first == "[", let array = value.arrayValue {
                guard let close = rest.firstIndex(of: "]"), let index = Int(rest[rest.index(after: rest.startIndex)..<close]),
                      array.indices.contains(index) else { return nil }
                value = array[index]
                rest = rest[rest.index(after: close)...]
            } else {
                if !atStart {
                    guard rest.first == "." else { return nil }
                    rest = rest.dropFirst()
                }
                guard let object = value.objectValue else { return nil }
                let fitting = object.filter { key, _ in
                    rest.hasPrefix(key) && (rest.count == key.count || [".", "["].contains(rest.dropFirst(key.count).first))
                }
                guard let (key, member) = fitting.max(by: { $0.key.count < $1.key.count }) else { return nil }
                value = member
                rest = rest.dropFirst(key.count)
            }
            atStart = false
        }
        return value
    }

    /// The path of the container holding what `path` names: `a.b` → `a`, `a[3]` → `a`, `b` → "".
    public static func parent(_ path: String) -> String {
        guard let cut = path.lastIndex(where: { $0 == "." || $0 == "[" }) else { return "" }
        return String(path[..<cut])
    }
}
