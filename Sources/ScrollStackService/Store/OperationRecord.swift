/// The bytes a journal record's `operation` holds: a kind byte, then the kind's fields
/// (`ByteWriter` primitives):
///
/// - kind 1, `request`: an HTTP request (method, raw path, body), what journal formats 0
///   and 1 kept in their own columns. Only the migration reads it (`StackService+Migration`).
/// - kind 2, a stack operation, version 1 (`OperationRecord+Stack.swift`).
/// - kind 3, a pile operation, version 1 (`OperationRecord+Pile.swift`).
///
/// A kind or an opcode this server does not know makes the record unreadable (a newer
/// server wrote it): its stack answers 503 `stack_unavailable` and its journal is kept.
enum OperationRecord {
    static let requestKind: UInt8 = 1
    static let stackKind: UInt8 = 2
    static let pileKind: UInt8 = 3

    static func request(method: String, path: String, body: [UInt8]) -> [UInt8] {
        var writer = ByteWriter(capacity: 16 + method.utf8.count + path.utf8.count + body.count)
        writer.byte(requestKind)
        writer.string(method)
        writer.string(path)
        writer.varint(body.count)
        writer.bytes(body)
        return writer.bytes
    }

    /// The kind byte of `bytes` (0 when empty).
    static func kind(_ bytes: [UInt8]) -> UInt8 { bytes.first ?? 0 }

    /// The request a `request` record holds. - Throws: `journalUnreadable` naming `what`.
    static func decodeRequest(_ bytes: [UInt8], what: String) throws(APIError) -> (method: String, path: String, body: [UInt8]) {
        try reading(bytes, kind: requestKind, what: what) { (reader: inout ByteReader) throws(APIError) in
            let method = try reader.string()
            let path = try reader.string()
            let body = try reader.bytes(try reader.varint())
            return (method, path, body)
        }
    }

    /// Runs `body` on a reader past the kind byte, which must be `kind`; the bytes must end
    /// where `body` stops.
    static func reading<T>(_ bytes: [UInt8], kind: UInt8, what: String,
                           _ body: (inout ByteReader) throws(APIError) -> T) throws(APIError) -> T {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(APIError) -> T in
                var reader = ByteReader(buffer, what: what)
                let found = try reader.byte()
                guard found == kind else { throw reader.damaged("operation kind \(found) where kind \(kind) was expected (a newer server wrote it?)") }
                let value = try body(&reader)
                guard reader.isAtEnd else { throw reader.damaged("bytes follow the operation") }
                return value
            }
        }.get()
    }
}
