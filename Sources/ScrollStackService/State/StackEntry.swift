import ScrollStackCore
import ScrollStackStore
import Synchronization

/// One stored stack and its revision, behind its own readers–writer lock: mutations of this
/// stack are serialized, reads run together, and no reader sees a half-applied operation.
/// Other stacks are never blocked by it.
///
/// Pipelined writes (Semantics.md, "Pipelined writes"): a write applies in memory and
/// queues its journal record under the lock, then waits for durability after releasing it,
/// so the writes of one stack share group commits. The state in memory may then run ahead
/// of the journal by the writes in flight; whatever anyone is answered from it (a write's
/// result, a read, an error) is answered only once the newest write it saw is durable. When
/// one fails, the entry is poisoned: the next one to take the lock reloads the journal's
/// state, and whoever saw the lost state reads (or writes) again on the reloaded one.
final class StackEntry: @unchecked Sendable {
    let id: String
    /// A number no other entry of this process has (`AnswerCache` tells a re-created stack's
    /// entry from the deleted one's by it, even at the same address).
    let serial = StackEntry.serials.add(1, ordering: .relaxed).newValue
    private static let serials = Atomic<UInt64>(0)
    private let lock = ReadWriteLock()
    private var stack: ScrollStack
    private var revision: Int
    /// Set once the stack is deleted: requests that looked the entry up just before get 404.
    private var deleted = false
    /// Set when a failed write could not be undone (the journal could not be read back
    /// either): the state in memory may be ahead of the journal. Replicas reload such an
    /// entry before using it (`StackService+Replicas.swift`).
    private(set) var isStale = false
    /// The journal write of the newest revision, while pipelined and maybe not yet durable
    /// (under the lock). Since one stack's writes commit in order, its success means every
    /// revision in memory is durable; its failure, that the newest is lost.
    private var tail: PendingWrite?
    /// Reloads the journal's state after a pipelined write failed (given by each write).
    private var recovery: (() throws(APIError) -> (ScrollStack, Int))?
    /// `epoch` counts reloads; a failed write of the current epoch sets `poisoned` (from the
    /// committing thread), so later failures of writes already undone change nothing.
    /// `durable` is the newest revision known to be in the journal as this entry made or
    /// applied it (and published to live streams): where a replica goes back to after a loss.
    private let health = Mutex<(epoch: Int, poisoned: Bool, durable: Int)>((0, false, 0))
    /// `health.poisoned`, stored with it under its lock and read without it: a read checks it
    /// on every request, and two threads reading one stack would otherwise contend for the
    /// mutex.
    private let poisoned = Atomic<Bool>(false)
    /// How many times one request reads again after the state it read was lost.
    private static let attempts = 16

    init(id: String, stack: ScrollStack, revision: Int = 1) {
        self.id = id
        self.stack = stack
        self.revision = revision
        health.withLock { $0.durable = revision }
    }

    /// The newest revision known durable as this entry has it (see `health`).
    var durableRevision: Int { health.withLock { $0.durable } }

    /// Whether the entry is behind `target` (the journal's latest revision) or must be brought
    /// back to the journal first (a write failed), decided under the read lock without
    /// waiting for writes in flight: their revisions count as held.
    func needsCatchingUp(to target: Int) throws(APIError) -> Bool {
        try lock.withReadLock { () throws(APIError) -> Bool in
            guard !deleted else { throw .stackNotFound(id) }
            return revision < target || health.withLock { $0.poisoned }
        }
    }

    /// Runs `body` with the stack and its revision under the read lock, and answers what it
    /// gives once the revision it saw is durable; if that revision is lost, the stack is
    /// reloaded and `body` runs again. An error `body` threw while writes were in flight is
    /// judged again by `readDurable`.
    func read<T>(_ body: (ScrollStack, Int) throws(APIError) -> T) throws(APIError) -> T {
        for _ in 0..<Self.attempts {
            // Separate variables, not a `Result` in a tuple: copying that generic tuple out of
            // the lock cost about 1,800 instructions per cached read.
            var value: T?
            var failure: APIError?
            var pending: PendingWrite?
            let ran = try lock.withReadLock { () throws(APIError) -> Bool in
                guard !deleted else { throw .stackNotFound(id) }
                if poisoned.load(ordering: .acquiring) { return false }
                pending = tail
                do throws(APIError) { value = try body(stack, revision) } catch { failure = error }
                return true
            }
            if ran, pending?.wait() == nil {
                if let failure {
                    // An error may come of reading the journal for a revision not yet in it
                    // (`?revision=`): judged again with every revision durable.
                    if pending != nil { return try readDurable(body) }
                    throw failure
                }
                return value!
            }
            try reloadIfPoisoned()
        }
        throw .storageFailed("the journal kept failing while \(id) was read")
    }

