/// The text last written through each of a few numbered slots, with the key it was written
/// for, so that a value repeated from one row to the next (a column's x, width and height,
/// the same on every row) is copied instead of formatted again
/// (`JSONCursor.write(_:slot:_:)`). A `JSONWriter` owns one when asked
/// (`JSONWriter.keepRepeats(slots:)`) and lends it to each cursor it hands out.
///
/// The caller chooses the slots and the keys (a number's bit pattern, say) and must give the
/// same text for the same key in a slot for as long as the writer lives: the memo only ever
/// replays what was written for that key.
///
/// A slot is 8 words: its key, its text's length (`UInt64.max` while it keeps none) and up
/// to `room` bytes of text. The memo is a plain pointer into the writer's storage, so that
/// using it costs no reference counting.
@frozen public struct JSONTextMemo {
    /// The most bytes one slot keeps; a longer text is written but not kept.
    public static let room = 48
    /// Words per slot: the key, the length and `room` bytes.
    @usableFromInline static let stride = 2 + room / 8
    /// The length word of a slot that keeps no text.
    @usableFromInline static let empty = UInt64.max

    @usableFromInline let words: UnsafeMutablePointer<UInt64>
    @usableFromInline let slots: Int

    @usableFromInline init(words: UnsafeMutablePointer<UInt64>, slots: Int) {
        self.words = words
        self.slots = slots
    }

    /// The storage of `slots` empty slots.
    static func storage(slots: Int) -> [UInt64] {
        var words = [UInt64](repeating: 0, count: slots * stride)
        for slot in 0..<slots { words[slot * stride + 1] = empty }
        return words
    }

    /// The text `slot` keeps for `key`, if it is the key last kept there. O(1).
    @inlinable @inline(__always) func text(_ slot: Int, key: UInt64) -> UnsafeBufferPointer<UInt8>? {
        precondition(slot >= 0 && slot < slots, "no such slot")
        let entry = words + slot * Self.stride
        guard entry[1] != Self.empty, entry[0] == key else { return nil }
        return UnsafeBufferPointer(start: UnsafeRawPointer(entry + 2).assumingMemoryBound(to: UInt8.self), count: Int(entry[1]))
    }

    /// Keeps `text` in `slot` for `key` (nothing, and the slot emptied, when it is longer
    /// than `room`). A text of up to 16 bytes is copied as two 8-byte words, so the 16 bytes
    /// from its start must be readable. O(text).
    @inlinable @inline(__always) func keep(_ slot: Int, key: UInt64, _ text: UnsafeBufferPointer<UInt8>) {
        precondition(slot >= 0 && slot < slots, "no such slot")
        let entry = words + slot * Self.stride
        guard text.count <= Self.room, let base = text.baseAddress else {
            entry[1] = Self.empty
            return
        }
        if text.count <= 16 {
            let from = UnsafeRawPointer(base)
            entry[2] = from.loadUnaligned(as: UInt64.self)
            entry[3] = from.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        } else {
            UnsafeMutableRawPointer(entry + 2).copyMemory(from: base, byteCount: text.count)
        }
        entry[0] = key
        entry[1] = UInt64(text.count)
    }
}
