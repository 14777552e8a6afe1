import Dispatch
import Postgres
import ScrollStackStore
import Synchronization

extension PostgresJournal {
    /// Appends as one statement per *run*: revisions first…last of one key, in order, each
    /// built on the one before. `journals.latest` moves from first − 1 to last only where it
    /// is still first − 1 (the row lock makes a racing replica wait, then find it moved: no
    /// row, nothing written), the records (and the snapshots some carry) are inserted from
    /// arrays through `unnest`. The run is written
    /// whole or not at all: if its first revision is taken, every later one was built on a
    /// state that lost. With an incarnation, only that incarnation of the key is written (one
    /// deleted and created again since the writer loaded it conflicts). Returns one row whose
    /// count is 1 when written, 0 on a conflict. It announces nothing: `announce` does, after
    /// the commit.
    ///
    /// Parameters: $1 key, $2 first, $3 last, $4 operations, $5 events, $6 plans, $7 snapshots
    /// (the last three `bytea[]` with NULLs), $8 the incarnation or NULL.
    static let appendRun = """
        WITH bumped AS (UPDATE journals SET latest = $3
                        WHERE key = $1 AND latest = $2 - 1 AND ($8::bigint IS NULL OR incarnation = $8) RETURNING key),
        added AS (SELECT * FROM unnest($4::bytea[], $5::bytea[], $6::bytea[], $7::bytea[]) WITH ORDINALITY AS a(operation, events, plan, model, n)),
        record AS (INSERT INTO records (key, revision, operation, events, plan)
                   SELECT b.key, $2 + a.n - 1, a.operation, a.events, a.plan FROM bumped b, added a),
        snapshot AS (INSERT INTO snapshots (key, revision, model)
                     SELECT b.key, $2 + a.n - 1, a.model FROM bumped b, added a WHERE a.model IS NOT NULL)
        SELECT (SELECT count(*) FROM bumped)
        """

    /// Announces appended runs once their transaction has ended: each key ($1) whose journal
    /// now stands at or past the revision its run ended at ($2) as a line `LATEST KEY`, the
    /// lines of up to `keysPerNotification` keys in one notification (a key takes at most
    /// 160 bytes, well within PostgreSQL's 8,000), since every notification wakes every
    /// listener. It runs as a transaction of its own, committed without waiting for its WAL
    /// flush (`synchronous_commit` off: it keeps nothing). A transaction that notifies holds
    /// PostgreSQL's notification lock from its commit until it ends, its flush included, so
    /// appends that notified themselves would commit one replica at a time; apart, the
    /// replicas' appends share flushes. A notification lost with it (the replica killed
    /// between the two) is made up by the watcher's poll (`Watcher`).
    static let announce = """
        SELECT set_config('synchronous_commit', 'off', true),
               pg_notify('\(channel)', string_agg(j.latest::text || ' ' || j.key, E'\\n' ORDER BY n.i))
        FROM unnest($1::text[], $2::bigint[]) WITH ORDINALITY AS n(key, revision, i)
        JOIN journals j ON j.key = n.key AND j.latest >= n.revision
        GROUP BY (n.i - 1) / \(keysPerNotification)
        """

    /// At most this many keys' lines per notification of `announce`.
    static let keysPerNotification = 40

    /// The statement and parameters appending `appends` (one key, contiguous revisions) to
    /// `incarnation` of the key (nil: whichever it is).
    static func appendRun(key: String, _ appends: [(record: JournalRecord, snapshot: [UInt8]?)],
                          incarnation: Int64?) -> (sql: String, parameters: [PostgresValue]) {
        (appendRun, [.text(key), .integer(Int64(appends[0].record.revision)), .integer(Int64(appends[appends.count - 1].record.revision)),
                     .byteaArray(appends.map { $0.record.operation }), .byteaArray(appends.map { $0.record.events }),
                     .byteaArray(appends.map { $0.record.plan }), .byteaArray(appends.map { $0.snapshot }),
                     incarnation.map { .integer($0) } ?? .null])
    }

    /// Group commit on PostgreSQL: appends queued while a transaction is being committed go
    /// together into the next one (Semantics.md, "Batched writes on PostgreSQL").
    ///
    /// One drain at a time (a serial dispatch queue, idle when nothing is queued) takes every
    /// queued append, in queue order, and commits them as one pipelined transaction on one
    /// pooled connection: one statement per key (`appendRun`, the key's appends as one run),
    /// keys in sorted order so that two replicas' transactions always lock `journals` rows
    /// in the same order and never deadlock; one round trip and one WAL flush for the batch.
    /// Each append completes only once its transaction is committed (`synchronous_commit`
    /// on: durable).
    ///
    /// An append built on a write still in flight (`after`) joins that write's run; one whose
    /// `after` failed, or was left out, conflicts without being sent: it was built on a
    /// revision another writer took. A run that finds its first revision taken conflicts
    /// whole and the batch's other keys commit; an error of the statement or the commit
    /// fails every append of the batch (nothing of it is kept). An append for another
    /// incarnation than its run's first conflicts without being sent.
    final class AppendQueue: Sendable {
        struct Append: Sendable {
            let key: String
            let record: JournalRecord
            let snapshot: [UInt8]?
            let after: PendingWrite?
            let incarnation: Int64?
            let pending: PendingWrite
        }

