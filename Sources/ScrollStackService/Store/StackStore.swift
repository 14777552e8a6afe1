import Synchronization
import ScrollStackCore

/// The stacks the service keeps, in memory, by id.
///
/// The map itself sits behind a mutex held only to look up, add or remove an entry; work
/// on a stack happens under that stack's own lock.
final class StackStore: Sendable {
    private let entries = Mutex<[String: StackEntry]>([:])

    /// Adds a stack. - Throws: 409 if the id is taken.
    func insert(_ entry: StackEntry) throws(APIError) {
        try entries.withLock { (entries) throws(APIError) in
            guard entries[entry.id] == nil else { throw .duplicateStack(entry.id) }
            entries[entry.id] = entry
        }
    }

    /// The stack with `id`. - Throws: 404.
    func entry(_ id: String) throws(APIError) -> StackEntry {
        guard let entry = entries.withLock({ $0[id] }) else { throw .stackNotFound(id) }
        return entry
    }

    /// Removes the stack with `id`. - Throws: 404.
    func remove(_ id: String) throws(APIError) {
        let removed = entries.withLock { $0.removeValue(forKey: id) }
        guard removed != nil else { throw .stackNotFound(id) }
    }

    func contains(_ id: String) -> Bool { entries.withLock { $0[id] != nil } }

    /// Every stack, ordered by id.
    func all() -> [StackEntry] {
        entries.withLock { Array($0.values) }.sorted { $0.id < $1.id }
    }
}
