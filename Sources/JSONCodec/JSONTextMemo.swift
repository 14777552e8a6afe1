/// The text last written through each of a few numbered slots, with the key it was written
/// for, so that a value repeated from one row to the next (a column's x, width and height,
/// the same on every row) is copied instead of formatted again
/// (`JSONCursor.write(_:slot:_:)`). A `JSONWriter` owns one when asked
/// (`JSONWriter.keepRepeats(slots:)`) and lends it to each cursor it hands out.
///
/// The caller chooses the slots and the keys (a number's bit pattern, or up to four of them
/// for a run of text with several numbers) and must give the same text for the same key in a
/// slot for as long as the writer lives: the memo only ever replays what was written for that
/// key.
///
/// A slot is `stride` words: its key (4 words), its text's length (`UInt64.max` while it
/// keeps none) and up to `room` bytes of text. The memo is a plain pointer into the writer's
/// storage, so that using it costs no reference counting.
public struct JSONTextMemo {
    /// The most bytes one slot keeps; a longer text is written but not kept.
    public static let room = 128
    /// Words per slot: the key, the length and `room` bytes.
    @usableFromInline static let stride = 5 + room / 8
    /// The length word of a slot that keeps no text.
    @usableFromInline static let empty = UInt64.max

    @usableFromInline let words: UnsafeMutablePointer<UInt64>
    @usableFromInline let slots: Int

    @usableFromInline init(words: UnsafeMutablePointer<UInt64>, slots: Int) {
        self.words = words
        self.slots = slots
    }

    /// The storage of `slots` empty slots: only their length words are written (a slot's key
    /// and text are read only once it has kept one). O(slots).
    static func storage(slots: Int) -> [UInt64] {
        let count = slots * stride
        return [UInt64](unsafeUninitializedCapacity: count) { words, initialized in
            for slot in 0..<slots { words[slot * stride + 4] = empty }
            initialized = count
        }
    }

    /// The text `slot` keeps for `key`, if it is the key last kept there. O(1).
    @inlinable @inline(__always) func text(_ slot: Int, key: SIMD4<UInt64>) -> UnsafeBufferPointer<UInt8>? {
        precondition(slot >= 0 && slot < slots, "no such slot")
        let entry = words + slot * Self.stride
        guard entry[4] != Self.empty, UnsafeRawPointer(entry).loadUnaligned(as: SIMD4<UInt64>.self) == key else { return nil }
        return UnsafeBufferPointer(start: UnsafeRawPointer(entry + 5).assumingMemoryBound(to: UInt8.self), count: Int(entry[4]))
    }

    /// Keeps `text` in `slot` for `key` (nothing, and the slot emptied, when it is longer
    /// than `room`). A text of up to 64 bytes is copied as 8-byte words
    /// (`copy(_:count:to:)`), so the 64 bytes from its start must be readable. O(text).
    @inlinable @inline(__always) func keep(_ slot: Int, key: SIMD4<UInt64>, _ text: UnsafeBufferPointer<UInt8>) {
        precondition(slot >= 0 && slot < slots, "no such slot")
        let entry = words + slot * Self.stride
        guard text.count <= Self.room, let base = text.baseAddress else {
            entry[4] = Self.empty
            return
        }
        Self.copy(UnsafeRawPointer(base), count: text.count, to: UnsafeMutableRawPointer(entry + 5))
        UnsafeMutableRawPointer(entry).storeBytes(of: key, as: SIMD4<UInt64>.self)
        entry[4] = UInt64(text.count)
    }

    /// Copies `count` bytes: up to 16 as two 8-byte words, up to 64 as eight, so without a
    /// call; more with `memmove`. Up to 16 and 64 bytes respectively are read and written
    /// whatever `count` is, so both places must have that many.
    @inlinable @inline(__always)
    static func copy(_ from: UnsafeRawPointer, count: Int, to: UnsafeMutableRawPointer) {
        if count <= 16 {
            to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
            to.storeBytes(of: from.loadUnaligned(fromByteOffset: 8, as: UInt64.self), toByteOffset: 8, as: UInt64.self)
        } else if count <= 64 {
            for word in 0..<8 {
                to.storeBytes(of: from.loadUnaligned(fromByteOffset: 8 * word, as: UInt64.self), toByteOffset: 8 * word, as: UInt64.self)
            }
        } else {
            to.copyMemory(from: from, byteCount: count)
        }
    }
}
