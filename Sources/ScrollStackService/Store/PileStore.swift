import Synchronization

/// The piles the service keeps, in memory, by id (beside the stacks, in the same journal).
final class PileStore: Sendable {
    private let entries = Mutex<[String: PileEntry]>([:])

    func insert(_ entry: PileEntry) throws(APIError) {
        try entries.withLock { (entries) throws(APIError) in
            guard entries[entry.id] == nil else {
                throw APIError(status: 409, code: "duplicate_id", message: "a pile with the id \"\(entry.id)\" already exists", field: "id")
            }
            entries[entry.id] = entry
        }
    }

    func entry(_ id: String) throws(APIError) -> PileEntry {
        guard let entry = entries.withLock({ $0[id] }) else { throw .pileNotFound(id) }
        return entry
    }

    func remove(_ id: String) { _ = entries.withLock { $0.removeValue(forKey: id) } }

    func contains(_ id: String) -> Bool { entries.withLock { $0[id] != nil } }

    func all() -> [PileEntry] { entries.withLock { Array($0.values) }.sorted { $0.id < $1.id } }
}
