import Synchronization

/// How many requests that lay a stack out anew may run at once: stateless layouts (whose
/// text is measured from scratch), layouts for `devices` and drawings. Each may take a large
/// part of a second of CPU within its budgets; bounding how many run together keeps a worker
/// thread free for everything else (`/healthz`, cached reads, writes), however many of them
/// arrive. A request that finds every slot taken is refused at once: 503 `busy` with
/// `Retry-After: 1`, having done nothing.
final class LayoutGate: Sendable {
    /// The most such requests at once (at least 1).
    let limit: Int
    private let running = Atomic<Int>(0)

    init(limit: Int) { self.limit = max(1, limit) }

    /// How many run now.
    var count: Int { running.load(ordering: .relaxed) }

    /// Runs `work` in a slot, or throws 503 `busy` when every slot is taken. O(1) besides `work`.
    func withSlot<T>(_ work: () throws(APIError) -> T) throws(APIError) -> T {
        guard enter() else {
            throw APIError(status: 503, code: "busy",
                           message: "\(limit) layouts of whole stacks (stateless, for devices or drawn) are being computed; retry in a second "
                               + "(--concurrent-layouts)",
                           headers: [("Retry-After", "1")])
        }
        defer { leave() }
        return try work()
    }

    /// Takes a slot if one is free.
    func enter() -> Bool {
        var current = running.load(ordering: .relaxed)
        while current < limit {
            let (exchanged, original) = running.compareExchange(expected: current, desired: current + 1, ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// Gives a slot back.
    func leave() { running.subtract(1, ordering: .releasing) }
}
