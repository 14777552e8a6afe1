extension JSONCursor {
    /// What `body` writes, or, when `key` is the key `slot` of the writer's memo last kept
    /// (`JSONWriter.keepRepeats(slots:)`), the text kept with it, copied; without a memo,
    /// what `body` writes. `body` must write the same text whenever it is called for the same
    /// key in the same slot. The room reserved for this write must be at least
    /// `memoOvershoot` bytes: a text of up to 64 bytes is kept and copied as 8-byte words
    /// (what follows it is overwritten by the next write). O(text).
    @inlinable
    public mutating func write(_ key: SIMD4<UInt64>, slot: Int, _ body: (inout JSONCursor) -> Void) {
        guard let memo else { return body(&self) }
        if let kept = memo.text(slot, key: key) {
            JSONTextMemo.copy(UnsafeRawPointer(kept.baseAddress!), count: kept.count, to: UnsafeMutableRawPointer(position))
            position += kept.count
            return
        }
        let start = position
        body(&self)
        memo.keep(slot, key: key, UnsafeBufferPointer(start: start, count: position - start))
    }

    /// `write(_:slot:_:)` keyed by one word (a number's bits, say).
    @inlinable
    public mutating func write(_ key: UInt64, slot: Int, _ body: (inout JSONCursor) -> Void) {
        write(SIMD4(key, 0, 0, 0), slot: slot, body)
    }

    /// The room a write through the memo may use beyond its text.
    public static let memoOvershoot = 64
}
