/// A failure the HTTP layer itself detects before any handler runs. The server asks its
/// error responder to turn it into a response, so the body's format stays the application's.
public struct HTTPError: Error, Sendable, Hashable {
    /// The status to answer with: 413, …
    public let status: Int
    /// A stable, machine-readable name: `payload_too_large`.
    public let code: String
    /// What went wrong, for people.
    public let message: String
    /// The header field at fault (`Content-Length`), if one is.
    public let field: String?

    /// An error; prefer the named constructors.
    public init(status: Int, code: String, message: String, field: String? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.field = field
    }

    /// The request is malformed at the HTTP level (400 `bad_request`): a NUL or control byte
    /// in its head, a header that is not a token, conflicting framing, `%00` in the path.
    public static func badRequest(_ message: String, field: String? = nil) -> HTTPError {
        HTTPError(status: 400, code: "bad_request", message: message, field: field)
    }

    /// The body is larger than the server accepts (413 `payload_too_large`).
    public static func payloadTooLarge(limit: Int) -> HTTPError {
        HTTPError(status: 413, code: "payload_too_large", message: "the body is larger than the limit of \(limit) bytes")
    }
}
