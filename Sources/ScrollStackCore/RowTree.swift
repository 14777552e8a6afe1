/// The ordered rows of a stack: their handles in chunks of at most `chunkCapacity`, kept in
/// order, with a segment tree (`ChunkSums`) of each chunk's row count, shown-row count and
/// summed effective length, and the rows themselves in a `RowStore` by handle. A row's
/// handle is its node id: it stays the same while the row is in the stack, moves included.
///
/// For n rows in C ≈ n/B chunks (B ≤ 256): a row's index costs O(log C) (its slot in its
/// chunk is kept, `RowTree+Slots`); finding a row by index, a row's prefix,
/// and the first row meeting a monotone predicate cost O(log C + B) with B a short
/// sequential scan; one row's insertion, removal, change or move O(log C + B), plus O(C + B)
/// when a chunk splits or merges with a neighbour (at most once every B/4 edits to one
/// chunk); walking rows in
/// order O(1) each. Copying is O(1) and the first edit after a copy copies the chunk list
/// and the touched columns.
struct RowTree: Sendable {
    typealias NodeID = RowStore.Handle
    static let none: NodeID = -1

    /// A chunk splits when an insertion takes it above this many rows.
    static let chunkCapacity = 256
    /// How full a bulk build or a split leaves chunks, so that insertions have room.
    static let chunkFill = 192
    /// A chunk that a removal leaves with fewer rows than this is merged with a neighbour,
    /// so every chunk but a lone one holds at least this many rows.
    static let chunkMinimum = 64

    /// One row's length along the main axis and whether it is hidden.
    struct Node: Sendable {
        /// The row's own length along the main axis, as if it were shown.
        var length: Double
        var hidden: Bool

        var effectiveLength: Double { hidden ? 0 : length }
    }

    /// Positions along the main axis that rows before a node take up.
    struct Prefix: Sendable, Equatable {
        var length: Double = 0
        var shown: Int = 0
        var count: Int = 0
    }

    /// Where a row sits: its chunk's position in order and its slot there.
    struct Cursor: Sendable {
        var position: Int
        var slot: Int
    }

    var store = RowStore()
    /// Each chunk's handles in row order, by chunk id.
    var chunks: [[NodeID]] = []
    /// Chunk ids in row order.
    var order: [Int32] = []
    /// Each chunk id's position in `order`, or -1 for a free chunk id.
    var positions: [Int32] = []
    var freeChunks: [Int32] = []
    /// Each chunk id's number of rows whose length is not `isExact` (0 for a free chunk id).
    /// While a chunk has none, its aggregate is updated by differences (see `isExact`).
    var inexactRows: [Int32] = []
    /// Each chunk id's slot of each local number and local number at each slot, 512 bytes
    /// (see `RowTree+Slots`); paged, as the store's columns, since it grows with the rows.
    var slotTables = PagedColumn<UInt8>()
    /// Each chunk id's local numbers in use, 4 words of bits.
    var usedLocals: [UInt64] = []
    var sums = ChunkSums()

    /// Whether `length` is a multiple of 1/64 in 0...2³⁰ (with a plus sign). A chunk of at
    /// most 256 such lengths sums exactly in any order: every partial sum is a multiple of
    /// 1/64 below 2³⁸, which a double holds exactly (44 significant bits). So while every
    /// row of a chunk has an exact length, its aggregate can be updated by adding and
    /// subtracting one row's effective length, and the result equals a fresh sum in row
    /// order bit for bit. Fixed sizes in points and lengths measured in `LayoutUnit`s are
    /// exact; a chunk holding any other length is summed afresh after each edit.
    @inline(__always)
    static func isExact(_ length: Double) -> Bool {
        length >= 0 && length <= 0x1p30 && length.sign == .plus && (length * 64).rounded(.towardZero) == length * 64
    }

    // MARK: Reading

    var count: Int { sums.total.count }
    var shownCount: Int { sums.total.shown }
    var totalLength: Double { sums.total.length }

    subscript(node: NodeID) -> Node { Node(length: store.lengths[Int(node)], hidden: store.hidden[Int(node)]) }

    func row(_ node: NodeID) -> Row { store.row(node) }

    func id(_ node: NodeID) -> String { store.ids[Int(node)] }

    /// The node of the row with `id`. O(1) expected.
    func node(id: String) -> NodeID? { store.handle(id: id) }

    /// Where the row at `index` (0..<count) sits. O(log C).
    func cursor(at index: Int) -> Cursor {
        precondition(index >= 0 && index < count, "index out of range")
        let (position, before) = sums.chunk(containing: index)
        return Cursor(position: position, slot: index - before.count)
    }

    /// The node a cursor points at. O(1).
    func node(at cursor: Cursor) -> NodeID { chunks[Int(order[cursor.position])][cursor.slot] }

    /// The node at `index` (0..<count). O(log C).
    func node(at index: Int) -> NodeID { node(at: cursor(at: index)) }

    /// The cursor of `node`, from its place (`RowTree+Slots`). O(1).
    func cursor(of node: NodeID) -> Cursor { cursor(atPlace: store.chunkOf[Int(node)]) }

