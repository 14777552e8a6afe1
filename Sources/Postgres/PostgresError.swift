/// A failure reported by libpq or the server: what kind, the server's SQLSTATE when it sent
/// one, and its message.
public struct PostgresError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// No usable connection: it could not be opened, or it broke (the server went away).
        case connection
        /// The server refused a statement (`sqlState` says why).
        case query
        /// A result column of a type this layer does not decode (its type OID).
        case unsupportedType(UInt32)
    }

    public let kind: Kind
    /// The five-character SQLSTATE code (`23505` unique violation, `57P01` admin shutdown…).
    public let sqlState: String?
    public let message: String

    public init(kind: Kind, sqlState: String? = nil, message: String) {
        self.kind = kind
        self.sqlState = sqlState
        self.message = message
    }

    public var description: String {
        "PostgreSQL \(sqlState.map { "error \($0)" } ?? "\(kind)"): \(message)"
    }

    /// The server can't be reached or is shutting down or starting: retrying later may work.
    /// Class 08 (connection exception) and 57P01–57P03 (admin/crash shutdown, cannot connect now).
    public var isUnavailable: Bool {
        kind == .connection || sqlState?.hasPrefix("08") == true || ["57P01", "57P02", "57P03"].contains(sqlState)
    }

    /// A unique or primary-key constraint refused a row (`23505`).
    public var isUniqueViolation: Bool { sqlState == "23505" }
}
