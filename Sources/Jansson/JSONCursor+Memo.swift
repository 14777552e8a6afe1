extension JSONCursor {
    /// What `body` writes, or, when `key` is the key `slot` of the writer's memo last kept
    /// (`JSONWriter.keepRepeats(slots:)`), the text kept with it, copied; without a memo,
    /// what `body` writes. `body` must write the same text whenever it is called for the same
    /// key in the same slot. The room reserved for this write must be at least 16 bytes: a
    /// text of up to 16 bytes is kept and copied as two 8-byte words (what follows it is
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

    /// Where the cursor is: the start or the end of a run of text to be written again
    /// (`repeatText(from:to:)`).
    public struct Mark {
        @usableFromInline let position: UnsafeMutablePointer<UInt8>
        @usableFromInline init(_ position: UnsafeMutablePointer<UInt8>) { self.position = position }
    }

    /// The cursor's place now.
    @inlinable public var mark: Mark { Mark(position) }

    /// Writes again the text this cursor wrote from `start` to `end` (marks taken in this
    /// run, `start` first). The room reserved must cover it. O(text).
    @inlinable
    public mutating func repeatText(from start: Mark, to end: Mark) {
        let count = end.position - start.position
        precondition(count >= 0 && end.position <= position, "marks out of order")
        position.update(from: start.position, count: count)
        position += count
    }
}
