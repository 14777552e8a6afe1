import ScrollStackStore
import ScrollStackPiles
import ScrollStackTransitions

extension PileEntry: ReplicatedEntry {
    typealias Owner = PileService

    /// Piles are not pipelined: whether the pile is behind `target`, under its read lock.
    func needsCatchingUp(to target: Int) throws(APIError) -> Bool {
        try read { _, revision throws(APIError) in revision < target }
    }

    static func journalKey(_ id: String) -> String { PileService.journalPrefix + id }

    static func notFound(_ id: String) -> APIError { .pileNotFound(id) }

    static func cached(_ id: String, in service: PileService) -> PileEntry? { try? service.registry.cachedEntry(id) }

    static func replace(_ entry: PileEntry, in service: PileService) { service.registry.replace(entry) }

    static func evict(_ entry: PileEntry, in service: PileService) { service.registry.evict(entry) }

    static func rebuild(_ stored: StoredJournal, in service: PileService) throws(APIError) -> PileEntry {
        let replayed = try PileService.rebuild(stored)
        return PileEntry(id: String(stored.key.dropFirst(PileService.journalPrefix.count)), pile: replayed.pile, revision: replayed.revision)
    }

    static func apply(_ records: [JournalRecord], to model: inout Pile, revision: inout Int, id: String,
                      in service: PileService) throws(APIError) {
        try service.apply(records, to: &model, revision: &revision, id: id)
    }
}