    /// The node of the row with `id` and its index. O(log C) expected; the row's place is
    /// read while its id is confirmed.
    func locate(id: String) -> (node: NodeID, index: Int, cursor: Cursor)? {
        guard let (node, place) = store.handleAndChunk(id: id) else { return nil }
        let cursor = cursor(atPlace: place)
        return (node, sums.countBefore(cursor.position) + cursor.slot, cursor)
    }

    /// The index of `node`. O(log C).
    func index(of node: NodeID) -> Int { locate(node).index }

    /// The index and the cursor of `node`. O(log C).
    func locate(_ node: NodeID) -> (index: Int, cursor: Cursor) {
        let cursor = cursor(of: node)
        return (sums.countBefore(cursor.position) + cursor.slot, cursor)
    }

    /// What the rows before `node` add up to: the chunks before its own, then its chunk's
    /// rows before it, one by one. O(log C + B).
    func prefix(before node: NodeID) -> Prefix {
        let cursor = cursor(of: node)
        var result = sums.before(cursor.position)
        for h in chunks[Int(order[cursor.position])][..<cursor.slot] { advance(&result, past: h) }
        return result
    }

    /// Indexes of many nodes. O(k log C).
    func indexes(of targets: [NodeID]) -> [Int] { targets.map(index(of:)) }

    /// The last row that is not hidden. O(log C + B).
    func lastShown() -> NodeID? {
        guard let position = sums.lastWithShownRows() else { return nil }
        return chunks[Int(order[position])].last { !store.hidden[Int($0)] }
    }

    /// The first node (in order) for which `isAtOrAfter(prefix, node)` holds, given that the
    /// predicate is monotone along the order (false…false true…true). O(log C + B): a
    /// descent over chunks judged by their first rows, then a scan of one chunk.
    func first(where isAtOrAfter: (Prefix, Node) -> Bool) -> (node: NodeID, prefix: Prefix)? {
        firstCursor(where: isAtOrAfter).map { (node(at: $0.cursor), $0.prefix) }
    }

    /// `first(where:)` giving where the node sits, so that a walk can start there without a
    /// second descent. O(log C + B).
    func firstCursor(where isAtOrAfter: (Prefix, Node) -> Bool) -> (cursor: Cursor, prefix: Prefix)? {
        guard !order.isEmpty else { return nil }
        let (position, before) = sums.lastFailing(chunks: order.count) { position, prefix in
            isAtOrAfter(prefix, self[chunks[Int(order[position])][0]])
        }
        var prefix = before
        for (slot, h) in chunks[Int(order[position])].enumerated() {
            if isAtOrAfter(prefix, self[h]) { return (Cursor(position: position, slot: slot), prefix) }
            advance(&prefix, past: h)
        }
        guard position + 1 < order.count else { return nil }
        return (Cursor(position: position + 1, slot: 0), prefix)
    }

    /// Every node in order. O(n).
    @inline(__always)
    func forEachInOrder(_ body: (NodeID) -> Void) {
        for chunk in order {
            for h in chunks[Int(chunk)] { body(h) }
        }
    }

    /// The nodes from `cursor` on, in order, while `body` returns true. O(1) per row.
    @inline(__always)
    func walk(from cursor: Cursor, _ body: (NodeID) -> Bool) {
        var slot = cursor.slot
        for position in cursor.position..<order.count {
            let chunk = chunks[Int(order[position])]
            while slot < chunk.count {
                if !body(chunk[slot]) { return }
                slot += 1
            }
            slot = 0
        }
    }

    func advance(_ prefix: inout Prefix, past h: NodeID) {
        let hidden = store.hidden[Int(h)]
        prefix.count += 1
        prefix.length += hidden ? 0 : store.lengths[Int(h)]
        prefix.shown += hidden ? 0 : 1
    }

    /// How many rows of one chunk have a length that is not `isExact`. O(B).
    func inexactCount(ofChunk chunk: Int) -> Int32 {
        store.lengths.withReader { lengths in
            var result: Int32 = 0
            for h in chunks[chunk] where !Self.isExact(lengths[Int(h)]) { result += 1 }
            return result
        }
    }

    /// The aggregate of one chunk, summed in row order (the same additions in the same order
    /// as `advance`, so the same bits). O(B). It runs on every single-row edit, and its
    /// rows' columns are rarely in the cache: so the effective lengths are gathered first,
    /// loads that do not wait on each other (the misses overlap), then added up in order.
    func aggregate(ofChunk chunk: Int) -> Prefix {
        chunks[chunk].withUnsafeBufferPointer { handles in
            store.lengths.withReader { lengths in
                store.hidden.withReader { hidden in
                    withUnsafeTemporaryAllocation(of: Double.self, capacity: handles.count) { effective in
                        var shown = 0
                        for (i, h) in handles.enumerated() {
                            assert(Int(h) < lengths.count && Int(h) < hidden.count, "a chunk holds a handle the store lacks")
                            let isHidden = hidden[Int(h)]
                            effective[i] = isHidden ? 0 : lengths[Int(h)]
                            shown += isHidden ? 0 : 1
                        }
                        var length = 0.0
                        for i in 0..<handles.count { length += effective[i] }
                        return Prefix(length: length, shown: shown, count: handles.count)
                    }
                }
            }
        }
    }
}
