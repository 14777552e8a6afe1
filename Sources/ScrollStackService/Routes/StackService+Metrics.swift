import MicroHTTP

extension StackService {
    /// How much the service holds, for `/metrics`.
    struct Census {
        /// Stacks served, and stacks start-up could not rebuild (503 until deleted).
        var stacks = 0, unavailable = 0
        /// Rows in all served stacks, hidden ones included.
        var rows = 0
        var piles = 0
    }

    /// Counts the stacks, their rows and the piles. Each stack's row count is read under its
    /// read lock, so a scrape waits for a write in progress on a stack (never the reverse
    /// for longer than one count).
    ///
    /// - Complexity: O(stacks log stacks + piles log piles).
    func census() -> Census {
        var census = Census(unavailable: unavailableStacks.count, piles: piles.registry.all().count)
        for entry in store.all() {
            guard let rows = try? entry.read({ stack, _ in stack.count }) else { continue }
            census.stacks += 1
            census.rows += rows
        }
        return census
    }

    /// The pattern of the routes owning `path` (as received), or nil when none does: the
    /// metrics label of a request the edge answers itself (preflights, refused tokens).
    func routePattern(method: String, path: String) -> String? {
        router.route(method: method, path: path).pattern
    }
}
