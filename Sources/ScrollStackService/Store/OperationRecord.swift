/// The bytes a journal record's `operation` holds: a kind byte, then the kind's fields
/// (`ByteWriter` primitives).
///
/// Kind 1, `request`: the HTTP request that made the revision (method, raw path, body),
/// replayed through the routes; what journal formats 0 and 1 kept in their own columns.
enum OperationRecord {
    static let requestKind: UInt8 = 1

    static func request(method: String, path: String, body: [UInt8]) -> [UInt8] {
        var writer = ByteWriter(capacity: 16 + method.utf8.count + path.utf8.count + body.count)
        writer.byte(requestKind)
        writer.string(method)
        writer.string(path)
        writer.varint(body.count)
        writer.bytes(body)
        return writer.bytes
    }

    /// The request a `request` record holds. - Throws: `journalUnreadable` naming `what`.
    static func decodeRequest(_ bytes: [UInt8], what: String) throws(APIError) -> (method: String, path: String, body: [UInt8]) {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(APIError) in
                var reader = ByteReader(buffer, what: what)
                let kind = try reader.byte()
                guard kind == requestKind else { throw reader.damaged("unknown operation kind \(kind)") }
                let method = try reader.string()
                let path = try reader.string()
                let body = try reader.bytes(try reader.varint())
                guard reader.isAtEnd else { throw reader.damaged("bytes follow the operation") }
                return (method, path, body)
            }
        }.get()
    }
}
