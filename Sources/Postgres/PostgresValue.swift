/// A parameter or a result value. Both travel in PostgreSQL's binary format, so `bytea` is
/// passed as it is (no escaping) and integers are exact.
public enum PostgresValue: Sendable, Equatable {
    case null
    /// `int8` (results of `int2` and `int4` widen to it).
    case integer(Int64)
    case text(String)
    case bytea([UInt8])
    case bool(Bool)
    /// `bytea[]`, one dimension, NULL elements allowed (a parameter only: many rows in one
    /// statement through `unnest`).
    case byteaArray([[UInt8]?])
    /// `text[]`, one dimension (a parameter only).
    case textArray([String])
    /// `int8[]`, one dimension (a parameter only).
    case integerArray([Int64])

    /// The type OID a parameter is sent as (`pg_type.oid`; 0 lets the server infer it).
    var typeOID: UInt32 {
        switch self {
        case .null: 0
        case .integer: 20
        case .text: 25
        case .bytea: 17
        case .bool: 16
        case .byteaArray: 1001
        case .textArray: 1009
        case .integerArray: 1016
        }
    }

    /// The binary representation of a parameter (nil for NULL).
    var binary: [UInt8]? {
        switch self {
        case .null: nil
        case .integer(let value): withUnsafeBytes(of: value.bigEndian) { Array($0) }
        case .text(let value): Array(value.utf8)
        case .bytea(let value): value
        case .bool(let value): [value ? 1 : 0]
        case .byteaArray(let elements): Self.binaryArray(elements, elementOID: 17)
        case .textArray(let elements): Self.binaryArray(elements.map { Array($0.utf8) }, elementOID: 25)
        case .integerArray(let elements): Self.binaryArray(elements.map { value in withUnsafeBytes(of: value.bigEndian) { Array($0) } }, elementOID: 20)
        }
    }

    /// PostgreSQL's binary array format: dimensions (1, or 0 when empty), a has-NULL flag, the
    /// element type, the length and lower bound (1), then each element as its length (-1 for
    /// NULL) and bytes, every integer 4 bytes big-endian.
    ///
    /// - Complexity: O(total bytes).
    static func binaryArray(_ elements: [[UInt8]?], elementOID: UInt32) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(20 + elements.reduce(0) { $0 + 4 + ($1?.count ?? 0) })
        func int32(_ value: Int32) { withUnsafeBytes(of: value.bigEndian) { out += $0 } }
        int32(elements.isEmpty ? 0 : 1)
        int32(elements.contains { $0 == nil } ? 1 : 0)
        int32(Int32(bitPattern: elementOID))
        guard !elements.isEmpty else { return out }
        int32(Int32(elements.count))
        int32(1)
        for element in elements {
            guard let element else { int32(-1); continue }
            int32(Int32(element.count))
            out += element
        }
        return out
    }

    /// Decodes a binary result value of type `oid`.
    static func decode(_ bytes: UnsafeRawBufferPointer, oid: UInt32) throws(PostgresError) -> PostgresValue {
        func integer(_ width: Int) -> Int64 {
            var value: Int64 = bytes.count == width && width > 0 && bytes[0] & 0x80 != 0 ? -1 : 0
            for byte in bytes.prefix(width) { value = value << 8 | Int64(byte) }
            return value
        }
        switch oid {
        case 20: return .integer(integer(8))
        case 23: return .integer(integer(4))
        case 21: return .integer(integer(2))
        case 16: return .bool(bytes.first == 1)
        case 17: return .bytea(Array(bytes))
        case 25, 1043, 19, 18, 705: return .text(String(decoding: bytes, as: UTF8.self))
        case 2278: return .null  // void, what functions such as pg_notify return
        default: throw PostgresError(kind: .unsupportedType(oid), message: "a result column has type OID \(oid), which this layer does not decode")
        }
    }

    public var integerValue: Int64? { if case .integer(let value) = self { value } else { nil } }
    public var textValue: String? { if case .text(let value) = self { value } else { nil } }
    public var byteaValue: [UInt8]? { if case .bytea(let value) = self { value } else { nil } }
}
