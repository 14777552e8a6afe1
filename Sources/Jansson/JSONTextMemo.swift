/// The text last written through each of a few numbered slots, with the key it was written
/// for, so that a value repeated from one row to the next (a column's x, width and height,
/// the same on every row) is copied instead of formatted again (`JSONCursor.write(_:slot:in:_:)`).
///
/// The caller chooses the keys (a number's bit pattern, say) and must give the same text for
/// the same key in a slot: the memo only ever replays what was written for that key. One
/// answer's writer uses it at a time (it is not thread-safe).
public final class JSONTextMemo {
    /// The most bytes one slot keeps; a longer text is written but not kept.
    public let room: Int
    @usableFromInline let slots: Int
    @usableFromInline let keys: UnsafeMutablePointer<UInt64>
    /// A slot's text length, or -1 while it keeps none.
    @usableFromInline let lengths: UnsafeMutablePointer<Int>
    @usableFromInline let texts: UnsafeMutablePointer<UInt8>

    /// A memo of `slots` empty slots of `room` bytes each (at least 16: a kept text is read
    /// as 16 bytes when shorter; one allocation).
    public init(slots: Int, room: Int = JSONCursor.numberRoom) {
        self.slots = slots
        self.room = max(16, room)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: slots * (16 + max(16, room)), alignment: 8)
        keys = memory.bindMemory(to: UInt64.self, capacity: slots)
        keys.initialize(repeating: 0, count: slots)
        lengths = (memory + slots * 8).bindMemory(to: Int.self, capacity: slots)
        lengths.initialize(repeating: -1, count: slots)
        texts = (memory + slots * 16).bindMemory(to: UInt8.self, capacity: slots * self.room)
        texts.initialize(repeating: 0, count: slots * self.room)
    }

    deinit {
        UnsafeMutableRawPointer(keys).deallocate()
    }

    /// The text `slot` keeps for `key`, if it is the key last kept there. Inlinable, like
    /// `keep` and the cursor's `write(_:slot:in:_:)`: a call per number would cost more than
    /// formatting it.
    @inlinable func text(_ slot: Int, key: UInt64) -> UnsafeBufferPointer<UInt8>? {
        precondition(slot >= 0 && slot < slots, "no such slot")
        guard lengths[slot] >= 0, keys[slot] == key else { return nil }
        return UnsafeBufferPointer(start: texts + slot * room, count: lengths[slot])
    }

    /// Keeps `text` in `slot` for `key` (nothing, and the slot emptied, when it is longer
    /// than `room`).
    @inlinable func keep(_ slot: Int, key: UInt64, _ text: UnsafeBufferPointer<UInt8>) {
        precondition(slot >= 0 && slot < slots, "no such slot")
        guard text.count <= room, let base = text.baseAddress else {
            lengths[slot] = -1
            return
        }
        (texts + slot * room).update(from: base, count: text.count)
        keys[slot] = key
        lengths[slot] = text.count
    }
}
