import JSONCodec

extension Field {
    /// The path of member `key` of the value at `parent`. A key made only of characters that
    /// cannot be mistaken for path syntax follows a dot (`rows[2].size`; no dot at the start);
    /// any other key (empty, or holding `.`, `[`, `]`, `"`, `\` or a control character) is
    /// written in brackets as a JSON string (`props["a.b"]`, `["x[0]"]`), so that every path
    /// names exactly one place (Docs/API.md, "Error field paths").
    /// - Complexity: O(key length).
    static func memberPath(_ parent: String, _ key: String) -> String {
        guard needsBrackets(key) else { return parent.isEmpty ? key : parent + "." + key }
        return parent + "[" + JSON.string(key).serializedString + "]"
    }

    /// The path of a place below this field named by a path of plain keys (`relativeOffset.y`),
    /// as the model's own rule checks name them.
    func descendantPath(_ relative: String) -> String { path.isEmpty ? relative : path + "." + relative }

    private static func needsBrackets(_ key: String) -> Bool {
        key.isEmpty || key.utf8.contains { byte in
            byte < 0x20 || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]")
                || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
        }
    }
}
