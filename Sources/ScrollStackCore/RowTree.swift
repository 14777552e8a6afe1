/// The ordered rows of a stack, kept in an implicit treap (a randomized balanced binary tree
/// ordered by position) whose nodes carry subtree counts, shown-row counts and summed
/// lengths. Nodes live in one array and point at each other by index, with parent links, so
/// a row's index can be found from its id.
///
/// Expected depth O(log n); every single-row operation below is O(log n) expected unless
/// its comment says otherwise.
struct RowTree: Sendable {
    typealias NodeID = Int32
    static let none: NodeID = -1

    struct Node: Sendable {
        var left: NodeID = RowTree.none
        var right: NodeID = RowTree.none
        var parent: NodeID = RowTree.none
        var priority: UInt32
        /// Rows in the subtree.
        var count: Int32 = 1
        /// Rows in the subtree that are not hidden.
        var shown: Int32
        /// The row's own length along the main axis, as if it were shown.
        var length: Double
        var hidden: Bool
        /// Summed effective lengths (0 for hidden rows) of the subtree.
        var sum: Double

        var effectiveLength: Double { hidden ? 0 : length }
    }

    /// Positions along the main axis that rows before a node take up.
    struct Prefix: Sendable {
        var length: Double = 0
        var shown: Int = 0
        var count: Int = 0
    }

    private(set) var nodes: [Node] = []
    private(set) var payload: [Row?] = []
    private var freeList: [NodeID] = []
    private(set) var root: NodeID = RowTree.none
    private(set) var ids: [String: NodeID] = [:]
    private var random = SplitMix64(seed: 0x5C0_11_57AC)

    // MARK: Reading

    var count: Int { root == Self.none ? 0 : Int(nodes[Int(root)].count) }
    var shownCount: Int { root == Self.none ? 0 : Int(nodes[Int(root)].shown) }
    var totalLength: Double { root == Self.none ? 0 : nodes[Int(root)].sum }

    subscript(node: NodeID) -> Node { nodes[Int(node)] }

    func row(_ node: NodeID) -> Row { payload[Int(node)]! }

    /// The node of the row with `id`. O(1) expected.
    func node(id: String) -> NodeID? { ids[id] }

    /// The node at `index` (0..<count). O(log n).
    func node(at index: Int) -> NodeID {
        precondition(index >= 0 && index < count, "index out of range")
        var n = root
        var k = Int32(index)
        while true {
            let leftCount = count(of: nodes[Int(n)].left)
            if k < leftCount {
                n = nodes[Int(n)].left
            } else if k == leftCount {
                return n
            } else {
                k -= leftCount + 1
                n = nodes[Int(n)].right
            }
        }
    }

    /// The index of `node`. O(log n).
    func index(of node: NodeID) -> Int {
        prefix(before: node).count
    }

    /// What the rows before `node` add up to. O(log n).
    func prefix(before node: NodeID) -> Prefix {
        var result = Prefix()
        var n = node
        add(nodes[Int(n)].left, to: &result)
        while nodes[Int(n)].parent != Self.none {
            let p = nodes[Int(n)].parent
            if nodes[Int(p)].right == n {
                add(nodes[Int(p)].left, to: &result)
                let parent = nodes[Int(p)]
                result.count += 1
                result.length += parent.effectiveLength
                result.shown += parent.hidden ? 0 : 1
            }
            n = p
        }
        return result
    }

    /// Indexes of many nodes at once. Shared ancestors are walked once, so for k nodes that
    /// are close together (a window of rows) this is O(log n + k) rather than O(k log n).
    func indexes(of targets: [NodeID]) -> [Int] {
        // start[n] = number of rows before n's subtree.
        var start: [NodeID: Int] = [:]
        if root != Self.none { start[root] = 0 }
        return targets.map { target in
            var path: [NodeID] = []
            var n = target
            while start[n] == nil {
                path.append(n)
                n = nodes[Int(n)].parent
            }
            var base = start[n]!
            var child = n
            for p in path.reversed() {
                let parent = child
                if nodes[Int(parent)].right == p {
                    base += Int(count(of: nodes[Int(parent)].left)) + 1
                }
                start[p] = base
                child = p
            }
            return start[target]! + Int(count(of: nodes[Int(target)].left))
        }
    }

    /// The node after `node` in order, or `none`. Amortized O(1) over a walk, O(log n) worst.
    func successor(_ node: NodeID) -> NodeID {
        var n = nodes[Int(node)].right
        if n != Self.none {
            while nodes[Int(n)].left != Self.none { n = nodes[Int(n)].left }
            return n
        }
        n = node
        var p = nodes[Int(n)].parent
        while p != Self.none && nodes[Int(p)].right == n {
            n = p
            p = nodes[Int(p)].parent
        }
        return p
    }

    /// The last row that is not hidden. O(log n).
    func lastShown() -> NodeID? {
        var n = root
        guard n != Self.none, nodes[Int(n)].shown > 0 else { return nil }
        while true {
            let node = nodes[Int(n)]
            if node.right != Self.none && nodes[Int(node.right)].shown > 0 {
                n = node.right
            } else if !node.hidden {
                return n
            } else {
                n = node.left
            }
        }
    }

