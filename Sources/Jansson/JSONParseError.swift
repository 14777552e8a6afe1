/// Why jansson rejected a text: its message and where, from `json_error_t`.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// 1-based line.
    public let line: Int
    /// Column on that line, as jansson counts it (1-based, in UTF-8 characters).
    public let column: Int
    /// Byte offset from the start of the text.
    public let position: Int
    public let message: String

    public init(line: Int, column: Int, position: Int, message: String) {
        self.line = line
        self.column = column
        self.position = position
        self.message = message
    }

    public var description: String { "line \(line), column \(column): \(message)" }
}
