import JSONCodec

/// Resolves an error's field path (`rows[2].size.fixed`, `[0]`, `props["a.b"]`) in the JSON it
/// was decoded from, the way `Field` builds them: a plain key after a dot (none at the start),
/// an element's index in brackets, any other key in brackets as a JSON string.
public enum FieldPath {
    /// One step of a path.
    enum Step: Equatable {
        case key(String)
        case index(Int)
    }

    /// The value `path` names in `root`, or nil when it names nothing (or is not a path).
    /// - Complexity: O(path length + members on the way).
    public static func resolve(_ path: String, in root: JSON) -> JSON? {
        guard let steps = steps(path) else { return nil }
        var value = root
        for step in steps {
            switch step {
            case .key(let key):
                guard let member = value.objectValue?[key] else { return nil }
                value = member
            case .index(let index):
                guard let array = value.arrayValue, array.indices.contains(index) else { return nil }
                value = array[index]
            }
        }
        return value
    }

    /// The path of the container holding what `path` names: `a.b` → `a`, `a[3]` → `a`,
    /// `a["x.y"]` → `a`, `b` → "".
    public static func parent(_ path: String) -> String {
        guard let steps = steps(path), !steps.isEmpty else { return "" }
        return steps.dropLast().reduce(into: "") { text, step in
            switch step {
            case .index(let index): text += "[\(index)]"
            case .key(let key) where plain(key): text += text.isEmpty ? key : "." + key
            case .key(let key): text += "[" + JSON.string(key).serializedString + "]"
            }
        }
    }

    /// Whether `Field` writes `key` after a dot rather than in brackets.
    static func plain(_ key: String) -> Bool {
        !key.isEmpty && !key.utf8.contains { $0 < 0x20 || Array(#".[]"\"#.utf8).contains($0) }
    }

    /// The steps of `path`, or nil when it is not one `Field` writes.
    static func steps(_ path: String) -> [Step]? {
        var rest = Array(path.utf8)[...]
        var steps: [Step] = []
        while let first = rest.first {
            if first == UInt8(ascii: "[") {
                rest = rest.dropFirst()
                if rest.first == UInt8(ascii: "\"") {
                    // A JSON string: up to the first unescaped quote.
                    var end = rest.startIndex + 1
                    while end < rest.endIndex && rest[end] != UInt8(ascii: "\"") { end += rest[end] == UInt8(ascii: "\\") ? 2 : 1 }
                    guard end < rest.endIndex, let key = (try? JSON.parse(Array(rest[...end])))?.stringValue else { return nil }
                    steps.append(.key(key))
                    rest = rest[(end + 1)...]
                } else {
                    guard let close = rest.firstIndex(of: UInt8(ascii: "]")),
                          let index = Int(String(decoding: rest[..<close], as: UTF8.self)) else { return nil }
                    steps.append(.index(index))
                    rest = rest[close...]
                }
                guard rest.first == UInt8(ascii: "]") else { return nil }
                rest = rest.dropFirst()
            } else {
                if !steps.isEmpty {
                    guard first == UInt8(ascii: ".") else { return nil }
                    rest = rest.dropFirst()
                }
                let end = rest.firstIndex { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "[") } ?? rest.endIndex
                guard end > rest.startIndex else { return nil }
                steps.append(.key(String(decoding: rest[..<end], as: UTF8.self)))
                rest = rest[end...]
            }
        }
        return steps
    }
}