    /// The first node (in order) for which `isAtOrAfter(prefix, node)` holds, given that the
    /// predicate is monotone along the order (false…false true…true). O(log n).
    func first(where isAtOrAfter: (Prefix, Node) -> Bool) -> (node: NodeID, prefix: Prefix)? {
        var n = root
        var outside = Prefix()
        var found: (NodeID, Prefix)?
        while n != Self.none {
            let node = nodes[Int(n)]
            var here = outside
            add(node.left, to: &here)
            if isAtOrAfter(here, node) {
                found = (n, here)
                n = node.left
            } else {
                outside = here
                outside.count += 1
                outside.length += node.effectiveLength
                outside.shown += node.hidden ? 0 : 1
                n = node.right
            }
        }
        return found
    }

    /// Every node in order. O(n).
    func forEachInOrder(_ body: (NodeID) -> Void) {
        var stack: [NodeID] = []
        stack.reserveCapacity(64)
        var n = root
        while n != Self.none || !stack.isEmpty {
            while n != Self.none {
                stack.append(n)
                n = nodes[Int(n)].left
            }
            n = stack.removeLast()
            body(n)
            n = nodes[Int(n)].right
        }
    }

    // MARK: Writing

    /// Inserts `rows` (with their lengths) so that the first lands at `index`, in order.
    /// O(k + log n) expected for k rows.
    mutating func insert(_ rows: [(row: Row, length: Double)], at index: Int) {
        precondition(index >= 0 && index <= count)
        let block = build(rows)
        let (left, right) = split(root, Int32(index))
        setRoot(merge(merge(left, block), right))
    }

    /// Removes the row at `index` and returns it. O(log n).
    @discardableResult
    mutating func remove(at index: Int) -> Row {
        let (left, rest) = split(root, Int32(index))
        let (middle, right) = split(rest, 1)
        setRoot(merge(left, right))
        let row = payload[Int(middle)]!
        release(middle)
        return row
    }

    /// Removes every row. O(n).
    mutating func removeAll() {
        nodes.removeAll(keepingCapacity: false)
        payload.removeAll(keepingCapacity: false)
        freeList.removeAll()
        ids.removeAll()
        root = Self.none
    }

    /// Replaces the row stored in `node`, keeping its place. O(log n).
    mutating func setRow(_ row: Row, length: Double, of node: NodeID) {
        let old = payload[Int(node)]!
        if old.id != row.id {
            ids[old.id] = nil
            ids[row.id] = node
        }
        payload[Int(node)] = row
        nodes[Int(node)].length = length
        nodes[Int(node)].hidden = row.hidden
        pullToRoot(from: node)
    }

    /// Sets every row's length, given in row order, and rebuilds the aggregates. O(n).
    mutating func setLengths(_ lengths: [Double]) {
        precondition(lengths.count == count)
        var i = 0
        var order: [NodeID] = []
        order.reserveCapacity(count)
        forEachInOrder { order.append($0) }
        for n in order {
            nodes[Int(n)].length = lengths[i]
            i += 1
        }
        pullSubtree(root)
    }

    // MARK: Treap mechanics

    private func count(of node: NodeID) -> Int32 { node == Self.none ? 0 : nodes[Int(node)].count }

    private func add(_ subtree: NodeID, to prefix: inout Prefix) {
        guard subtree != Self.none else { return }
        let node = nodes[Int(subtree)]
        prefix.count += Int(node.count)
        prefix.length += node.sum
        prefix.shown += Int(node.shown)
    }

    private mutating func setRoot(_ node: NodeID) {
        root = node
        if node != Self.none { nodes[Int(node)].parent = Self.none }
    }

    /// Recomputes `node`'s aggregates from its children and points them back at it.
    private mutating func pull(_ node: NodeID) {
        var n = nodes[Int(node)]
        n.count = 1
        n.shown = n.hidden ? 0 : 1
        n.sum = n.effectiveLength
        if n.left != Self.none {
            let l = nodes[Int(n.left)]
            n.count += l.count
            n.shown += l.shown
            n.sum = l.sum + n.sum
            nodes[Int(n.left)].parent = node
        }
        if n.right != Self.none {
            let r = nodes[Int(n.right)]
            n.count += r.count
            n.shown += r.shown
            n.sum += r.sum
            nodes[Int(n.right)].parent = node
        }
        nodes[Int(node)] = n
    }

    private mutating func pullToRoot(from node: NodeID) {
        var n = node
        while n != Self.none {
            pull(n)
            n = nodes[Int(n)].parent
        }
    }

    /// Post-order pull of a whole subtree. O(size).
    private mutating func pullSubtree(_ node: NodeID) {
        guard node != Self.none else { return }
        var order: [NodeID] = []
        var stack: [NodeID] = [node]
        while let n = stack.popLast() {
            order.append(n)
            if nodes[Int(n)].left != Self.none { stack.append(nodes[Int(n)].left) }
            if nodes[Int(n)].right != Self.none { stack.append(nodes[Int(n)].right) }
        }
        for n in order.reversed() { pull(n) }
    }

