import ScrollStackCore
import ScrollStackStore

extension StackService: ReplicaOwner {}

extension StackEntry: ReplicatedEntry {
    typealias Owner = StackService

    static func journalKey(_ id: String) -> String { id }

    static func notFound(_ id: String) -> APIError { .stackNotFound(id) }

    static func cached(_ id: String, in service: StackService) -> StackEntry? { try? service.store.cachedEntry(id) }

    static func replace(_ entry: StackEntry, in service: StackService) { service.store.replace(entry) }

    static func evict(_ entry: StackEntry, in service: StackService) { service.store.evict(entry) }

    static func rebuild(_ stored: StoredJournal, in service: StackService) throws(APIError) -> StackEntry {
        let replayed = try StackService.rebuild(stored, logger: service.logger, measurer: service.measurer,
                                                titleMeasurer: service.titleMeasurer, fonts: service.fonts)
        return StackEntry(id: stored.key, stack: replayed.stack, revision: replayed.revision)
    }

    static func apply(_ records: [JournalRecord], to model: inout ScrollStack, revision: inout Int, id: String,
                      in service: StackService) throws(APIError) {
        try service.apply(records, to: &model, revision: &revision, key: id)
    }
}
