import CPostgres

#if canImport(Glibc)
import Glibc
#endif

/// One connection to a PostgreSQL server (libpq). A thin layer: statements with binary
/// parameters and results, transactions, notifications; it knows nothing of what is stored.
///
/// Not for concurrent use: one thread at a time (a `PostgresPool` hands each connection to
/// one caller). A connection that broke reports it (`isConnected`) and can be `reset()`.
public final class PostgresConnection: @unchecked Sendable {
    private let handle: OpaquePointer
    /// The name of each statement pipelines have prepared on this session, by its SQL (a
    /// session's prepared statements end with it: `reset()` forgets them).
    var prepared: [String: String] = [:]
    /// How many statements were ever prepared here: each gets a name of its own, so a
    /// prepare whose outcome was not seen can never collide with a later one.
    var preparations = 0

    /// Connects to `url` (`postgres://user:password@host:port/database?…`, or any libpq
    /// connection string). `connectTimeout` (seconds) applies unless the URL sets
    /// `connect_timeout` itself.
    public init(url: String, connectTimeout: Int = 5) throws(PostgresError) {
        // Later keywords override earlier ones, and the URL's own parameters are expanded in
        // dbname's place: the URL wins over the default timeout.
        let keys = ["connect_timeout", "dbname"]
        let values = [String(connectTimeout), url]
        let connection = withCStrings(keys) { keys in
            withCStrings(values) { values in PQconnectdbParams(keys, values, 1) }
        }
        guard let connection else { throw PostgresError(kind: .connection, message: "libpq could not allocate a connection") }
        handle = connection
        // Fully initialized here, so throwing runs deinit, which closes the handle.
        guard PQstatus(handle) == CONNECTION_OK else { throw PostgresError(kind: .connection, message: lastMessage) }
    }

    deinit { PQfinish(handle) }

    /// Whether the connection is (as far as libpq knows) usable.
    /// A connection left in pipeline mode by a pipeline that broke off counts as not usable:
    /// `reset()` brings it back.
    public var isConnected: Bool { PQstatus(handle) == CONNECTION_OK && PQpipelineStatus(handle) == PQ_PIPELINE_OFF }

    /// `isConnected`, after reading whatever arrived while the connection sat idle: a
    /// connection the server closed meanwhile (a restart) is found out here, before a
    /// statement is sent on it. `poll(2)` calls that do not wait.
    public var isUsableNow: Bool {
        guard isConnected else { return false }
        // The server's goodbye, then the end of the stream: reading that marks it bad.
        for _ in 0..<4 {
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard descriptor.fd >= 0, poll(&descriptor, 1, 0) > 0, PQconsumeInput(handle) == 1 else { break }
        }
        return isConnected
    }

    /// Closes and reopens the connection with the same parameters (after the server restarted).
    public func reset() throws(PostgresError) {
        PQreset(handle)
        prepared = [:]
        guard isConnected else { throw PostgresError(kind: .connection, message: lastMessage) }
    }

    /// The connection's socket, to wait for notifications with `poll(2)`.
    public var socket: Int32 { PQsocket(handle) }

    /// Runs statements that take no parameters (several may be separated by `;`); rows they
    /// return are dropped.
    public func execute(_ sql: String) throws(PostgresError) {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result)
    }

    /// Runs one statement with `parameters` (`$1`, `$2`…), returning every row it yields.
    ///
    /// - Complexity: one round trip; O(size of the rows) to decode them.
    @discardableResult
    public func query(_ sql: String, _ parameters: [PostgresValue] = []) throws(PostgresError) -> [[PostgresValue]] {
        let result = Self.withBinary(parameters) { count, types, values, lengths, formats in
            PQexecParams(handle, sql, count, types, values, lengths, formats, 1)
        }
        defer { PQclear(result) }
        try check(result)
        return try rows(of: result!)
    }

    /// Calls `body` with `parameters` as libpq takes them: their count, type OIDs, values in
    /// binary format (NULL for `.null`), lengths and formats (all binary), valid only during
    /// the call.
    static func withBinary<T>(_ parameters: [PostgresValue],
                              _ body: (Int32, [UInt32], [UnsafePointer<CChar>?], [Int32], [Int32]) -> T) -> T {
        let encoded = parameters.map(\.binary)
        let types = parameters.map(\.typeOID)
        let lengths = encoded.map { Int32($0?.count ?? 0) }
        let formats = [Int32](repeating: 1, count: parameters.count)
        // One buffer holds every value; each parameter points into it (NULL for .null).
        let storage = encoded.reduce(into: [UInt8]()) { $0 += $1 ?? [] } + [0]
        return storage.withUnsafeBufferPointer { buffer in
            var offset = 0
            let pointers: [UnsafePointer<CChar>?] = encoded.map { value in
                guard let value else { return nil }
                defer { offset += value.count }
                return UnsafeRawPointer(buffer.baseAddress! + offset).assumingMemoryBound(to: CChar.self)
            }
            return body(Int32(parameters.count), types, pointers, lengths, formats)
        }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws
    /// (or when the COMMIT fails, which throws).
    public func transaction<T>(_ body: () throws(PostgresError) -> T) throws(PostgresError) -> T {
        try execute("BEGIN")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            if isConnected, PQtransactionStatus(handle) != PQTRANS_IDLE { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// An identifier quoted for SQL (`"name"`, inner quotes doubled).
    public func quoted(identifier: String) -> String {
        "\"" + identifier.replacingAll("\"", with: "\"\"") + "\""
    }

    func check(_ result: OpaquePointer?) throws(PostgresError) {
        guard let result else { throw PostgresError(kind: .connection, message: lastMessage) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return
        default:
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let message = String(cString: PQresultErrorMessage(result)).trimmingTrailingNewlines
            let broken = PQstatus(handle) != CONNECTION_OK || PQresultStatus(result) == PGRES_FATAL_ERROR && state == nil
            throw PostgresError(kind: broken ? .connection : .query, sqlState: state, message: message.isEmpty ? lastMessage : message)
        }
    }

    func rows(of result: OpaquePointer) throws(PostgresError) -> [[PostgresValue]] {
        let rowCount = PQntuples(result), columnCount = PQnfields(result)
        let types = (0..<columnCount).map { PQftype(result, $0) }
        var rows: [[PostgresValue]] = []
        rows.reserveCapacity(Int(rowCount))
        for row in 0..<rowCount {
            var values: [PostgresValue] = []
            values.reserveCapacity(Int(columnCount))
            for column in 0..<columnCount {
                if PQgetisnull(result, row, column) == 1 {
                    values.append(.null)
                    continue
                }
                let bytes = UnsafeRawBufferPointer(start: PQgetvalue(result, row, column), count: Int(PQgetlength(result, row, column)))
                values.append(try PostgresValue.decode(bytes, oid: types[Int(column)]))
            }
            rows.append(values)
        }
        return rows
    }

    var lastMessage: String {
        String(cString: PQerrorMessage(handle)).trimmingTrailingNewlines
    }

    var rawHandle: OpaquePointer { handle }
}

/// Calls `body` with a NULL-terminated array of C strings (valid only during the call).
private func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T) -> T {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    let pointers = copies.map { UnsafePointer($0) } + [nil]
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}

extension String {
    var trimmingTrailingNewlines: String {
        var text = Substring(self)
        while let last = text.last, last == "\n" || last == " " { text = text.dropLast() }
        return String(text)
    }

    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for character in self { if character == target { out += replacement } else { out.append(character) } }
        return out
    }
}
