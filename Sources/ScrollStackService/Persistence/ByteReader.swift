/// Reads what `ByteWriter` wrote, from a buffer that outlives the reader. Every read checks
/// the bounds and throws `journalUnreadable` naming `what` (the snapshot) when the bytes run
/// out or a value is malformed, so a damaged snapshot fails its stack, never the process.
struct ByteReader {
    private let buffer: UnsafeRawBufferPointer
    private(set) var position: Int
    let what: String

    init(_ buffer: UnsafeRawBufferPointer, from position: Int = 0, what: String) {
        self.buffer = buffer
        self.position = position
        self.what = what
    }

    var isAtEnd: Bool { position == buffer.count }

    func damaged(_ reason: String) -> APIError {
        .journalUnreadable("\(what) is damaged at byte \(position): \(reason)")
    }

    private mutating func take(_ count: Int) throws(APIError) -> Int {
        guard count >= 0, count <= buffer.count - position else { throw damaged("it ends \(count) bytes too early") }
        defer { position += count }
        return position
    }

    mutating func byte() throws(APIError) -> UInt8 {
        buffer[try take(1)]
    }

    mutating func varint() throws(APIError) -> Int {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try byte()
            guard shift < 63 else { throw damaged("a varint runs over 63 bits") }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        guard value <= UInt64(Int.max) else { throw damaged("a varint is out of range") }
        return Int(value)
    }

    /// What `ByteWriter.signed` wrote.
    mutating func signed() throws(APIError) -> Int {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try byte()
            guard shift < 64 else { throw damaged("a signed varint runs over 64 bits") }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        return Int(Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1))))
    }

    mutating func double() throws(APIError) -> Double {
        let start = try take(8)
        return Double(bitPattern: UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: start, as: UInt64.self)))
    }

    mutating func string() throws(APIError) -> String {
        let count = try varint()
        let start = try take(count)
        return String(decoding: UnsafeRawBufferPointer(rebasing: buffer[start..<(start + count)]), as: UTF8.self)
    }

    /// The next `count` bytes, copied.
    mutating func bytes(_ count: Int) throws(APIError) -> [UInt8] {
        let start = try take(count)
        return Array(buffer[start..<(start + count)])
    }
}
