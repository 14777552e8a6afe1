/// A parameter or a result value. Both travel in PostgreSQL's binary format, so `bytea` is
/// passed as it is (no escaping) and integers are exact.
public enum PostgresValue: Sendable, Equatable {
    case null
    /// `int8` (results of `int2` and `int4` widen to it).
    case integer(Int64)
    case text(String)
    case bytea([UInt8])
    case bool(Bool)

    /// The type OID a parameter is sent as (`pg_type.oid`; 0 lets the server infer it).
    var typeOID: UInt32 {
        switch self {
        case .null: 0
        case .integer: 20
        case .text: 25
        case .bytea: 17
        case .bool: 16
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
        }
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