    /// `read`, with every write `body` could see already durable (and published to live
    /// streams) before `body` runs, under the read lock: what the journal holds is then
    /// exactly the revisions in memory (opening a live stream).
    func readDurable<T>(_ body: (ScrollStack, Int) throws(APIError) -> T) throws(APIError) -> T {
        for _ in 0..<Self.attempts {
            let seen = try lock.withReadLock { () throws(APIError) -> T? in
                guard !deleted else { throw .stackNotFound(id) }
                guard !poisoned.load(ordering: .acquiring), tail?.wait() == nil else { return nil }
                return try body(stack, revision)
            }
            if let seen { return seen }
            try reloadIfPoisoned()
        }
        throw .storageFailed("the journal kept failing while \(id) was read")
    }

    /// One write's revision and commit, under the stack's write lock (`write`). Valid only
    /// inside `write`'s body.
    struct Write {
        /// The revision: the current one before `commit`, the new one after it.
        private(set) var revision: Int
        /// The journal write of the revision before, while it may still be in flight: what
        /// the new record is built on.
        let inFlight: PendingWrite?
        fileprivate var committed = false
        fileprivate var pending: PendingWrite?
        /// Set when the record failed at once (`commit` threw it).
        fileprivate var failure: APIError?

        /// Makes the change the next revision: `record` journals the stack as the body left
        /// it at that revision. A write it returns still pending becomes the entry's write in
        /// flight (pipelined: `write`'s caller answers once it is durable); one already
        /// complete (or none) is durable now, and if it failed, the error is thrown (and
        /// `write` puts the journal's state back).
        mutating func commit(_ record: (_ revision: Int) -> PendingWrite?) throws(APIError) {
            precondition(!committed, "a write commits once")
            var made = record(revision + 1)
            // Already done (a backend without queuing): settled here, under the lock.
            if let outcome = made?.outcome {
                if let error = outcome {
                    failure = APIError(error)
                    throw failure!
                }
                made = nil
            }
            revision += 1
            pending = made
            committed = true
        }
    }

    /// Runs `body` under the write lock with the stack (changed in place: uniquely
    /// referenced, nothing is copied) and its revision (`Write`). `body` checks the request
    /// against the state, changes the stack, `commit`s, and returns the answer made from the
    /// new state; it throws only before committing, with the stack as it was (model
    /// operations apply whole or not at all), or from `commit`. Returns that answer (or
    /// `body`'s error) with the write it must wait for (nil: none); the caller waits for it
    /// (`PendingWrite.wait`), or takes its outcome from `whenDone`, and then answers what
    /// `settle` gives (off the committing thread: `settle` may take the lock).
    ///
    /// An error of `body` is answered once the state it was judged on is durable, and as a
    /// conflict if that state was lost. A record that failed at once is thrown from here,
    /// the journal's state (`recover`) back in place. A pending record that fails later
    /// poisons the entry: the next write or read reloads the journal's state with `recover`,
    /// and `settle` throws the write's error (409 `revision_conflict` for a write lost behind
    /// an earlier failure: `mutate` applies it again).
    func write<T>(recover: @escaping () throws(APIError) -> (ScrollStack, Int),
                  _ body: (inout ScrollStack, inout Write) throws(APIError) -> T) throws(APIError)
        -> (outcome: Result<T, APIError>, pending: PendingWrite?) {
        try lock.withWriteLock { () throws(APIError) -> (Result<T, APIError>, PendingWrite?) in
            guard !deleted else { throw .stackNotFound(id) }
            try recoverLocked()
            var write = Write(revision: revision, inFlight: tail)
            let answer: T
            do throws(APIError) {
                answer = try body(&stack, &write)
            } catch {
                if write.failure != nil {
                    do throws(APIError) {
                        (stack, revision) = try recover()
                    } catch {
                        isStale = true
                        throw error
                    }
                    throw error
                }
                precondition(!write.committed, "a write's body throws only before it commits")
                return (.failure(error), tail)
            }
            precondition(write.committed, "a write's body commits before it answers")
            revision = write.revision
            tail = write.pending
            guard let pending = write.pending else {
                health.withLock { $0.durable = revision }
                return (.success(answer), nil)
            }
            recovery = recover
            let (epoch, made) = (health.withLock { $0.epoch }, revision)
            // Held strongly until the write completes (its callbacks are then let go), not
            // weakly: a weak reference gives the entry a side table for good, and every
            // retain of it on the read path then takes the runtime's slow path.
            pending.whenDone { error in
                self.health.withLock {
                    guard $0.epoch == epoch else { return }
                    if error != nil {
                        $0.poisoned = true
                        self.poisoned.store(true, ordering: .releasing)
                    } else {
                        $0.durable = max($0.durable, made)
                    }
                }
            }
            return (.success(answer), pending)
        }
    }

