/// Writes compact JSON text straight into a byte buffer, one token at a time, with no tree in
/// between: the text is byte for byte what jansson's `json_dumpb` writes for the same values
/// with `JSON_COMPACT | JSON_ENCODE_ANY` and the same real precision (see
/// `JSON.serialized(realPrecision:)`, which is this writer run over a `JSON` value), except
/// that a precision of 15 or 16 never changes a real: where jansson's text would read back as
/// another double, the writer uses more digits, up to 17 (`NumberText`).
///
/// The caller writes a well-formed sequence: `key(_:)` only directly inside an object and
/// before each of its values, every `begin…` closed by its `end…`. Commas are placed by the
/// writer. Strings are escaped as jansson escapes them: `"` and `\` with a backslash, `\b \f
/// \n \r \t` by name, other control characters as `\u00XX` (upper-case hex), everything else
/// (`/`, non-ASCII) as it is.
///
/// The text goes into a buffer that is allocated ahead (`room`) and written through a pointer:
/// each token costs one capacity check and one copy, not one per byte.
///
/// - Complexity: every call is O(length of what it writes), amortized.
public struct JSONWriter: Sendable {
    /// The buffer: its first `length` bytes are the text written so far, the rest room
    /// allocated ahead.
    private var buffer: [UInt8]
    private var length = 0
    /// Significant digits of reals, 1 to 31 (0 in `init` means 17); 15 and 16 are floors, not
    /// caps (see the type's comment).
    public let realPrecision: Int
    /// Whether the next value or key follows a sibling and needs a comma first.
    private var separate = false
    /// The storage of the memo lent to cursors (`keepRepeats(slots:)`); empty without one.
    private var memoWords: [UInt64] = []
    private var memoSlots = 0

    /// An empty writer; `capacity` bytes are allocated up front, not zeroed: the writer only
    /// ever reads back bytes it has written.
    public init(realPrecision: Int = 15, capacity: Int = 0) {
        let precision = min(max(realPrecision, 0), 31)
        self.realPrecision = precision == 0 ? 17 : precision
        buffer = capacity == 0 ? [] : [UInt8](unsafeUninitializedCapacity: capacity) { _, count in count = capacity }
    }

    /// From now on, lends the cursors of `write(room:_:)` a memo of at least `slots` slots
    /// (`JSONCursor.write(_:slot:_:)`), kept for the writer's life: whatever was written
    /// through a slot for a key is what that slot gives for the key. Does nothing when the
    /// writer already keeps as many. O(slots).
    public mutating func keepRepeats(slots: Int) {
        guard slots > memoSlots else { return }
        memoWords = JSONTextMemo.storage(slots: slots)
        memoSlots = slots
    }

    /// The text written so far (a copy).
    public var bytes: [UInt8] { Array(buffer[..<length]) }

    /// How many bytes of text are written and not yet taken or flushed. O(1).
    public var byteCount: Int { length }

