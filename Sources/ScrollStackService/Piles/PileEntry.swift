import ScrollStackPiles
import ScrollStackTransitions

/// One stored pile and its revision, behind its own readers–writer lock, as `StackEntry`
/// keeps a stack: mutations are serialized, reads run together, a failed journal write
/// restores the state before it.
final class PileEntry: @unchecked Sendable {
    let id: String
    private let lock = ReadWriteLock()
    private var pile: Pile
    private var revision: Int
    private var deleted = false
    /// Set when a failed write could not be undone (as `StackEntry.isStale`): replicas
    /// reload such an entry before using it.
    private(set) var isStale = false

    init(id: String, pile: Pile, revision: Int = 1) {
        self.id = id
        self.pile = pile
        self.revision = revision
    }

    func read<T>(_ body: (Pile, Int) throws(APIError) -> T) throws(APIError) -> T {
        try lock.withReadLock { () throws(APIError) -> T in
            guard !deleted else { throw .pileNotFound(id) }
            return try body(pile, revision)
        }
    }

    /// As `StackEntry.write` and `settle` together, durable when it returns: `body`
    /// changes the pile, `persist` journals the new revision (on failure `restore` brings back
    /// the journaled state), `answer` builds the response.
    func write<R, T>(
        _ body: (inout Pile, Int) throws(APIError) -> R,
        persist: (R, Pile, Int) throws(APIError) -> Void,
        restore: () throws(APIError) -> (Pile, Int),
        answer: (R, Pile, Int) -> T
    ) throws(APIError) -> T {
        try lock.withWriteLock { () throws(APIError) -> T in
            guard !deleted else { throw .pileNotFound(id) }
            let result = try body(&pile, revision)
            revision += 1
            do throws(APIError) {
                try persist(result, pile, revision)
            } catch {
                do throws(APIError) {
                    (pile, revision) = try restore()
                } catch {
                    isStale = true
                    throw error
                }
                throw error
            }
            return answer(result, pile, revision)
        }
    }

    /// Brings the cached pile forward under the write lock (a replica applying revisions
    /// another one journaled), as `StackEntry.advance`.
    func advance(_ body: (inout Pile, inout Int) throws(APIError) -> Void) throws(APIError) {
        try lock.withWriteLock { () throws(APIError) in
            guard !deleted else { throw .pileNotFound(id) }
            try body(&pile, &revision)
        }
    }

    /// Marks the entry deleted (another replica deleted the pile): holders get 404.
    func markDeleted() {
        lock.withWriteLock { deleted = true }
    }

    func delete(check: (Int) throws(APIError) -> Void, remove: () throws(APIError) -> Void) throws(APIError) {
        try lock.withWriteLock { () throws(APIError) in
            guard !deleted else { throw .pileNotFound(id) }
            try check(revision)
            try remove()
            deleted = true
        }
    }
}
