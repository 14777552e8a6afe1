import ScrollStackCore
import ScrollStackStore

/// A failed request, as the client sees it: `{"error":{"status","code","message","field"}}`.
///
/// `field` is the JSON path of the offending input (`rows[2].size.fixed`), a query
/// parameter's name, or nil when no single input is at fault.
public struct APIError: Error, Sendable, Equatable {
    /// What failed, for programs; it decides the status (`Code.status`).
    public var code: Code
    public var message: String
    public var field: String?
    /// The stack's current revision, for 412 answers.
    public var revision: Int?
    /// Extra response headers, such as `Allow` for 405.
    public var headers: [(name: String, value: String)] = []
    /// The store's refusal this answers, when it answers one (`init(_: JournalError)`): what
    /// the layers that try a write again test, by type rather than by `code`.
    public var journalError: JournalError?

    /// Whether another writer journaled the revision first (409 `revision_conflict`): the
    /// change was not kept and may be tried again on the new state.
    public var isRevisionConflict: Bool {
        if case .conflict? = journalError { return true }
        return false
    }

    /// The HTTP status the error is answered with: its code's.
    public var status: Int { code.status }

    public init(_ code: Code, message: String, field: String? = nil, revision: Int? = nil, headers: [(name: String, value: String)] = []) {
        self.code = code
        self.message = message
        self.field = field
        self.revision = revision
        self.headers = headers
    }

    public static func == (a: APIError, b: APIError) -> Bool {
        a.code == b.code && a.message == b.message && a.field == b.field && a.revision == b.revision
    }

    // MARK: The errors the service answers with

    static func malformedJSON(line: Int, column: Int, detail: String) -> APIError {
        APIError(.malformedJSON, message: "the body is not valid JSON: line \(line), column \(column): \(detail)")
    }

    static func badQuery(_ name: String, _ message: String) -> APIError {
        APIError(.badQueryParameter, message: message, field: name)
    }

    static func wrongType(_ field: String, expected: String, got: String) -> APIError {
        APIError(.wrongType, message: "expected \(expected), got \(got)", field: field)
    }

    static func missing(_ field: String, _ why: String = "is required") -> APIError {
        APIError(.missingField, message: why, field: field)
    }

    static func unknownField(_ field: String, allowed: [String]) -> APIError {
        APIError(.unknownField, message: "is not a known field; expected one of: \(allowed.joined(separator: ", "))", field: field)
    }

    static func invalid(_ field: String?, _ message: String) -> APIError {
        APIError(.invalidValue, message: message, field: field)
    }

    static func stackNotFound(_ id: String) -> APIError {
        APIError(.stackNotFound, message: "no stack has the id \"\(id)\"")
    }

    static func rowNotFound(_ reference: RowReference) -> APIError {
        switch reference {
        case .id(let id): APIError(.rowNotFound, message: "no row has the id \"\(id)\"")
        case .index(let index): APIError(.rowNotFound, message: "no row has the index \(index)")
        }
    }

    static func routeNotFound(_ method: String, _ path: String) -> APIError {
        APIError(.routeNotFound, message: "no route for \(method) \(path)")
    }

    static func methodNotAllowed(_ method: String, allowed: [String]) -> APIError {
        APIError(.methodNotAllowed, message: "\(method) is not allowed here; allowed: \(allowed.joined(separator: ", "))",
                 headers: [("Allow", allowed.joined(separator: ", "))])
    }

    static func duplicateStack(_ id: String) -> APIError {
        APIError(.duplicateID, message: "a stack with the id \"\(id)\" already exists", field: "id")
    }

    static func storageFailed(_ detail: String) -> APIError {
        APIError(.storageUnavailable, message: "the change could not be made durable, so it was not applied: \(detail)")
    }

    /// 412 for an `If-Match` that does not name the current revision of a `resource`
    /// ("stack" or "pile").
    static func preconditionFailed(expected: String, current: Int, resource: String = "stack") -> APIError {
        APIError(.preconditionFailed,
                 message: "If-Match \(expected) does not match the \(resource)'s revision \(current)",
                 revision: current, headers: [("ETag", "\"\(current)\"")])
    }

    static func unsupportedMediaType(_ contentType: String?) -> APIError {
        let got = contentType.map { "got \"\($0)\"" } ?? "no Content-Type was given"
        return APIError(.unsupportedMediaType, message: "the body must be application/json; \(got)")
    }

    /// The HTTP view of a model error. Unknown rows named in a body are 422 (the route
    /// exists; its input is wrong); rows named in the path are resolved first and give 404.
    init(_ error: StackError) {
        let code: Code
        switch error.code {
        case .duplicateID: code = .duplicateID
        case .unknownRow: code = .unknownRow
        case .indexOutOfRange: code = .indexOutOfRange
        case .invalidValue: code = .invalidValue
        case .emptyBatch: code = .emptyBatch
        }
        self.init(code, message: error.message, field: error.field)
    }
}
