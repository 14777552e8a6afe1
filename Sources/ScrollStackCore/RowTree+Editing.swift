extension RowTree {
    /// Inserts `rows` (with their natural lengths) so that the first lands at `index`, in order; their
    /// ids must be new. O(k + log C + B) for k rows, plus O(C) when chunks split; a whole
    /// stack built at once is O(k).
    mutating func insert(_ rows: [Row], lengths: [Double], at index: Int) {
        precondition(index >= 0 && index <= count && lengths.count == rows.count)
        guard !rows.isEmpty else { return }
        if count == 0 { store.reserve(rows.count) }
        var handles: [NodeID] = []
        handles.reserveCapacity(rows.count)
        rows.withUnsafeBufferPointer { rows in
            for i in rows.indices { handles.append(store.add(rows[i], length: lengths[i], indexed: false)) }
        }
        store.index(handles)
        insert(handles: handles, at: index)
    }

    /// Orders the rows of a store filled by `ScrollStackBuilder` (`RowStore.add(…, indexed:
    /// false)` and `appendPlain`, so handles 0..<n) by handle, in chunks. O(n).
    mutating func adoptStoredRows() {
        precondition(order.isEmpty)
        replaceChunks(at: 0, removing: 0, with: Array(0..<NodeID(store.count)))
    }

    /// Places stored rows' handles at `index`, in order.
    mutating func insert(handles: [NodeID], at index: Int) {
        guard !order.isEmpty else {
            replaceChunks(at: 0, removing: 0, with: handles)
            return
        }
        let cursor = index == count
            ? Cursor(position: order.count - 1, slot: chunks[Int(order[order.count - 1])].count)
            : self.cursor(at: index)
        let chunk = Int(order[cursor.position])
        if chunks[chunk].count + handles.count <= Self.chunkCapacity {
            chunks[chunk].insert(contentsOf: handles, at: cursor.slot)
            slotsInserted(chunk, at: cursor.slot, count: handles.count)
            let wasExact = inexactRows[chunk] == 0
            for h in handles where !Self.isExact(store.lengths[Int(h)]) { inexactRows[chunk] += 1 }
            if handles.count == 1 {
                resum(chunk, at: cursor.position, wasExact: wasExact, minus: nil, plus: self[handles[0]])
            } else {
                sums.set(cursor.position, aggregate(ofChunk: chunk))
            }
        } else {
            var merged = chunks[chunk]
            merged.insert(contentsOf: handles, at: cursor.slot)
            replaceChunks(at: cursor.position, removing: 1, with: merged)
        }
    }

    /// Removes the row at `index`. O(log C + B), plus O(C) if its chunk empties.
    mutating func remove(at index: Int) {
        remove(at: cursor(at: index))
    }

    /// Removes the row at `cursor` (found by the caller, so not looked up again). O(log C),
    /// plus O(B) to shift its chunk or sum it afresh, plus O(C) if its chunk empties.
    mutating func remove(at cursor: Cursor) {
        store.remove(detach(at: cursor))
    }

    /// Moves the row at `cursor` so that it ends at `destination`, keeping its node.
    /// O(log C + B), plus O(C) when a chunk empties or splits.
    mutating func move(from cursor: Cursor, to destination: Int) {
        let h = detach(at: cursor)
        insert(handles: [h], at: destination)
    }

    /// Removes every row. O(n).
    mutating func removeAll() { self = RowTree() }

    /// Replaces the row stored in `node`, keeping its place. O(log C + B).
    mutating func setRow(_ row: Row, length: Double, of node: NodeID) {
        let old = self[node]
        store.set(node, to: row, length: length)
        rowChanged(node, from: old)
    }

    /// Sets one row's hidden flag, size rule and natural length, the rest of it unchanged.
    /// O(log C), plus O(B) when its chunk must be summed afresh.
    mutating func setHidden(_ hidden: Bool, size: SizeRule, length: Double, of node: NodeID) {
        let old = self[node]
        store.setHidden(hidden, size: size, length: length, of: node)
        rowChanged(node, from: old)
    }

    /// Sets every row's length, given in row order, and rebuilds the aggregates. O(n).
    mutating func setLengths(_ lengths: [Double]) {
        precondition(lengths.count == count)
        var i = 0
        for chunk in order {
            for h in chunks[Int(chunk)] {
                store.setLength(lengths[i], of: h)
                i += 1
            }
        }
        rebuildSums()
    }

    // MARK: Chunks

    /// Takes the row at `cursor` out of its chunk, leaving it in the store.
    private mutating func detach(at cursor: Cursor) -> NodeID {
        let chunk = Int(order[cursor.position])
        let h = chunks[chunk].remove(at: cursor.slot)
        slotRemoved(chunk, at: cursor.slot)
        store.chunkOf[Int(h)] = -1
        if chunks[chunk].isEmpty {
            replaceChunks(at: cursor.position, removing: 1, with: [])
        } else if chunks[chunk].count < Self.chunkMinimum && order.count > 1 {
            mergeWithNeighbour(at: cursor.position)
        } else {
            let wasExact = inexactRows[chunk] == 0
            if !Self.isExact(store.lengths[Int(h)]) { inexactRows[chunk] -= 1 }
            resum(chunk, at: cursor.position, wasExact: wasExact, minus: self[h], plus: nil)
        }
        return h
    }

    /// Merges the underfull chunk at `position` with its smaller neighbour, cut again into
    /// chunks of at most `chunkFill` rows. O(C + B).
    private mutating func mergeWithNeighbour(at position: Int) {
        let hasLeft = position > 0, hasRight = position + 1 < order.count
        let left = hasLeft && (!hasRight || chunks[Int(order[position - 1])].count <= chunks[Int(order[position + 1])].count)
            ? position - 1 : position
        replaceChunks(at: left, removing: 2, with: chunks[Int(order[left])] + chunks[Int(order[left + 1])])
    }

    /// Updates the sums after the row in `node` went from `old` to its stored length and
    /// hidden flag, in place. O(log C), plus O(B) when its chunk must be summed afresh.
    private mutating func rowChanged(_ node: NodeID, from old: Node) {
        let chunk = Int(store.chunkOf[Int(node)] >> 8)
        let new = self[node]
        let wasExact = inexactRows[chunk] == 0
        inexactRows[chunk] += (Self.isExact(new.length) ? 0 : 1) - (Self.isExact(old.length) ? 0 : 1)
        resum(chunk, at: Int(positions[chunk]), wasExact: wasExact, minus: old, plus: new)
    }

    /// Sets the aggregate of chunk `chunk` (at `position`) after one row left it (`old`),
    /// joined it (`new`) or both. While every length in the chunk was and is exact
    /// (`isExact`), by difference, which gives the bits of a fresh sum in row order;
    /// otherwise by summing the chunk afresh. O(log C), plus O(B) for a fresh sum.
    private mutating func resum(_ chunk: Int, at position: Int, wasExact: Bool, minus old: Node?, plus new: Node?) {
        guard wasExact && inexactRows[chunk] == 0 else {
            sums.set(position, aggregate(ofChunk: chunk))
            return
        }
        var leaf = sums.leaf(position)
        if let old {
            leaf.length -= old.effectiveLength
            leaf.shown -= old.hidden ? 0 : 1
            leaf.count -= 1
        }
        if let new {
            leaf.length += new.effectiveLength
            leaf.shown += new.hidden ? 0 : 1
            leaf.count += 1
        }
        sums.set(position, leaf)
    }

    /// Replaces `removing` chunks from `position` on with `handles` cut into chunks of at
    /// most `chunkFill` rows (as even as possible), then renumbers the positions after it
    /// and puts the new chunks' aggregates in the sums in place of the removed ones'.
    /// O(C + k) for k handles.
    private mutating func replaceChunks(at position: Int, removing: Int, with handles: [NodeID]) {
        let chunkCount = order.count
        var freed = Array(order[position..<(position + removing)])
        let pieces = (handles.count + Self.chunkFill - 1) / Self.chunkFill
        var newIDs: [Int32] = []
        newIDs.reserveCapacity(pieces)
        var start = 0
        for piece in 0..<pieces {
            let end = start + (handles.count - start) / (pieces - piece)
            let id: Int32
            if let reused = freed.popLast() ?? freeChunks.popLast() {
                id = reused
                chunks[Int(id)] = Array(handles[start..<end])
            } else {
                id = Int32(chunks.count)
                chunks.append(Array(handles[start..<end]))
                positions.append(-1)
                inexactRows.append(0)
                appendSlotTable()
            }
            numberChunk(Int(id))
            inexactRows[Int(id)] = inexactCount(ofChunk: Int(id))
            newIDs.append(id)
            start = end
        }
        for id in freed {
            chunks[Int(id)] = []
            positions[Int(id)] = -1
            inexactRows[Int(id)] = 0
            clearSlotTable(Int(id))
            freeChunks.append(id)
        }
        order.replaceSubrange(position..<(position + removing), with: newIDs)
        for p in position..<order.count { positions[Int(order[p])] = Int32(p) }
        sums.replace(position..<(position + removing), of: chunkCount, with: newIDs.map { aggregate(ofChunk: Int($0)) })
    }

    private mutating func rebuildSums() {
        var leaves: [Prefix] = []
        leaves.reserveCapacity(order.count)
        for chunk in order {
            leaves.append(aggregate(ofChunk: Int(chunk)))
            inexactRows[Int(chunk)] = inexactCount(ofChunk: Int(chunk))
        }
        sums.rebuild(leaves)
    }

    // MARK: Invariants

    /// Checks chunks, positions, the segment tree and the store; traps on the first
    /// violation. O(n).
    func checkInvariants() {
        var seen = 0
        var leaves: [Prefix] = []
        for (p, chunk) in order.enumerated() {
            precondition(positions[Int(chunk)] == Int32(p), "chunk \(chunk): position \(positions[Int(chunk)]), expected \(p)")
            precondition(!chunks[Int(chunk)].isEmpty && chunks[Int(chunk)].count <= Self.chunkCapacity, "chunk \(chunk): bad size")
            precondition(order.count == 1 || chunks[Int(chunk)].count >= Self.chunkMinimum, "chunk \(chunk): underfull")
            checkSlotTable(Int(chunk))
            seen += chunks[Int(chunk)].count
            leaves.append(aggregate(ofChunk: Int(chunk)))
            precondition(inexactRows[Int(chunk)] == inexactCount(ofChunk: Int(chunk)), "chunk \(chunk): stale count of inexact lengths")
        }
        precondition(order.count + freeChunks.count == chunks.count && inexactRows.count == chunks.count
                     && slotTables.count == chunks.count << 9 && usedLocals.count == chunks.count << 2, "leaked chunks")
        for chunk in freeChunks {
            precondition(positions[Int(chunk)] == -1 && chunks[Int(chunk)].isEmpty && inexactRows[Int(chunk)] == 0, "free chunk \(chunk) in use")
            checkSlotTable(Int(chunk))
        }
        precondition(seen == store.count, "\(store.count) rows stored, \(seen) in chunks")
        sums.checkInvariants(leaves: leaves)
        store.checkInvariants()
    }
}
