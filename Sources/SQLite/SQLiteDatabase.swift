import CSQLite

#if canImport(Glibc)
import Glibc
#endif

/// A failure reported by SQLite, with its message.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    public let code: Int32
    public let message: String
    public var description: String { "SQLite error \(code): \(message)" }

    public init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    /// Whether the file itself failed: its pages are malformed (`SQLITE_CORRUPT`), it is not
    /// a database (`SQLITE_NOTADB`), or reading or writing it failed (`SQLITE_IOERR`, any of
    /// their extended codes). The same statement will fail again until the file is repaired.
    public var isDamage: Bool {
        [SQLITE_CORRUPT, SQLITE_NOTADB, SQLITE_IOERR].contains(code & 0xff)
    }
}

/// One SQLite connection, opened in serialized (thread-safe) mode. A thin layer: statements,
/// bindings and rows; it knows nothing of what is stored.
///
/// Every call holds one recursive lock, and a transaction holds it from BEGIN to COMMIT, so
/// threads sharing the connection never interleave inside each other's transactions.
public final class SQLiteDatabase: @unchecked Sendable {
    var handle: OpaquePointer?
    /// Prepared statements by SQL text, reused (reset, bindings cleared) instead of compiled
    /// again for every call; under the connection's lock. Bounded: emptied when it reaches
    /// `statementCacheLimit` (callers with SQL built from values would otherwise grow it).
    private var statements: [String: OpaquePointer] = [:]
    private let statementCacheLimit = 64
    /// Keeps what `checkpointElsewhere`'s hook points to alive as long as the connection.
    var walCheckpoints: WALCheckpoints?
    private let lock: UnsafeMutablePointer<pthread_mutex_t> = {
        let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(lock, &attributes)
        pthread_mutexattr_destroy(&attributes)
        return lock
    }()

    func locked<T>(_ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return try body()
    }

    /// Opens (creating if needed) the database at `path`; ":memory:" for a private one.
    public init(path: String) throws(SQLiteError) {
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open \(path)"
            sqlite3_close(handle)
            throw SQLiteError(code: status, message: message)
        }
        sqlite3_busy_timeout(handle, 5000)
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close(handle)
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    /// Runs statements that take no parameters and return no rows.
    public func execute(_ sql: String) throws(SQLiteError) {
        try locked { () throws(SQLiteError) in try executeUnlocked(sql) }
    }

    private func executeUnlocked(_ sql: String) throws(SQLiteError) {
        var error: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &error)
        guard status == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? lastMessage
            sqlite3_free(error)
            throw SQLiteError(code: status, message: message)
        }
    }

    /// A value bound to a `?` parameter or read from a column.
    public enum Value: Sendable, Equatable {
        case integer(Int64)
        case text(String)
        case blob([UInt8])
        case null
    }

    /// Runs one statement with `parameters`, returning every row it yields.
    @discardableResult
    public func query(_ sql: String, _ parameters: [Value] = []) throws(SQLiteError) -> [[Value]] {
        try locked { () throws(SQLiteError) in try queryUnlocked(sql, parameters) }
    }

    /// The prepared statement for `sql`, from the cache or compiled now (and cached).
    private func prepared(_ sql: String) throws(SQLiteError) -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw SQLiteError(code: sqlite3_errcode(handle), message: lastMessage)
        }
        if statements.count >= statementCacheLimit {
            for cached in statements.values { sqlite3_finalize(cached) }
            statements.removeAll(keepingCapacity: true)
        }
        statements[sql] = statement
        return statement
    }

    private func queryUnlocked(_ sql: String, _ parameters: [Value]) throws(SQLiteError) -> [[Value]] {
        let statement = try prepared(sql)
        // Ready for the next call whatever happens: no row pending, no value kept bound.
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (i, value) in parameters.enumerated() {
            let index = Int32(i + 1)
            let status: Int32
            switch value {
            case .integer(let v): status = sqlite3_bind_int64(statement, index, v)
            case .text(let v): status = sqlite3_bind_text(statement, index, v, -1, sqliteTransient)
            case .blob(let v): status = v.withUnsafeBytes { sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), sqliteTransient) }
            case .null: status = sqlite3_bind_null(statement, index)
            }
            guard status == SQLITE_OK else { throw SQLiteError(code: status, message: lastMessage) }
        }
        var rows: [[Value]] = []
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { break }
            guard status == SQLITE_ROW else { throw SQLiteError(code: status, message: lastMessage) }
            var row: [Value] = []
            for column in 0..<sqlite3_column_count(statement) {
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: row.append(.integer(sqlite3_column_int64(statement, column)))
                case SQLITE_TEXT: row.append(.text(String(cString: sqlite3_column_text(statement, column))))
                case SQLITE_BLOB:
                    let count = Int(sqlite3_column_bytes(statement, column))
                    let bytes = sqlite3_column_blob(statement, column)
                    row.append(.blob(bytes.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []))
                default: row.append(.null)
                }
            }
            rows.append(row)
        }
        return rows
    }

    /// Runs `body` in a transaction: committed if it returns, rolled back if it throws.
    /// `BEGIN` and `COMMIT` run as cached prepared statements (`sqlite3_exec` compiled them
    /// again for every transaction: about 8k instructions of an in-memory insert's 77k commit).
    public func transaction<T>(_ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        try locked { () throws(SQLiteError) -> T in
            _ = try queryUnlocked("BEGIN IMMEDIATE", [])
            do throws(SQLiteError) {
                let result = try body()
                _ = try queryUnlocked("COMMIT", [])
                return result
            } catch {
                try? executeUnlocked("ROLLBACK")
                throw error
            }
        }
    }

    private var lastMessage: String { String(cString: sqlite3_errmsg(handle)) }
}

/// SQLITE_TRANSIENT: SQLite copies bound text and blobs before the call returns.
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
