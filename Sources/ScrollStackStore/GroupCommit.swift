import Dispatch
import SQLite
import Synchronization

/// Group commit: the journal writes of every stack that arrive while a transaction is being
/// committed wait, and are then committed together in the next transaction, one fsync for
/// all of them (`synchronous = FULL` still holds: each writer returns only once the
/// transaction holding its write is durable).
///
/// No thread of its own: the first writer to find no commit in progress commits alone; when
/// it is done it hands everything that queued meanwhile to the first of those writers, who
/// commits that batch as one transaction, and so on. If a batch fails (one of its writes,
/// or the COMMIT), it is rolled back whole and every writer in it gets the error.
///
/// With `enabled` false every write is its own transaction (the behaviour before, kept to
/// compare: `--no-group-commit`).
final class GroupCommit: Sendable {
    typealias Write = (SQLiteDatabase) throws(SQLiteError) -> Void

    private final class Member: @unchecked Sendable {
        enum Outcome { case waiting, lead([Member]), done(SQLiteError?) }
        /// Dropped by the committing thread before it wakes the writer, which may then return
        /// (the closure must not outlive its call: `withoutActuallyEscaping`).
        var write: Write?
        /// Set by another thread before it signals `wake`; read after the wait.
        var outcome = Outcome.waiting
        let wake = DispatchSemaphore(value: 0)
        init(_ write: @escaping Write) { self.write = write }
    }

    private struct State: ~Copyable {
        var committing = false
        var queued: [Member] = []
    }

    let database: SQLiteDatabase
    let enabled: Bool
    private let state = Mutex(State())
    /// Transactions committed or rolled back through the group path (for tests).
    let transactions = Atomic<Int>(0)
    /// Told of every transaction run here, committed or rolled back (see `CommitObserver`).
    let observer = Mutex<CommitObserver?>(nil)

    init(database: SQLiteDatabase, enabled: Bool) {
        self.database = database
        self.enabled = enabled
    }

    /// Writers waiting for the next transaction.
    var queuedCount: Int { state.withLock { $0.queued.count } }

    /// Runs `write` in a transaction, alone or with the writes of other threads, and returns
    /// once that transaction is committed.
    ///
    /// - Throws: the batch's error: its transaction was rolled back, nothing of it stored.
    func commit(_ write: Write) throws(SQLiteError) {
        guard enabled else { return try reported(writes: 1) { () throws(SQLiteError) in try database.transaction { () throws(SQLiteError) in try write(database) } } }
        // The closure is only called while this thread waits below, so it does not escape.
        let outcome = withoutActuallyEscaping(write) { write in run(Member(write)) }
        if let outcome { throw outcome }
    }

    private func run(_ member: Member) -> SQLiteError? {
        let leads = state.withLock { state in
            if state.committing {
                state.queued.append(member)
                return false
            }
            state.committing = true
            return true
        }
        var batch = [member]
        if !leads {
            member.wake.wait()
            switch member.outcome {
            case .done(let error): return error
            case .lead(let members): batch = members
            case .waiting: preconditionFailure("woken with no outcome")
            }
        }
        let error = commitTogether(batch)
        for member in batch { member.write = nil }
        let next = state.withLock { state in
            let next = state.queued
            state.queued = []
            if next.isEmpty { state.committing = false }
            return next
        }
        if let leader = next.first {
            leader.outcome = .lead(next)
            leader.wake.signal()
        }
        for other in batch where other !== member {
            other.outcome = .done(error)
            other.wake.signal()
        }
        return error
    }

    private func commitTogether(_ batch: [Member]) -> SQLiteError? {
        transactions.add(1, ordering: .relaxed)
        do throws(SQLiteError) {
            try reported(writes: batch.count) { () throws(SQLiteError) in
                try database.transaction { () throws(SQLiteError) in
                    for member in batch { try member.write?(database) }
                }
            }
            return nil
        } catch {
            return error
        }
    }

    /// Runs `transaction` and tells the observer, if any, how many writes it held and how long
    /// it took (BEGIN to the end of COMMIT, the fsync included).
    private func reported(writes: Int, _ transaction: () throws(SQLiteError) -> Void) throws(SQLiteError) {
        guard let observer = observer.withLock({ $0 }) else { return try transaction() }
        let started = DispatchTime.now().uptimeNanoseconds
        defer { observer(writes, DispatchTime.now().uptimeNanoseconds - started) }
        try transaction()
    }
}

/// Told of each journal transaction of mutations: how many writes it held (1 without group
/// commit) and its duration in nanoseconds. Called on the committing thread, after the
/// transaction; it must be quick and must not touch the journal.
typealias CommitObserver = @Sendable (_ writes: Int, _ nanoseconds: UInt64) -> Void
