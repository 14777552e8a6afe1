/// A segment tree over the chunks of a `RowTree`, in row order: each node holds the row
/// count, shown-row count and summed effective length of the chunks under it, always
/// recomputed as left + right (never updated by differences, so sums do not drift).
///
/// Leaves are padded to a power of two. For C chunks: setting one leaf and every query is
/// O(log C); a rebuild is O(C). The whole tree takes 48 bytes per leaf.
struct ChunkSums: Sendable {
    typealias Prefix = RowTree.Prefix

    private(set) var leafCount = 1
    private var nodes = [Prefix](repeating: Prefix(), count: 2)

    /// All chunks' rows together.
    var total: Prefix { nodes[1] }

    static func combine(_ a: Prefix, _ b: Prefix) -> Prefix {
        Prefix(length: a.length + b.length, shown: a.shown + b.shown, count: a.count + b.count)
    }

    /// Rebuilds the tree from every chunk's aggregate, in order. O(C).
    mutating func rebuild(_ leaves: [Prefix]) {
        var size = 1
        while size < leaves.count { size *= 2 }
        leafCount = size
        nodes = [Prefix](repeating: Prefix(), count: 2 * size)
        for (position, leaf) in leaves.enumerated() { nodes[size + position] = leaf }
        for node in stride(from: size - 1, to: 0, by: -1) {
            nodes[node] = Self.combine(nodes[2 * node], nodes[2 * node + 1])
        }
    }

    /// Replaces the aggregates at `range` of the first `count` positions (the chunks in use)
    /// with `leaves`, moving the ones after it along, and recomputes the nodes above what
    /// moved or changed: the sums `rebuild` gives for the new sequence of aggregates (with up to
    /// four times its leaves, the extra ones empty), but
    /// in place, with no allocation (a chunk's split or merge, which used to allocate and
    /// fault in a new tree of 2 × leaves nodes: 393 KB at a million rows). When the chunks
    /// outgrow the leaves, or shrink to under a quarter of them, the tree is rebuilt at the
    /// new size instead.
    ///
    /// - Complexity: O(count − range.lowerBound + k) for k new aggregates in place; O(C)
    ///   when rebuilt.
    mutating func replace(_ range: Range<Int>, of count: Int, with leaves: [Prefix]) {
        precondition(range.lowerBound >= 0 && range.upperBound <= count && count <= leafCount, "chunk positions out of range")
        let newCount = count - range.count + leaves.count
        if newCount > leafCount || (leafCount > 1 && newCount * 4 < leafCount) {
            var all: [Prefix] = []
            all.reserveCapacity(newCount)
            for p in 0..<range.lowerBound { all.append(leaf(p)) }
            all.append(contentsOf: leaves)
            for p in range.upperBound..<count { all.append(leaf(p)) }
            rebuild(all)
            return
        }
        let end = max(count, newCount)
        guard range.lowerBound < end else { return }
        let size = leafCount
        nodes.withUnsafeMutableBufferPointer { nodes in
            let base = nodes.baseAddress! + size
            let moved = count - range.upperBound
            if moved > 0 && leaves.count != range.count {
                UnsafeMutableRawPointer(base + range.lowerBound + leaves.count)
                    .copyMemory(from: base + range.upperBound, byteCount: moved * MemoryLayout<Prefix>.stride)
            }
            for (i, leaf) in leaves.enumerated() { base[range.lowerBound + i] = leaf }
            for p in newCount..<end { base[p] = Prefix() }
            var low = size + range.lowerBound, high = size + end - 1
            while low > 1 {
                low /= 2
                high /= 2
                for node in low...high { nodes[node] = Self.combine(nodes[2 * node], nodes[2 * node + 1]) }
            }
        }
    }

    /// One chunk's aggregate. O(1).
    func leaf(_ position: Int) -> Prefix { nodes[leafCount + position] }

    /// Sets one chunk's aggregate and recomputes its ancestors. O(log C).
    mutating func set(_ position: Int, _ value: Prefix) {
        var node = leafCount + position
        nodes[node] = value
        node /= 2
        while node >= 1 {
            nodes[node] = Self.combine(nodes[2 * node], nodes[2 * node + 1])
            node /= 2
        }
    }

    /// What the chunks before `position` add up to. O(log C).
    func before(_ position: Int) -> Prefix {
        var result = Prefix()
        var node = 1
        var low = 0
        var width = leafCount
        while node < leafCount {
            width /= 2
            if position >= low + width {
                result = Self.combine(result, nodes[2 * node])
                node = 2 * node + 1
                low += width
            } else {
                node = 2 * node
            }
        }
        return result
    }

    /// How many rows the chunks before `position` hold: `before(position).count`, from the
    /// leaf up, adding each left sibling's count and nothing else (an id lookup's index).
    /// O(log C).
    func countBefore(_ position: Int) -> Int {
        precondition(position >= 0 && position < leafCount, "chunk position out of range")
        return nodes.withUnsafeBufferPointer { nodes in
            var result = 0
            var node = leafCount + position
            while node > 1 {
                if node & 1 == 1 { result &+= nodes[node - 1].count }
                node /= 2
            }
            return result
        }
    }

    /// The chunk holding the row at `index` (0..<total.count), with what the chunks before
    /// it add up to. O(log C).
    func chunk(containing index: Int) -> (position: Int, before: Prefix) {
        var result = Prefix()
        var node = 1
        while node < leafCount {
            let left = nodes[2 * node]
            if index < result.count + left.count {
                node = 2 * node
            } else {
                result = Self.combine(result, left)
                node = 2 * node + 1
            }
        }
        return (node - leafCount, result)
    }

    /// The last chunk position p in 0..<chunks for which `startsBefore(p, before(p))` is
    /// false, given that the predicate is monotone along positions (false…false true…true)
    /// and ignoring position 0's value (0 is returned when every position holds). O(log C).
    func lastFailing(chunks: Int, _ holds: (Int, Prefix) -> Bool) -> (position: Int, before: Prefix) {
        var result = Prefix()
        var node = 1
        var low = 0
        var width = leafCount
        while node < leafCount {
            width /= 2
            let middle = low + width
            let withLeft = Self.combine(result, nodes[2 * node])
            if middle < chunks && !holds(middle, withLeft) {
                result = withLeft
                node = 2 * node + 1
                low = middle
            } else {
                node = 2 * node
            }
        }
        return (low, result)
    }

    /// The last chunk position with a shown row, if any. O(log C).
    func lastWithShownRows() -> Int? {
        guard nodes[1].shown > 0 else { return nil }
        var node = 1
        while node < leafCount {
            node = nodes[2 * node + 1].shown > 0 ? 2 * node + 1 : 2 * node
        }
        return node - leafCount
    }

    /// Traps unless every inner node is its children combined and the leaves equal `leaves`. O(C).
    func checkInvariants(leaves: [Prefix]) {
        precondition(leaves.count <= leafCount, "more chunks than leaves")
        for position in 0..<leafCount {
            let expected = position < leaves.count ? leaves[position] : Prefix()
            precondition(nodes[leafCount + position] == expected, "chunk \(position): stale aggregate")
        }
        for node in 1..<leafCount {
            precondition(nodes[node] == Self.combine(nodes[2 * node], nodes[2 * node + 1]), "segment node \(node): stale")
        }
    }
}
