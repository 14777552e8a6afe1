extension JSONCursor {
    /// What `body` writes, or, when `key` is the key `slot` of the writer's memo last kept
    /// (`JSONWriter.keepRepeats(slots:)`), the text kept with it, copied; without a memo,
    /// what `body` writes. `body` must write the same text whenever it is called for the same
    /// key in the same slot. The room reserved for this write must be at least 16 bytes: a
    /// kept text of up to 16 bytes is copied as two 8-byte words (what follows it is
    /// overwritten by the next write). O(text).
    @inlinable
    public mutating func write(_ key: UInt64, slot: Int, _ body: (inout JSONCursor) -> Void) {
        guard let memo else { return body(&self) }
        if let kept = memo.text(slot, key: key) {
            let count = kept.count
            if count <= 16 {
                let from = UnsafeRawPointer(kept.baseAddress!)
                let to = UnsafeMutableRawPointer(position)
                to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
                to.storeBytes(of: from.loadUnaligned(fromByteOffset: 8, as: UInt64.self), toByteOffset: 8, as: UInt64.self)
            } else {
                position.update(from: kept.baseAddress!, count: count)
            }
            position += count
            return
        }
        let start = position
        body(&self)
        memo.keep(slot, key: key, UnsafeBufferPointer(start: start, count: position - start))
    }
}