    /// Moves the text written so far to the end of `output`, keeping the writer's place in the
    /// value (for text sent a piece at a time) and its buffer.
    public mutating func flush(into output: inout [UInt8]) {
        let count = length
        buffer.withUnsafeBufferPointer { output.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<count])) }
        length = 0
    }

    /// Hands the text over and leaves the writer empty.
    public mutating func take() -> [UInt8] {
        separate = false
        var text: [UInt8] = []
        swap(&text, &buffer)
        text.removeLast(text.count - length)
        length = 0
        return text
    }

    // MARK: Structure

    /// `{`.
    public mutating func beginObject() {
        comma()
        byte(UInt8(ascii: "{"))
        separate = false
    }

    /// `}`.
    public mutating func endObject() {
        byte(UInt8(ascii: "}"))
        separate = true
    }

    /// `[`.
    public mutating func beginArray() {
        comma()
        byte(UInt8(ascii: "["))
        separate = false
    }

    /// `]`.
    public mutating func endArray() {
        byte(UInt8(ascii: "]"))
        separate = true
    }

    /// A member's key and its colon; the member's value is written next.
    public mutating func key(_ key: String) {
        comma()
        quoted(key)
        byte(UInt8(ascii: ":"))
        separate = false
    }

    /// A member's key given as ASCII bytes that need no escape (a literal such as `"frame"`).
    public mutating func key(ascii key: StaticString) {
        let comma = separate
        key.withUTF8Buffer { text in
            let count = text.count
            room(count + 4)
            let at = length
            buffer.withUnsafeMutableBufferPointer { b in
                var p = b.baseAddress! + at
                if comma {
                    p.pointee = UInt8(ascii: ",")
                    p += 1
                }
                p.pointee = UInt8(ascii: "\"")
                (p + 1).update(from: text.baseAddress!, count: count)
                (p + 1 + count).pointee = UInt8(ascii: "\"")
                (p + 2 + count).pointee = UInt8(ascii: ":")
            }
            length += count + (comma ? 4 : 3)
        }
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
        room(22)
        let comma = separate
        let at = length
        let written = buffer.withUnsafeMutableBufferPointer { b in
            var p = b.baseAddress! + at
            if comma {
                p.pointee = UInt8(ascii: ",")
                p += 1
            }
            if value < 0 {
                p.pointee = UInt8(ascii: "-")
                p += 1
            }
            return p - (b.baseAddress! + at) + NumberText.writeInteger(value.magnitude, to: p)
        }
        length += written
        separate = true
    }

    /// A real with `realPrecision` significant digits (always with a fraction or an
    /// exponent), or `null` when it is not finite.
    public mutating func real(_ value: Double) {
        write(room: JSONCursor.numberRoom) { $0.real(value) }
    }

    /// A number as `JSON.number(_:)` makes it: an integer when integral below 2^53, else a real.
    public mutating func number(_ value: Double) {
        if value.magnitude < 0x1p53, case let integer = Int64(value), Double(integer) == value {
            self.integer(integer)
        } else {
            real(value)
        }
    }

    /// A value (or an object's opening up to one of its members' values) written through a
    /// cursor with room for `room` bytes after the comma due, if any: one capacity check for
    /// a run of tokens, such as a row of a big answer. What `body` writes must fit in `room`
    /// and end a value; the next key or value gets its comma.
    public mutating func write(room: Int, _ body: (inout JSONCursor) -> Void) {
        self.room(room + 1)
        let comma = separate
        let at = length
        let precision = realPrecision
        let slots = memoSlots
        let written = buffer.withUnsafeMutableBufferPointer { b in
            memoWords.withUnsafeMutableBufferPointer { words in
                let start = b.baseAddress! + at
                let memo = slots == 0 ? nil : JSONTextMemo(words: words.baseAddress!, slots: slots)
                var cursor = JSONCursor(position: start, realPrecision: precision, memo: memo)
                if comma { cursor.text(",") }
                body(&cursor)
                return cursor.position - start
            }
        }
        length += written
        separate = true
    }

    /// A whole value given as JSON text (as a `JSONWriter` of the same precision wrote it),
    /// copied as it is: `text` must be exactly one complete value. O(length of `text`).
    public mutating func json(_ text: [UInt8]) {
        comma()
        text.withUnsafeBufferPointer { append($0) }
        separate = true
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

    /// Makes room for `count` more bytes after the text.
    @inline(__always)
    private mutating func room(_ count: Int) {
        if length + count > buffer.count { grow(count) }
    }

    /// At least doubles the buffer, copying only the text (amortized O(1) per byte).
    @inline(never)
    private mutating func grow(_ count: Int) {
        let target = max(buffer.count * 2, length + count, 256)
        let text = length
        buffer = buffer.withUnsafeBufferPointer { old in
            [UInt8](unsafeUninitializedCapacity: target) { new, initialized in
                if text > 0 { new.baseAddress!.update(from: old.baseAddress!, count: text) }
                initialized = target
            }
        }
    }

    private mutating func byte(_ value: UInt8) {
        room(1)
        buffer[length] = value
        length += 1
    }

    private mutating func append(_ text: UnsafeBufferPointer<UInt8>) {
        let count = text.count
        guard count > 0 else { return }
        room(count)
        let at = length
        buffer.withUnsafeMutableBufferPointer { b in (b.baseAddress! + at).update(from: text.baseAddress!, count: count) }
        length += count
    }

    private mutating func comma() {
        if separate { byte(UInt8(ascii: ",")) }
    }

    private mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { append($0) }
    }

    /// `text` in quotes, escaped; runs without escapes are copied whole.
    private mutating func quoted(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            room(utf8.count + 2)
            byte(UInt8(ascii: "\""))
            var start = 0
            for i in 0..<utf8.count {
                let byte = utf8[i]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                if start < i { append(UnsafeBufferPointer(rebasing: utf8[start..<i])) }
                escape(byte)
                start = i + 1
            }
            if start < utf8.count { append(UnsafeBufferPointer(rebasing: utf8[start...])) }
            self.byte(UInt8(ascii: "\""))
        }
    }

    private mutating func escape(_ byte: UInt8) {
        self.byte(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): self.byte(byte)
        case 0x08: self.byte(UInt8(ascii: "b"))
        case 0x0C: self.byte(UInt8(ascii: "f"))
        case 0x0A: self.byte(UInt8(ascii: "n"))
        case 0x0D: self.byte(UInt8(ascii: "r"))
        case 0x09: self.byte(UInt8(ascii: "t"))
        default:
            let hex: StaticString = "0123456789ABCDEF"
            hex.withUTF8Buffer { digits in
                for b in [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), digits[Int(byte >> 4)], digits[Int(byte & 0xF)]] { self.byte(b) }
            }
        }
    }
}
