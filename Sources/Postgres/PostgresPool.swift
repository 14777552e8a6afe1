import Dispatch
import Synchronization

/// A fixed number of connections to one server, each lent to one caller at a time.
///
/// Connections are opened on first need. One found broken when lent (the server restarted,
/// the network failed; `isUsableNow` reads what arrived while it sat idle) is reset first; if that fails the caller gets `.connection` at once,
/// and the next caller tries again — so the pool reconnects by itself once the server is
/// back, and never holds a caller longer than one connect timeout.
public final class PostgresPool: Sendable {
    public let url: String
    public let size: Int
    private let connectTimeout: Int
    private let idle = Mutex<[PostgresConnection?]>([])
    /// Counts the connections not lent out.
    private let available: DispatchSemaphore

    /// A pool of `size` connections to `url`; nothing is opened yet.
    public init(url: String, size: Int, connectTimeout: Int = 5) {
        self.url = url
        self.size = max(1, size)
        self.connectTimeout = connectTimeout
        available = DispatchSemaphore(value: self.size)
        idle.withLock { $0 = Array(repeating: nil, count: self.size) }
    }

    /// Runs `body` with a connection of its own, waiting up to `wait` seconds for one to be
    /// free.
    ///
    /// - Throws: `.connection` when none is free in time or none can be opened; whatever
    ///   `body` throws (a connection that broke meanwhile is reset by the next borrower).
    public func withConnection<T>(wait: Double = 30, _ body: (PostgresConnection) throws(PostgresError) -> T) throws(PostgresError) -> T {
        guard available.wait(timeout: .now() + wait) == .success else {
            throw PostgresError(kind: .connection, message: "no free connection to PostgreSQL within \(wait) s")
        }
        var slot = idle.withLock { $0.popLast() ?? nil }
        defer {
            idle.withLock { $0.append(slot) }
            available.signal()
        }
        let connection: PostgresConnection
        if let existing = slot {
            if !existing.isUsableNow { try existing.reset() }
            connection = existing
        } else {
            connection = try PostgresConnection(url: url, connectTimeout: connectTimeout)
            slot = connection
        }
        return try body(connection)
    }
}
