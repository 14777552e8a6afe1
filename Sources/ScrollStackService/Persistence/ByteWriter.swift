/// Appends the primitives of the binary snapshot format (`SnapshotFormat`) to a byte array:
/// unsigned LEB128 varints, IEEE doubles as their 8 bytes little-endian (exact: every bit
/// reads back), and strings as a varint length and their UTF-8 bytes.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func bytes(_ value: some Collection<UInt8>) { bytes.append(contentsOf: value) }

    mutating func varint(_ value: Int) {
        precondition(value >= 0, "varints are unsigned")
        var rest = UInt64(value)
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// A signed integer, zigzag-encoded (0, -1, 1, -2 … as 0, 1, 2, 3 …) as a LEB128 varint.
    mutating func signed(_ value: Int) {
        var rest = UInt64(bitPattern: Int64(value) << 1) ^ UInt64(bitPattern: Int64(value) >> 63)
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    mutating func double(_ value: Double) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            varint(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }
}
