/// Why an operation was rejected. A rejected operation changes nothing.
///
/// `field` names the offending input as a path in the model's own vocabulary, the same
/// names the HTTP API uses: `rows[2].size.fixed`, `viewport.width`, `to`, `refs[1]`.
public struct StackError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of rule that was broken.
    public enum Code: String, Sendable, Hashable {
        /// A row reference names no row of the stack.
        case unknownRow
        /// An index lies outside the range the operation accepts.
        case indexOutOfRange
        /// A row id is already used in the stack, or twice in one batch.
        case duplicateID
        /// A value breaks a rule: negative, not finite, malformed, missing.
        case invalidValue
        /// A batch is empty where that means nothing.
        case emptyBatch
    }

    public let code: Code
    public let message: String
    public let field: String?

    public init(_ code: Code, _ message: String, field: String?) {
        self.code = code
        self.message = message
        self.field = field
    }

    public var description: String {
        field.map { "\($0): \(message)" } ?? message
    }

    /// The same error with its field nested under `prefix` (`rows[2]` + `size` → `rows[2].size`).
    public func nested(under prefix: String) -> StackError {
        let path: String
        switch field {
        case nil, "": path = prefix
        case let field? where field.hasPrefix("["): path = prefix + field
        case let field?: path = prefix + "." + field
        }
        return StackError(code, message, field: path)
    }
}

extension StackError {
    static func unknownRow(_ reference: RowReference, field: String?) -> StackError {
        switch reference {
        case .id(let id): StackError(.unknownRow, "no row has the id \"\(id)\"", field: field)
        case .index(let index): StackError(.unknownRow, "no row has the index \(index)", field: field)
        }
    }

    static func indexOutOfRange(_ index: Int, _ range: ClosedRange<Int>?, field: String?) -> StackError {
        guard let range else {
            return StackError(.indexOutOfRange, "index \(index) is out of range: the stack is empty", field: field)
        }
        return StackError(.indexOutOfRange, "index \(index) is out of range \(range.lowerBound)…\(range.upperBound)", field: field)
    }

    static func invalid(_ message: String, field: String?) -> StackError {
        StackError(.invalidValue, message, field: field)
    }
}

/// Checks shared by every operation that takes numbers.
enum Check {
    /// A number as a client wrote it: `-4`, not `-4.0`.
    static func text(_ value: Double) -> String {
        value.isFinite && value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }

    /// The largest length accepted: far beyond any screen, small enough that a million of
    /// them still add up exactly enough and never overflow.
    static let maxLength = 1e9
    /// The largest offset magnitude accepted.
    static let maxOffset = 1e15

    /// Whether `value` is finite and in 0…`maxLength` (what `length` accepts).
    static func isLength(_ value: Double) -> Bool { value.isFinite && value >= 0 && value <= maxLength }

    /// Throws unless `value` is finite and in 0…`maxLength`.
    static func length(_ value: Double, _ field: String) throws(StackError) {
        guard value.isFinite else { throw .invalid("must be a finite number, got \(text(value))", field: field) }
        guard value >= 0 else { throw .invalid("must not be negative, got \(text(value))", field: field) }
        guard value <= maxLength else { throw .invalid("must be at most 1000000000, got \(text(value))", field: field) }
    }

    /// Throws unless `value` is finite and within ±`maxOffset`.
    static func finite(_ value: Double, _ field: String) throws(StackError) {
        guard value.isFinite else { throw .invalid("must be a finite number, got \(text(value))", field: field) }
        guard abs(value) <= maxOffset else { throw .invalid("must be within ±1e15, got \(text(value))", field: field) }
    }

    static func insets(_ insets: EdgeInsets, _ field: String) throws(StackError) {
        // The fields' paths are built only for an error: for every row they cost more than the checks.
        guard !(isLength(insets.top) && isLength(insets.left) && isLength(insets.bottom) && isLength(insets.right)) else { return }
        try length(insets.top, field + ".top")
        try length(insets.left, field + ".left")
        try length(insets.bottom, field + ".bottom")
        try length(insets.right, field + ".right")
    }

    static func size(_ size: Size, _ field: String) throws(StackError) {
        try length(size.width, field + ".width")
        try length(size.height, field + ".height")
    }

    static func point(_ point: Point, _ field: String) throws(StackError) {
        try finite(point.x, field + ".x")
        try finite(point.y, field + ".y")
    }
}
