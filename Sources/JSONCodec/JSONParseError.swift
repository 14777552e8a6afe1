/// Why jansson rejected a text: its message and where, from `json_error_t`.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The line of the error, from 1.
    public let line: Int
    /// The column on that line, from 1, counted in Unicode characters (not bytes), as jansson
    /// counts it: the last character jansson read, usually the end of the offending token.
    public let column: Int
    /// The number of bytes jansson had read when it stopped.
    public let position: Int
    /// jansson's message, such as `unexpected token near '}'`.
    public let message: String

    /// An error at a place in the text.
    public init(line: Int, column: Int, position: Int, message: String) {
        self.line = line
        self.column = column
        self.position = position
        self.message = message
    }

    /// `line 1, column 7: unexpected token near '}'`.
    public var description: String { "line \(line), column \(column): \(message)" }
}
