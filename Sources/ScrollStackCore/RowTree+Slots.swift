/// Each row's slot in its chunk, found without scanning the chunk.
///
/// A row in a chunk has a local number (0..<256) that stays the same while the row stays
/// in that chunk; `store.chunkOf` holds its place, `chunk << 8 | local`. Each chunk id has
/// 512 bytes in `slotTables`: the slot of each local number (bytes 0..<256), then the local
/// number at each slot (bytes 256..<512), and four words of `usedLocals` marking the
/// numbers in use. Finding a row's slot reads one byte; inserting or removing a row
/// renumbers the slots after it in these 512 bytes, which sit together, instead of
/// writing to each shifted row. It costs 544 bytes per chunk, under 9 bytes per row.
extension RowTree {
    /// The packed place of a row: its chunk and its local number there.
    @inline(__always)
    static func place(chunk: Int, local: Int) -> Int32 { Int32(truncatingIfNeeded: chunk << 8 | local) }

    /// Chunk ids must fit in the 23 bits a place has for them.
    static let maximumChunks = 1 << 23

    /// Where the row with place `place` sits. O(1).
    @inline(__always)
    func cursor(atPlace place: Int32) -> Cursor {
        let chunk = Int(place >> 8)
        let slot = Int(slotTables[chunk << 9 | Int(place & 255)])
        return Cursor(position: Int(positions[chunk]), slot: slot)
    }

    /// Room for the tables of one more chunk id. O(1) amortized.
    mutating func appendSlotTable() {
        precondition(slotTables.count >> 9 < Self.maximumChunks, "too many chunks")
        slotTables.append(repeating: 0, count: 512)
        usedLocals.append(contentsOf: repeatElement(0, count: 4))
    }

    /// Numbers the rows of chunk `chunk`, just filled, 0, 1, … in slot order, and sets their
    /// places. O(B).
    mutating func numberChunk(_ chunk: Int) {
        let handles = chunks[chunk]
        withSlotTable(chunk) { table in
            for slot in handles.indices {
                table[slot] = UInt8(slot)
                table[256 | slot] = UInt8(slot)
            }
        }
        // A chunk just built holds consecutive handles: their places are written run by run.
        if let first = handles.first.map(Int.init), handles.indices.allSatisfy({ Int(handles[$0]) == first + $0 }) {
            store.chunkOf.withMutableRuns(in: first..<(first + handles.count)) { start, run in
                for j in run.indices { run[j] = Self.place(chunk: chunk, local: start - first + j) }
            }
        } else {
            for (slot, h) in handles.enumerated() { store.chunkOf[Int(h)] = Self.place(chunk: chunk, local: slot) }
        }
        for w in 0..<4 {
            let bits = Swift.min(64, Swift.max(0, handles.count - 64 * w))
            usedLocals[chunk << 2 | w] = bits == 64 ? .max : (1 << bits) - 1
        }
    }

    /// Marks a chunk id free: no local number in use. O(1).
    mutating func clearSlotTable(_ chunk: Int) {
        for w in 0..<4 { usedLocals[chunk << 2 | w] = 0 }
    }

    /// Numbers the `k` rows just inserted into chunk `chunk` at `slot` (its handles already
    /// hold them) with free local numbers, sets their places, and renumbers the slots from
    /// `slot` on. O(B), within the chunk's tables.
    mutating func slotsInserted(_ chunk: Int, at slot: Int, count k: Int) {
        let count = chunks[chunk].count
        let base = chunk << 9
        withSlotTable(chunk) { table in
            let locals = table.baseAddress! + 256
            UnsafeMutableRawPointer(locals + slot + k).copyMemory(from: locals + slot, byteCount: count - slot - k)
        }
        for i in 0..<k {
            let local = takeLocal(chunk)
            slotTables[base | 256 | (slot + i)] = UInt8(local)
            store.chunkOf[Int(chunks[chunk][slot + i])] = Self.place(chunk: chunk, local: local)
        }
        withSlotTable(chunk) { table in
            for s in slot..<count { table[Int(table[256 | s])] = UInt8(s) }
        }
    }

    /// Frees the local number of the row at `slot` of chunk `chunk`, which its handles no
    /// longer hold, and renumbers the slots from `slot` on. O(B), within the chunk's tables.
    mutating func slotRemoved(_ chunk: Int, at slot: Int) {
        let count = chunks[chunk].count
        let base = chunk << 9
        let local = Int(slotTables[base | 256 | slot])
        usedLocals[chunk << 2 | local >> 6] &= ~(1 << UInt64(local & 63))
        withSlotTable(chunk) { table in
            let locals = table.baseAddress! + 256
            UnsafeMutableRawPointer(locals + slot).copyMemory(from: locals + slot + 1, byteCount: count - slot)
            for s in slot..<count { table[Int(locals[s])] = UInt8(s) }
        }
    }

    /// Calls `body` with the 512 bytes of chunk `chunk`'s tables, contiguous (a page of
    /// `slotTables` holds whole tables).
    private mutating func withSlotTable(_ chunk: Int, _ body: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
        slotTables.withMutableRuns(in: (chunk << 9)..<((chunk + 1) << 9)) { _, table in
            assert(table.count == 512, "a page of slotTables holds whole tables")
            body(table)
        }
    }

    /// A free local number of chunk `chunk`, now marked used. O(1).
    private mutating func takeLocal(_ chunk: Int) -> Int {
        for w in 0..<4 where usedLocals[chunk << 2 | w] != .max {
            let bit = (~usedLocals[chunk << 2 | w]).trailingZeroBitCount
            usedLocals[chunk << 2 | w] |= 1 << UInt64(bit)
            return w << 6 | bit
        }
        preconditionFailure("a chunk of at most 256 rows has a free local number")
    }

    /// Traps unless each row of chunk `chunk` has a place naming the chunk and a local number
    /// in use that maps to its slot, and no other number is in use. O(B).
    func checkSlotTable(_ chunk: Int) {
        let base = chunk << 9
        var used = 0
        for w in 0..<4 { used += usedLocals[chunk << 2 | w].nonzeroBitCount }
        precondition(used == chunks[chunk].count, "chunk \(chunk): \(used) local numbers in use for \(chunks[chunk].count) rows")
        for (slot, h) in chunks[chunk].enumerated() {
            let place = store.chunkOf[Int(h)]
            let local = Int(place & 255)
            precondition(Int(place >> 8) == chunk, "row \(store.ids[Int(h)]): chunk link")
            precondition(Int(slotTables[base | 256 | slot]) == local && Int(slotTables[base | local]) == slot,
                         "row \(store.ids[Int(h)]): stale slot table")
            precondition(usedLocals[chunk << 2 | local >> 6] & (1 << UInt64(local & 63)) != 0, "row \(store.ids[Int(h)]): local number not in use")
        }
    }
}