    /// Splits `tree` into its first `k` nodes and the rest.
    private mutating func split(_ tree: NodeID, _ k: Int32) -> (NodeID, NodeID) {
        guard tree != Self.none else { return (Self.none, Self.none) }
        let leftCount = count(of: nodes[Int(tree)].left)
        if k <= leftCount {
            let (l, r) = split(nodes[Int(tree)].left, k)
            nodes[Int(tree)].left = r
            pull(tree)
            return (l, tree)
        } else {
            let (l, r) = split(nodes[Int(tree)].right, k - leftCount - 1)
            nodes[Int(tree)].right = l
            pull(tree)
            return (tree, r)
        }
    }

    /// Joins two trees, every node of `a` before every node of `b`.
    private mutating func merge(_ a: NodeID, _ b: NodeID) -> NodeID {
        if a == Self.none { return b }
        if b == Self.none { return a }
        if nodes[Int(a)].priority > nodes[Int(b)].priority {
            nodes[Int(a)].right = merge(nodes[Int(a)].right, b)
            pull(a)
            return a
        } else {
            nodes[Int(b)].left = merge(a, nodes[Int(b)].left)
            pull(b)
            return b
        }
    }

    /// Builds a treap of fresh nodes in order, in O(k), with the right-spine stack method.
    private mutating func build(_ rows: [(row: Row, length: Double)]) -> NodeID {
        if nodes.isEmpty {
            // A whole stack at once (create, restore): no regrowth of the arrays and the id map.
            nodes.reserveCapacity(rows.count)
            payload.reserveCapacity(rows.count)
            ids.reserveCapacity(rows.count)
        }
        var spine: [NodeID] = []
        for (row, length) in rows {
            let n = allocate(row, length: length)
            var last = Self.none
            while let top = spine.last, nodes[Int(top)].priority < nodes[Int(n)].priority {
                last = spine.removeLast()
            }
            nodes[Int(n)].left = last
            if let top = spine.last { nodes[Int(top)].right = n }
            spine.append(n)
        }
        guard let top = spine.first else { return Self.none }
        pullSubtree(top)
        nodes[Int(top)].parent = Self.none
        return top
    }

    private mutating func allocate(_ row: Row, length: Double) -> NodeID {
        let node = Node(priority: random.next32(), shown: row.hidden ? 0 : 1, length: length, hidden: row.hidden,
                        sum: row.hidden ? 0 : length)
        let id: NodeID
        if let reused = freeList.popLast() {
            id = reused
            nodes[Int(id)] = node
            payload[Int(id)] = row
        } else {
            id = NodeID(nodes.count)
            nodes.append(node)
            payload.append(row)
        }
        ids[row.id] = id
        return id
    }

    private mutating func release(_ node: NodeID) {
        if let row = payload[Int(node)] { ids[row.id] = nil }
        payload[Int(node)] = nil
        nodes[Int(node)] = Node(priority: 0, shown: 0, length: 0, hidden: true, sum: 0)
        freeList.append(node)
    }

    // MARK: Invariants

    /// Checks links, heap order, aggregates and the id map; traps on the first violation. O(n).
    func checkInvariants() {
        var seen = 0
        func visit(_ n: NodeID, parent: NodeID) -> (count: Int32, shown: Int32, sum: Double) {
            guard n != Self.none else { return (0, 0, 0) }
            let node = nodes[Int(n)]
            precondition(node.parent == parent, "node \(n): parent link \(node.parent), expected \(parent)")
            if parent != Self.none {
                precondition(nodes[Int(parent)].priority >= node.priority, "node \(n): heap order broken")
            }
            let row = payload[Int(n)]
            precondition(row != nil, "node \(n): no row")
            precondition(ids[row!.id] == n, "node \(n): id map does not point back")
            precondition(row!.hidden == node.hidden, "node \(n): hidden flag out of sync")
            seen += 1
            let l = visit(node.left, parent: n)
            let r = visit(node.right, parent: n)
            precondition(node.count == l.count + r.count + 1, "node \(n): count")
            precondition(node.shown == l.shown + r.shown + (node.hidden ? 0 : 1), "node \(n): shown count")
            let sum = l.sum + node.effectiveLength + r.sum
            precondition(abs(node.sum - sum) <= 1e-6 * max(1, abs(sum)), "node \(n): length sum")
            return (node.count, node.shown, node.sum)
        }
        _ = visit(root, parent: Self.none)
        precondition(seen == ids.count, "id map has \(ids.count) entries for \(seen) rows")
        precondition(seen + freeList.count == nodes.count, "leaked nodes")
    }
}

/// A small, fast, seedable generator for treap priorities (deterministic runs).
struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func next32() -> UInt32 { UInt32(truncatingIfNeeded: next() >> 32) }
}