    /// What a write answers once the write `write` returned completed with `error`
    /// (nil: durable, or there was none): the outcome; else, the journal's state reloaded,
    /// the write's error (a conflict when `body` had failed: `mutate` tries again).
    func settle<T>(_ outcome: Result<T, APIError>, _ error: JournalError?) throws(APIError) -> T {
        guard let error else { return try outcome.get() }
        try reloadIfPoisoned()
        if case .failure = outcome { throw APIError(JournalError.conflict(key: id, latest: nil)) }
        throw APIError(error)
    }

    /// Reloads the journal's state if a write failed (under the write lock).
    private func reloadIfPoisoned() throws(APIError) {
        try lock.withWriteLock { () throws(APIError) in try recoverLocked() }
    }

    /// With the write lock held: if a write of this epoch failed, puts the journal's state in
    /// place of the one in memory and starts a new epoch. - Throws: the reload's error (the
    /// entry stays poisoned and is marked stale).
    private func recoverLocked() throws(APIError) {
        guard health.withLock({ $0.poisoned }) else { return }
        do throws(APIError) {
            guard let recovery else { throw APIError.storageFailed("no journal to restore from") }
            (stack, revision) = try recovery()
        } catch {
            isStale = true
            throw error
        }
        tail = nil
        isStale = false
        health.withLock {
            $0 = (epoch: $0.epoch + 1, poisoned: false, durable: revision)
            poisoned.store(false, ordering: .releasing)
        }
    }

    /// Brings the cached stack forward under the write lock: `body` gets the stack and its
    /// revision and may replace both (a replica applying revisions another one journaled).
    /// Writes in flight are waited for first, and a failed one's state replaced by the
    /// journal's, so `body` applies others' revisions only on durable ones.
    func advance(_ body: (inout ScrollStack, inout Int) throws(APIError) -> Void) throws(APIError) {
        try lock.withWriteLock { () throws(APIError) in
            guard !deleted else { throw .stackNotFound(id) }
            _ = tail?.wait()
            try recoverLocked()
            defer { health.withLock { $0.durable = revision } }
            try body(&stack, &revision)
        }
    }

    /// Marks the entry deleted (another replica deleted the stack): holders get 404.
    func markDeleted() {
        lock.withWriteLock { deleted = true }
    }

    /// Deletes the stack under the write lock, once its writes in flight are durable (or
    /// undone): `check` sees the current revision first (and may throw to refuse), then
    /// `remove` takes it out of the store.
    func delete(check: (Int) throws(APIError) -> Void, remove: () throws(APIError) -> Void) throws(APIError) {
        try lock.withWriteLock { () throws(APIError) in
            guard !deleted else { throw .stackNotFound(id) }
            _ = tail?.wait()
            try recoverLocked()
            try check(revision)
            try remove()
            deleted = true
        }
    }
}
