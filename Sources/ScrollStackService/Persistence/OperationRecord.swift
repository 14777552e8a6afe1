/// The bytes a journal record's `operation` holds: a kind byte, then the kind's fields
/// (`ByteWriter` primitives):
///
/// - kind 1 is not written: it held the HTTP request of a revision in journals from before
///   operations were journaled, which this server refuses to open.
/// - kind 2, a stack operation, version 1 (`OperationRecord+Stack.swift`).
/// - kind 3, a pile operation, version 1 (`OperationRecord+Pile.swift`).
///
/// A kind or an opcode this server does not know makes the record unreadable (a newer
/// server wrote it): its stack answers 503 `stack_unavailable` and its journal is kept.
enum OperationRecord {
    static let stackKind: UInt8 = 2
    static let pileKind: UInt8 = 3

    /// The kind byte of `bytes` (0 when empty).
    static func kind(_ bytes: [UInt8]) -> UInt8 { bytes.first ?? 0 }

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
