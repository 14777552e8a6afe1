import ScrollStackStore
import ScrollStackPiles
import ScrollStackTransitions

extension PileEntry: ReplicatedEntry {
    /// Piles are not pipelined: whether the pile is behind `target`, under its read lock.
    func needsCatchingUp(to target: Int) throws(APIError) -> Bool {
        try read { _, revision throws(APIError) in revision < target }
    }

    static func journalKey(_ id: String) -> String { StackService.pileJournalPrefix + id }

    static func notFound(_ id: String) -> APIError { .pileNotFound(id) }

    static func cached(_ id: String, in service: StackService) -> PileEntry? { try? service.piles.cachedEntry(id) }

    static func replace(_ entry: PileEntry, in service: StackService) { service.piles.replace(entry) }

    static func evict(_ entry: PileEntry, in service: StackService) { service.piles.evict(entry) }

    static func rebuild(_ stored: StoredJournal, in service: StackService) throws(APIError) -> PileEntry {
        let replayed = try StackService.rebuildPile(stored, logger: service.logger, measurer: service.measurer,
                                                    titleMeasurer: service.titleMeasurer, fonts: service.fonts)
        return PileEntry(id: String(stored.key.dropFirst(StackService.pileJournalPrefix.count)), pile: replayed.pile, revision: replayed.revision)
    }

    static func apply(_ records: [JournalRecord], to model: inout Pile, revision: inout Int, id: String,
                      in service: StackService) throws(APIError) {
        try service.applyPile(records, to: &model, revision: &revision, id: id)
    }
}
