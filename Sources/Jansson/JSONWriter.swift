/// Writes compact JSON text straight into a byte buffer, one token at a time, with no tree in
/// between: the text is byte for byte what jansson's `json_dumpb` writes for the same values
/// with `JSON_COMPACT | JSON_ENCODE_ANY` and the same real precision (see
/// `JSON.serialized(realPrecision:)`, which is this writer run over a `JSON` value).
///
/// The caller writes a well-formed sequence: `key(_:)` only directly inside an object and
/// before each of its values, every `begin…` closed by its `end…`. Commas are placed by the
/// writer. Strings are escaped as jansson escapes them: `"` and `\` with a backslash, `\b \f
/// \n \r \t` by name, other control characters as `\u00XX` (upper-case hex), everything else
/// (`/`, non-ASCII) as it is.
///
/// - Complexity: every call is O(length of what it writes), amortized.
public struct JSONWriter: Sendable {
    /// The text written so far.
    public private(set) var bytes: [UInt8]
    /// Significant digits of reals, 1 to 31 (0 in `init` means 17).
    public let realPrecision: Int
    /// Whether the next value or key follows a sibling and needs a comma first.
    private var separate = false

    /// An empty writer; `capacity` bytes are reserved up front.
    public init(realPrecision: Int = 15, capacity: Int = 0) {
        let precision = min(max(realPrecision, 0), 31)
        self.realPrecision = precision == 0 ? 17 : precision
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Moves the text written so far to the end of `output`, keeping the writer's place in the
    /// value (for text sent a piece at a time) and its buffer's capacity.
    public mutating func flush(into output: inout [UInt8]) {
        output.append(contentsOf: bytes)
        bytes.removeAll(keepingCapacity: true)
    }

    /// Hands the text over and leaves the writer empty.
    public mutating func take() -> [UInt8] {
        separate = false
        defer { bytes = [] }
        return bytes
    }

    // MARK: Structure

    /// `{`.
    public mutating func beginObject() {
        comma()
        bytes.append(UInt8(ascii: "{"))
        separate = false
    }

    /// `}`.
    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        separate = true
    }

    /// `[`.
    public mutating func beginArray() {
        comma()
        bytes.append(UInt8(ascii: "["))
        separate = false
    }

    /// `]`.
    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        separate = true
    }

    /// A member's key and its colon; the member's value is written next.
    public mutating func key(_ key: String) {
        comma()
        quoted(key)
        bytes.append(UInt8(ascii: ":"))
        separate = false
    }

    /// A member's key given as ASCII bytes that need no escape (a literal such as `"frame"`).
    public mutating func key(ascii key: StaticString) {
        comma()
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        separate = false
    }

    // MARK: Scalars

    /// `null`.
    public mutating func null() {
        comma()
        append("null")
        separate = true
    }

    /// `true` or `false`.
    public mutating func bool(_ value: Bool) {
        comma()
        append(value ? "true" : "false")
        separate = true
    }

    /// An integer in decimal.
    public mutating func integer(_ value: Int64) {
        comma()
        NumberText.appendInteger(value, to: &bytes)
        separate = true
    }

    /// A real with `realPrecision` significant digits (always with a fraction or an
    /// exponent), or `null` when it is not finite.
    public mutating func real(_ value: Double) {
        comma()
        if value.isFinite {
            NumberText.appendReal(value, precision: realPrecision, to: &bytes)
        } else {
            append("null")
        }
        separate = true
    }

    /// A number as `JSON.number(_:)` makes it: an integer when integral below 2^53, else a real.
    public mutating func number(_ value: Double) {
        if value.magnitude < 0x1p53, case let integer = Int64(value), Double(integer) == value {
            self.integer(integer)
        } else {
            real(value)
        }
    }

    /// A string, escaped.
    public mutating func string(_ value: String) {
        comma()
        quoted(value)
        separate = true
    }

    /// A whole value.
    ///
    /// - Complexity: O(size of the value). No recursion: the containers being written are
    ///   kept on an explicit stack, so any depth is written on any thread's stack.
    public mutating func value(_ value: JSON) {
        var pending: [PendingContainer] = []
        var next: JSON? = value
        while true {
            if let current = next {
                next = nil
                switch current {
                case .null: null()
                case .bool(let flag): bool(flag)
                case .integer(let integer): self.integer(integer)
                case .real(let real): self.real(real)
                case .string(let text): string(text)
                case .array(let elements):
                    beginArray()
                    pending.append(PendingContainer(elements: elements, members: [], isObject: false))
                case .object(let object):
                    beginObject()
                    pending.append(PendingContainer(elements: [], members: object.members, isObject: true))
                }
            }
            guard let top = pending.indices.last else { return }
            let index = pending[top].index
            guard index < pending[top].count else {
                if pending[top].isObject { endObject() } else { endArray() }
                pending.removeLast()
                continue
            }
            pending[top].index = index + 1
            if pending[top].isObject {
                key(pending[top].members[index].key)
                next = pending[top].members[index].value
            } else {
                next = pending[top].elements[index]
            }
        }
    }

    /// A container whose members are being written.
    private struct PendingContainer {
        let elements: [JSON]
        let members: [JSONObject.Element]
        let isObject: Bool
        var index = 0
        var count: Int { isObject ? members.count : elements.count }
    }

    // MARK: Bytes

    private mutating func comma() {
        if separate { bytes.append(UInt8(ascii: ",")) }
    }

    private mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// `text` in quotes, escaped; runs without escapes are copied whole.
    private mutating func quoted(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var start = 0
            for (i, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                if start < i { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<i])) }
                escape(byte)
                start = i + 1
            }
            if start < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...])) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func escape(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            let hex: [UInt8] = Array("0123456789ABCDEF".utf8)
            bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
        }
    }
}
