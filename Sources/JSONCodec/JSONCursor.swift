/// A place in a `JSONWriter`'s buffer that a run of JSON text is written through token by
/// token with no capacity check per token: `JSONWriter.write(room:_:)` hands one out with room
/// for a given number of bytes. The caller keeps within that room (see the `…Room` sizes) and
/// writes well-formed text, commas included; each token is the bytes `JSONWriter` would
/// write for it. Every call is O(length of what it writes).
public struct JSONCursor {
    /// Where the next byte goes.
    @usableFromInline var position: UnsafeMutablePointer<UInt8>
    /// Significant digits of reals (the writer's).
    private let realPrecision: Int
    /// The writer's memo of repeated texts, if it keeps one (`write(_:slot:_:)`).
    @usableFromInline let memo: JSONTextMemo?

    init(position: UnsafeMutablePointer<UInt8>, realPrecision: Int, memo: JSONTextMemo?) {
        self.position = position
        self.realPrecision = realPrecision
        self.memo = memo
    }

    /// The most bytes `integer(_:)` writes.
    public static let integerRoom = 20
    /// The most bytes `number(_:)` and `real(_:)` write.
    public static let numberRoom = NumberText.realRoom

    /// The most bytes `string(_:)` writes for `text`: every byte escaped as `\u00XX`, and
    /// the quotes.
    public static func stringRoom(_ text: String) -> Int { text.utf8.count * 6 + 2 }

    /// JSON text as it is: punctuation and keys such as `},"contentFrame":{"x":`. Always
    /// inlined, so that a literal's copy is a few moves of known size, not a `memcpy` call.
    @inlinable @inline(__always) public mutating func text(_ text: StaticString) {
        let count = text.utf8CodeUnitCount
        position.update(from: text.utf8Start, count: count)
        position += count
    }

    /// An integer in decimal.
    public mutating func integer(_ value: Int64) {
        if value < 0 {
            position.pointee = UInt8(ascii: "-")
            position += 1
        }
        position += NumberText.writeInteger(value.magnitude, to: position)
    }

    /// A real with the writer's significant digits, or `null` when it is not finite.
    public mutating func real(_ value: Double) {
        if value.isFinite {
            position += NumberText.writeReal(value, precision: realPrecision, to: position)
        } else {
            text("null")
        }
    }

    /// A number as `JSON.number(_:)` makes it: an integer when integral below 2^53, else a real.
    public mutating func number(_ value: Double) {
        if value.magnitude < 0x1p53, case let integer = Int64(value), Double(integer) == value {
            self.integer(integer)
        } else {
            real(value)
        }
    }

    /// A string in quotes, escaped as `JSONWriter.string(_:)` escapes it.
    public mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            position.pointee = UInt8(ascii: "\"")
            position += 1
            var start = 0
            for i in 0..<utf8.count {
                let byte = utf8[i]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                copy(UnsafeBufferPointer(rebasing: utf8[start..<i]))
                escape(byte)
                start = i + 1
            }
            copy(UnsafeBufferPointer(rebasing: utf8[start...]))
            position.pointee = UInt8(ascii: "\"")
            position += 1
        }
    }

    private mutating func copy(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        position.update(from: base, count: bytes.count)
        position += bytes.count
    }

    /// jansson's escape of `byte`: by name where JSON has one, else `\u00XX` (upper-case hex).
    private mutating func escape(_ byte: UInt8) {
        position[0] = UInt8(ascii: "\\")
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): position[1] = byte
        case 0x08: position[1] = UInt8(ascii: "b")
        case 0x0C: position[1] = UInt8(ascii: "f")
        case 0x0A: position[1] = UInt8(ascii: "n")
        case 0x0D: position[1] = UInt8(ascii: "r")
        case 0x09: position[1] = UInt8(ascii: "t")
        default:
            let hex: StaticString = "0123456789ABCDEF"
            position[1] = UInt8(ascii: "u")
            position[2] = UInt8(ascii: "0")
            position[3] = UInt8(ascii: "0")
            position[4] = hex.utf8Start[Int(byte >> 4)]
            position[5] = hex.utf8Start[Int(byte & 0xF)]
            position += 4
        }
        position += 2
    }
}
