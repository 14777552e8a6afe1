import Synchronization

/// Which stacks embed which (rows with a `stack`): the graph a write checks so that an
/// embedded stack exists, no stack embeds itself through any path, and a stack that another
/// embeds is not deleted.
///
/// Invariant: the graph has no cycle. A write that adds embeddings is admitted under this
/// type's one mutex, which reserves its new edges at once, so two writes that would close a
/// cycle between them cannot both pass; after the write the host's edges are set to exactly
/// what its rows embed (`set`). An edge kept for a write that failed later can only refuse a
/// write wrongly until the host's next write, never admit a cycle. Lock order: a stack's lock,
/// then this mutex; nothing here takes a stack's lock.
final class Embeddings: Sendable {
    private struct Graph {
        /// host → the stacks its rows embed.
        var embeds: [String: Set<String>] = [:]
        /// embedded stack → its hosts.
        var hosts: [String: Set<String>] = [:]
        /// Stacks being deleted: embedding them is refused.
        var deleting: Set<String> = []
    }

    private let graph = Mutex(Graph())

    /// A new embedding a write asks for: the embedded stack's id and the JSON path that named it.
    struct Request {
        var stack: String
        var field: String
    }

    /// Admits `host` embedding each of `requests` beyond what it embeds now, and reserves those
    /// edges; `exists` tells whether a stack exists. 422 naming the field for a stack that does
    /// not exist (or is being deleted) and for one whose embedding would close a cycle (the
    /// message gives the path, `feed › cards › feed`).
    ///
    /// - Complexity: O(edges) for each new embedding (a depth-first search).
    func admit(host: String, _ requests: [Request], exists: (String) -> Bool) throws(APIError) {
        guard !requests.isEmpty else { return }
        try graph.withLock { (g: inout Graph) throws(APIError) in
            for request in requests where !(g.embeds[host]?.contains(request.stack) ?? false) {
                if request.stack == host {
                    throw APIError(.embeddingCycle, message: "a stack cannot embed itself: \(host) › \(host)", field: request.field)
                }
                guard exists(request.stack), !g.deleting.contains(request.stack) else {
                    throw .invalid(request.field, "no stack \"\(request.stack)\" to embed: create it first")
                }
                if let path = Self.path(from: request.stack, to: host, in: g.embeds) {
                    throw APIError(.embeddingCycle,
                                   message: "embedding \"\(request.stack)\" in \"\(host)\" would make a cycle: \(([host] + path).joined(separator: " › "))",
                                   field: request.field)
                }
                g.embeds[host, default: []].insert(request.stack)
                g.hosts[request.stack, default: []].insert(host)
            }
        }
    }

    /// Makes `host`'s edges exactly `embedded` (what its rows embed after a write, a restore
    /// or a deletion: empty); true when they changed. O(edges of `host`).
    @discardableResult
    func set(host: String, to embedded: some Sequence<String>) -> Bool {
        let now = Set(embedded)
        return graph.withLock { g in
            let before = g.embeds[host] ?? []
            guard before != now else { return false }
            for gone in before.subtracting(now) {
                g.hosts[gone]?.remove(host)
                if g.hosts[gone]?.isEmpty == true { g.hosts[gone] = nil }
            }
            for added in now.subtracting(before) { g.hosts[added, default: []].insert(host) }
            g.embeds[host] = now.isEmpty ? nil : now
            return true
        }
    }

    /// Every stack that embeds one, each after every stack it embeds (a depth-first
    /// post-order, in id order): the order hosts are measured in. O(stacks + edges).
    func embeddedBeforeHosts() -> [String] {
        let embeds = graph.withLock { $0.embeds }
        var order: [String] = []
        var done: Set<String> = []
        // An explicit stack: a chain of embeddings may be longer than a thread's stack allows.
        for root in embeds.keys.sorted() where !done.contains(root) {
            var pending: [(id: String, children: [String])] = [(root, (embeds[root] ?? []).sorted())]
            done.insert(root)
            while let top = pending.last {
                if let child = top.children.first {
                    pending[pending.count - 1].children.removeFirst()
                    if done.insert(child).inserted { pending.append((child, (embeds[child] ?? []).sorted())) }
                } else {
                    pending.removeLast()
                    if embeds[top.id] != nil { order.append(top.id) }
                }
            }
        }
        return order
    }

    /// The stacks that embed `id`, sorted.
    func hosts(of id: String) -> [String] { graph.withLock { ($0.hosts[id] ?? []).sorted() } }

    /// Whether `host` embeds any stack. O(1).
    func embedsAny(_ host: String) -> Bool { graph.withLock { $0.embeds[host] != nil } }

    /// Starts deleting `id`: 409 `stack_embedded` naming its hosts when any stack embeds it;
    /// otherwise embedding it is refused until `endDeletion`.
    func beginDeletion(of id: String) throws(APIError) {
        try graph.withLock { (g: inout Graph) throws(APIError) in
            if let hosts = g.hosts[id], !hosts.isEmpty {
                let names = hosts.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
                throw APIError(.stackEmbedded,
                               message: "stack \"\(id)\" is embedded by \(names): remove those rows' \"stack\" (or the rows) first",
                               field: nil)
            }
            g.deleting.insert(id)
        }
    }

    /// Ends a deletion `beginDeletion` started; when the stack is gone, so are its own edges.
    func endDeletion(of id: String, deleted: Bool) {
        graph.withLock { g in _ = g.deleting.remove(id) }
        if deleted { set(host: id, to: []) }
    }

    /// The stacks from `start` to `target` along embedding edges (both included), or nil when
    /// `target` cannot be reached. O(edges).
    private static func path(from start: String, to target: String, in embeds: [String: Set<String>]) -> [String]? {
        var parent: [String: String] = [:]
        var seen: Set<String> = [start]
        var stack = [start]
        while let node = stack.popLast() {
            if node == target {
                var path = [node]
                while let up = parent[path[0]] { path.insert(up, at: 0) }
                return path
            }
            for next in (embeds[node] ?? []).sorted() where !seen.contains(next) {
                seen.insert(next)
                parent[next] = node
                stack.append(next)
            }
        }
        return nil
    }
}
