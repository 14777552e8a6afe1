import Dispatch
import SQLite
import Synchronization

/// Group commit: the journal writes of every stack that are queued while a transaction is
/// being committed are committed together in the next transaction, one fsync for all of
/// them (`synchronous = FULL` still holds: a write is reported durable only once the
/// transaction holding it is committed).
///
/// Writes are queued without waiting (`enqueue`, which returns a `PendingWrite`) and
/// committed in queue order on `queue`, the commits' own thread: the first write queued
/// while no drain runs starts one, which runs until the queue is empty. So writes complete
/// whether or not anyone waits for them, and owners may answer from `whenDone` without
/// holding a thread. A write that reports a refusal of its own (`Write` returning an error,
/// as a revision conflict) is skipped alone. A write that throws rolls the batch back; if it threw because
/// the file is damaged where that write's key is kept (`SQLiteError.isDamage`), it alone
/// fails (`.damaged`) and the rest of the batch is committed again without it, so damage
/// to one key's pages never fails another key's write. Any other error, and a failed
/// COMMIT, fails every write of the batch.
final class GroupCommit: Sendable {
    /// One queued write, run inside the batch's transaction: nil when written, or the
    /// refusal that leaves it out (its transaction goes on with the others).
    typealias Write = @Sendable (SQLiteDatabase) throws(SQLiteError) -> JournalError?

    private final class Member: @unchecked Sendable {
        /// Run by the drain, then dropped before the write completes: `commit`'s closure must
        /// not outlive its call (`withoutActuallyEscaping`).
        var write: Write?
        let pending: PendingWrite
        /// The journal key the write is for (nil: none in particular).
        let key: String?
        init(write: @escaping Write, pending: PendingWrite, key: String?) {
            self.write = write
            self.pending = pending
            self.key = key
        }
    }

    private struct State: ~Copyable {
        /// Whether a drain runs on `queue`.
        var draining = false
        var queued: [Member] = []
    }

    let database: SQLiteDatabase
    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "scrollstack.journal.commits")
    /// Transactions committed or rolled back through here (for tests).
    let transactions = Atomic<Int>(0)
    /// Told of every transaction run here, committed or rolled back: how many writes it held
    /// and how long it took, BEGIN to the end of COMMIT (the fsync included).
    let timer = CommitTimer()

    init(database: SQLiteDatabase) {
        self.database = database
    }

    /// Writes queued and not yet taken into a transaction.
    var queuedCount: Int { state.withLock { $0.queued.count } }

    /// Queues `write` (of journal key `key`, when it writes one key's rows) for the next
    /// transaction and returns at once.
    func enqueue(key: String? = nil, _ write: @escaping Write) -> PendingWrite {
        let pending = PendingWrite()
        let start = state.withLock { state -> Bool in
            state.queued.append(Member(write: write, pending: pending, key: key))
            guard !state.draining else { return false }
            state.draining = true
            return true
        }
        if start { queue.async { self.drain() } }
        return pending
    }

    /// Runs `write` in a transaction, alone or with other queued writes, and returns once
    /// that transaction is committed.
    ///
    /// - Throws: the batch's error: its transaction was rolled back, nothing of it stored.
    func commit(_ write: (SQLiteDatabase) throws(SQLiteError) -> Void) throws(SQLiteError) {
        // The closure runs on the drain while this thread waits below, so it does not escape.
        let error = withoutActuallyEscaping(write) { write -> JournalError? in
            let unchecked = UncheckedWrite(write: write)
            return enqueue { database throws(SQLiteError) in try unchecked.write(database); return nil }.wait()
        }
        if let error { throw SQLiteError(code: 0, message: "\(error)") }
    }

    /// Commits queued writes, batch after batch, until the queue is empty.
    private func drain() {
        while commitNextBatch() {}
    }

    /// Commits the next batch (every write queued) and completes its writes; false (and the
    /// drain ended) when nothing was queued.
    private func commitNextBatch() -> Bool {
        let batch = state.withLock { state -> [Member] in
            let batch = state.queued
            state.queued.removeAll()
            if batch.isEmpty { state.draining = false }
            return batch
        }
        guard !batch.isEmpty else { return false }
        let outcomes = commitTogether(batch)
        for member in batch { member.write = nil }
        for (member, error) in zip(batch, outcomes) { member.pending.complete(error) }
        return true
    }

    /// Commits `batch` as one transaction; each write's outcome, in order. A write that meets
    /// damage of its key's pages is left out with `.damaged` and the others are committed
    /// again without it (see above): at most one more transaction per such write, so
    /// O(batch²) statements in the worst case, O(batch) when nothing is damaged.
    private func commitTogether(_ batch: [Member]) -> [JournalError?] {
        var outcomes = [JournalError?](repeating: nil, count: batch.count)
        var included = Array(batch.indices)
        while !included.isEmpty {
            transactions.add(1, ordering: .relaxed)
            // The write running when an error was thrown (nil once every write ran: COMMIT's).
            var running: Int?
            do throws(SQLiteError) {
                try timer.timed(writes: included.count) { () throws(SQLiteError) in
                    try database.transaction { () throws(SQLiteError) in
                        for i in included {
                            running = i
                            outcomes[i] = try batch[i].write?(database) ?? nil
                        }
                        running = nil
                    }
                }
                return outcomes
            } catch {
                guard let culprit = running, error.isDamage, let key = batch[culprit].key else {
                    for i in included { outcomes[i] = .failed("\(error)") }
                    return outcomes
                }
                outcomes[culprit] = .damaged(key: key, detail: "writing revision rows failed: \(error)")
                included.removeAll { $0 == culprit }
            }
        }
        return outcomes
    }
}

/// A write closure that `commit` hands to the drain while its caller waits for it.
private struct UncheckedWrite: @unchecked Sendable {
    let write: (SQLiteDatabase) throws(SQLiteError) -> Void
}