        /// At most this many appends per transaction (the rest go in the next).
        static let batchLimit = 512
        let pool: PostgresPool
        /// Told of each transaction (`CommitReporting`).
        let report: CommitTimer
        private let state = Mutex<(queued: [Append], draining: Bool)>(([], false))
        private let queue = DispatchQueue(label: "scrollstack.journal.postgres-appends")
        /// Transactions committed or rolled back here, and appends taken into them (for tests).
        let transactions = Atomic<Int>(0), taken = Atomic<Int>(0)
        /// Test hook: false leaves appends unannounced, as a replica killed between a commit
        /// and its announcement leaves them.
        let announcing = Atomic<Bool>(true)

        init(pool: PostgresPool, report: CommitTimer) {
            self.pool = pool
            self.report = report
        }

        /// Appends queued and not yet taken into a transaction.
        var queuedCount: Int { state.withLock { $0.queued.count } }

        /// Queues an append for the next transaction and returns at once.
        func enqueue(key: String, record: JournalRecord, snapshot: [UInt8]?, after: PendingWrite?, incarnation: Int64?) -> PendingWrite {
            let pending = PendingWrite()
            let append = Append(key: key, record: record, snapshot: snapshot, after: after, incarnation: incarnation, pending: pending)
            let start = state.withLock { state in
                state.queued.append(append)
                defer { state.draining = true }
                return !state.draining
            }
            if start { queue.async { self.drain() } }
            return pending
        }

        /// Commits batch after batch until nothing is queued.
        private func drain() {
            while true {
                let batch = state.withLock { state -> [Append] in
                    let batch = Array(state.queued.prefix(Self.batchLimit))
                    state.queued.removeFirst(batch.count)
                    if batch.isEmpty { state.draining = false }
                    return batch
                }
                taken.add(batch.count, ordering: .relaxed)
                guard !batch.isEmpty else { return }
                commit(batch)
            }
        }

        /// Sorts `batch` into one run per key and commits the runs in one transaction; then
        /// completes every append, in queue order.
        ///
        /// - Complexity: O(appends) plus one round trip and one commit.
        private func commit(_ batch: [Append]) {
            var runs: [String: [Append]] = [:]
            var refused = Set<ObjectIdentifier>()
            for append in batch {
                let run = runs[append.key] ?? []
                if let first = run.first, first.incarnation != append.incarnation {
                    refused.insert(ObjectIdentifier(append.pending))
                    continue
                }
                if let after = append.after, let outcome = after.outcome {
                    // Built on a write already done: a failed one leaves it nothing to stand on.
                    if outcome != nil || !run.isEmpty { refused.insert(ObjectIdentifier(append.pending)); continue }
                } else if let after = append.after {
                    // Built on a write in this batch: it extends that write's run.
                    guard run.last?.pending === after else { refused.insert(ObjectIdentifier(append.pending)); continue }
                } else if !run.isEmpty {
                    refused.insert(ObjectIdentifier(append.pending))
                    continue
                }
                runs[append.key] = run + [append]
            }
            let keys = runs.keys.sorted()
            var outcomes: [ObjectIdentifier: JournalError] = [:]
            if !keys.isEmpty {
                transactions.add(1, ordering: .relaxed)
                let announced: [PostgresValue] = [.textArray(keys), .integerArray(keys.map { Int64(runs[$0]!.last!.record.revision) })]
                let statements = keys.map { key in
                    PostgresJournal.appendRun(key: key, runs[key]!.map { ($0.record, $0.snapshot) }, incarnation: runs[key]![0].incarnation)
                }
                do throws(PostgresError) {
                    let answers = try report.timed(writes: runs.values.reduce(0) { $0 + $1.count }) { () throws(PostgresError) in
                        try pool.withConnection { connection throws(PostgresError) in
                            try connection.transactionPipeline(statements, afterCommit: announcing.load(ordering: .relaxed) ? [(PostgresJournal.announce, announced)] : [])
                        }
                    }
                    for (key, rows) in zip(keys, answers) where rows.first?.first?.integerValue != 1 {
                        for append in runs[key]! { outcomes[ObjectIdentifier(append.pending)] = .conflict(key: key, latest: nil) }
                    }
                } catch {
                    let failure = PostgresJournal.journalError(error)
                    for append in batch where !refused.contains(ObjectIdentifier(append.pending)) { outcomes[ObjectIdentifier(append.pending)] = failure }
                }
            }
            for append in batch {
                let id = ObjectIdentifier(append.pending)
                append.pending.complete(refused.contains(id) ? .conflict(key: append.key, latest: nil) : outcomes[id])
            }
        }
    }
}
