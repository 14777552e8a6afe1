import Logging
import MicroHTTP
import ScrollStackStore

/// The piles (push/pop view stacks after Pile): their routes, writes, journal and replicas.
/// A service of its own beside `StackService`, which routes `/v1/piles…` here; it shares the
/// stacks' journal (pile keys under `journalPrefix`), their `EventFeed` and limits, and knows
/// nothing of stacks.
final class PileService: ReplicaOwner {
    /// Piles share the stacks' journal under this prefix (stack ids cannot contain ':').
    static let journalPrefix = "pile:"

    /// The piles this process holds.
    let registry = PileRegistry()
    /// Where every acknowledged change is made durable; nil only for a scratch service.
    let journal: StackJournal?
    /// The journal's events as history pages and live streams (the stacks' too).
    let feed: EventFeed
    var hub: EventHub { feed.hub }
    let limits: ServiceLimits
    let logger: Logger

    init(journal: StackJournal?, feed: EventFeed, limits: ServiceLimits, logger: Logger) {
        self.journal = journal
        self.feed = feed
        self.limits = limits
        self.logger = logger
    }

    /// Whether other processes share the journal (`startReplication`).
    var isReplicated: Bool { registry.replication.withLock { $0 } != nil }

    /// The pile routes, handled by `StackService.piles`.
    static func addRoutes(to router: inout Router<StackService.Handler>) {
        router.add("GET", "/v1/piles") { s, c in try s.piles.listPiles(c) }
        router.add("POST", "/v1/piles") { s, c in try s.piles.createPile(c) }
        router.add("GET", "/v1/piles/{pile}") { s, c in try s.piles.getPile(c) }
        router.add("DELETE", "/v1/piles/{pile}") { s, c in try s.piles.deletePile(c) }
        router.add("POST", "/v1/piles/{pile}/push") { s, c in try s.piles.pushView(c) }
        router.add("POST", "/v1/piles/{pile}/pop") { s, c in try s.piles.popView(c) }
        router.add("POST", "/v1/piles/{pile}/set") { s, c in try s.piles.setViews(c) }
        router.add("POST", "/v1/piles/{pile}/update") { s, c in try s.piles.updateView(c) }
        router.add("GET", "/v1/piles/{pile}/events") { s, c in try s.piles.pileHistory(c) }
        router.add("GET", "/v1/piles/{pile}/transitions/{revision}") { s, c in try s.piles.pileTransition(c) }
    }
}
