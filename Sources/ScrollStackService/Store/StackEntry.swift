import ScrollStackCore

/// One stored stack and its revision, behind its own readers–writer lock: mutations of this
/// stack are serialized, reads run together, and no reader sees a half-applied operation.
/// Other stacks are never blocked by it.
final class StackEntry: @unchecked Sendable {
    let id: String
    private let lock = ReadWriteLock()
    private var stack: ScrollStack
    private var revision: Int
    /// Set once the stack is deleted: requests that looked the entry up just before get 404.
    private var deleted = false
    /// Set when a failed write could not be undone (the journal could not be read back
    /// either): the state in memory may be ahead of the journal. Replicas reload such an
    /// entry before using it (`StackService+Replicas.swift`).
    private(set) var isStale = false

    init(id: String, stack: ScrollStack, revision: Int = 1) {
        self.id = id
        self.stack = stack
        self.revision = revision
    }

    /// Runs `body` with the stack and its revision under the read lock.
    func read<T>(_ body: (ScrollStack, Int) throws(APIError) -> T) throws(APIError) -> T {
        try lock.withReadLock { () throws(APIError) -> T in
            guard !deleted else { throw .stackNotFound(id) }
            return try body(stack, revision)
        }
    }

    /// Runs `body` with the stack and its current revision under the write lock. When it
    /// returns, the revision grows by one and `answer` builds the response from the new state
    /// and revision; when it throws, the stack is as it was (model operations apply whole or
    /// not at all) and the revision stays.
    ///
    /// `persist` makes the new state durable before anyone sees it; if it throws, `restore`
    /// supplies the state before the change (from the journal) and the error is rethrown.
    func write<R, T>(
        _ body: (inout ScrollStack, Int) throws(APIError) -> R,
        persist: (R, ScrollStack, Int) throws(APIError) -> Void = { _, _, _ in },
        restore: () throws(APIError) -> (ScrollStack, Int) = { () throws(APIError) in throw APIError.storageFailed("no journal to restore from") },
        answer: (R, ScrollStack, Int) -> T
    ) throws(APIError) -> T {
        try lock.withWriteLock { () throws(APIError) -> T in
            guard !deleted else { throw .stackNotFound(id) }
            // Mutated in place: the stored value is uniquely referenced, so nothing is copied.
            let result = try body(&stack, revision)
            revision += 1
            do throws(APIError) {
                try persist(result, stack, revision)
            } catch {
                do throws(APIError) {
                    (stack, revision) = try restore()
                } catch {
                    isStale = true
                    throw error
                }
                throw error
            }
            return answer(result, stack, revision)
        }
    }

    /// Brings the cached stack forward under the write lock: `body` gets the stack and its
    /// revision and may replace both (a replica applying revisions another one journaled).
    func advance(_ body: (inout ScrollStack, inout Int) throws(APIError) -> Void) throws(APIError) {
        try lock.withWriteLock { () throws(APIError) in
            guard !deleted else { throw .stackNotFound(id) }
            try body(&stack, &revision)
        }
    }

    /// Marks the entry deleted (another replica deleted the stack): holders get 404.
    func markDeleted() {
        lock.withWriteLock { deleted = true }
    }

    /// Deletes the stack under the write lock: `check` sees the current revision first (and
    /// may throw to refuse), then `remove` takes it out of the store.
    func delete(check: (Int) throws(APIError) -> Void, remove: () throws(APIError) -> Void) throws(APIError) {
        try lock.withWriteLock { () throws(APIError) in
            guard !deleted else { throw .stackNotFound(id) }
            try check(revision)
            try remove()
            deleted = true
        }
    }
}
