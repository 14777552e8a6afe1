import Dispatch
import Synchronization

/// The durable record of every stack and pile, over a `JournalBackend`: when snapshots are
/// due, and the one thread that writes them off the writers' path.
///
/// Keys are opaque here (a stack's id, or a pile's with its prefix); so are records and
/// snapshots (the service encodes them).
public final class StackJournal: Sendable {
    public let backend: any JournalBackend
    /// The fewest revisions between two snapshots of a stack. A snapshot costs O(rows), so a
    /// stack of n rows is snapshotted every max(`snapshotInterval`, n / 8) revisions: the
    /// cost per mutation stays O(1) amortized, and a restart replays at most that many.
    public let snapshotInterval: Int
    /// The most time the operations since a stack's latest snapshot may have taken to apply
    /// (nanoseconds) before another is due, whatever their count: replaying them is what a
    /// read of a past revision, a plan computed from its recipe, and a restart pay. Counting
    /// revisions alone let 240 viewport changes of 2,000 measured text rows (each re-measures
    /// every row) make one `?revision=` read take 11.7 s.
    public let snapshotReplayBudget: UInt64
    /// Each key's latest snapshot revision (written or scheduled), its incarnation, the time
    /// the operations applied since that snapshot took (`snapshotReplayBudget`), and the keys
    /// whose claimed snapshot is not yet written (or dropped): at most one per key at a time.
    private let known = Mutex<(snapshots: [String: Int], incarnations: [String: Int64], costs: [String: UInt64], pending: Set<String>)>(([:], [:], [:], []))
    /// The one thread that encodes and writes the snapshots due after mutations, in order.
    public let snapshotQueue = DispatchQueue(label: "scrollstack.journal.snapshots")
    /// Snapshots scheduled on `snapshotQueue` and not yet written (or failed).
    let snapshotsPending = Atomic<Int>(0)
    /// Told of the damage calls through here meet (`observeDamage`); kept in a struct, as
    /// `CommitTimer` keeps its observer.
    private let damage = Mutex<DamageObserver?>(nil)
    private struct DamageObserver {
        let report: @Sendable (_ key: String, _ detail: String) -> Void
    }

    /// The default `snapshotReplayBudget`: 50 ms.
    public static let defaultSnapshotReplayBudget: UInt64 = 50_000_000

    public init(backend: any JournalBackend, snapshotInterval: Int = 100,
                snapshotReplayBudget: UInt64 = StackJournal.defaultSnapshotReplayBudget) {
        self.backend = backend
        self.snapshotInterval = max(1, snapshotInterval)
        self.snapshotReplayBudget = snapshotReplayBudget
    }

    /// A journal in the SQLite file at `path` (":memory:" keeps it in memory only).
    public convenience init(path: String, snapshotInterval: Int = 100,
                            snapshotReplayBudget: UInt64 = StackJournal.defaultSnapshotReplayBudget) throws(JournalError) {
        self.init(backend: try SQLiteJournal(path: path),
                  snapshotInterval: snapshotInterval, snapshotReplayBudget: snapshotReplayBudget)
    }

    /// Calls `observer` with the key and the detail of every `JournalError.damaged` that a
    /// call through this journal meets (a mutation's write, a snapshot's, a load of one key,
    /// history, a plan), before that call throws it or its write completes with it, so the
    /// caller can stop serving the key first. `loadEach` reports its damaged keys in its
    /// answer instead. One observer at a time; a later call replaces it. It must be quick
    /// and must not touch the journal.
    public func observeDamage(_ observer: @escaping @Sendable (_ key: String, _ detail: String) -> Void) {
        damage.withLock { $0 = DamageObserver(report: observer) }
    }

    /// Tells the damage observer of `error` when it is `.damaged`; returns it.
    @discardableResult
    func noted(_ error: JournalError) -> JournalError {
        if case .damaged(let key, let detail) = error, let observer = damage.withLock({ $0 }) { observer.report(key, detail) }
        return error
    }

    /// Runs `body`, telling the damage observer of its `.damaged` error before throwing it.
    func noting<T>(_ body: () throws(JournalError) -> T) throws(JournalError) -> T {
        do throws(JournalError) { return try body() } catch { throw noted(error) }
    }

    /// Records a new stack at revision 1 (discarding whatever the key held).
    public func recordCreation(id: String, model: [UInt8]) throws(JournalError) {
        let incarnation = try backend.create(key: id, snapshot: model)
        known.withLock { $0.snapshots[id] = 1; $0.incarnations[id] = incarnation; $0.costs[id] = nil; $0.pending.remove(id) }
    }

    /// `recordCreation` of several stacks at once: all of them durable, or none
    /// (`JournalBackend.createAll`).
    public func recordCreations(_ stacks: [(id: String, model: [UInt8])]) throws(JournalError) {
        let incarnations = try backend.createAll(stacks.map { (key: $0.id, snapshot: $0.model) })
        known.withLock {
            for (stack, incarnation) in zip(stacks, incarnations) {
                $0.snapshots[stack.id] = 1; $0.incarnations[stack.id] = incarnation; $0.costs[stack.id] = nil; $0.pending.remove(stack.id)
            }
        }
    }

    /// Whether the mutation making `revision` of a stack of `rowCount` rows should also
    /// write a snapshot.
    public func snapshotDue(id: String, revision: Int, rowCount: Int) -> Bool {
        let last = known.withLock { $0.snapshots[id] } ?? 0
        return revision - last >= max(snapshotInterval, rowCount / 8)
    }

    /// Records an acknowledged mutation (revision `record.revision`, only if it follows the
    /// latest), with a snapshot of the result when given (a revert), durably: it returns once
    /// the backend's transaction holding it is committed. Older snapshots stay: they serve
    /// reads of past revisions.
    /// `incarnation`, on a shared backend, is the one the writer's state was loaded as
    /// (`SharedJournalBackend.appendLater(…incarnation:)`).
    public func recordMutation(id: String, record: JournalRecord, snapshot: [UInt8]?, incarnation: Int64? = nil) throws(JournalError) {
        if let incarnation, let shared = backend as? any SharedJournalBackend {
            if let error = shared.appendLater(key: id, record: record, snapshot: snapshot, after: nil, incarnation: incarnation).wait() { throw noted(error) }
        } else {
            try noting { () throws(JournalError) in try backend.append(key: id, record: record, snapshot: snapshot) }
        }
        if snapshot != nil { known.withLock { $0.snapshots[id] = record.revision; $0.costs[id] = nil } }
    }

    /// `recordMutation`, queued (`JournalBackend.appendLater`): returns at once; the write is
    /// durable once the returned `PendingWrite` completes without an error. `after` is the
    /// write of the revision before, when still in flight (see `JournalBackend.appendLater`);
    /// `incarnation` as for `recordMutation`.
    public func recordMutationLater(id: String, record: JournalRecord, snapshot: [UInt8]?, after: PendingWrite? = nil,
                                    incarnation: Int64? = nil) -> PendingWrite {
        let pending = if let incarnation, let shared = backend as? any SharedJournalBackend {
            shared.appendLater(key: id, record: record, snapshot: snapshot, after: after, incarnation: incarnation)
        } else {
            backend.appendLater(key: id, record: record, snapshot: snapshot, after: after)
        }
        // First of its callbacks: the damage is known before anyone hears of the failure.
        pending.whenDone { [self] error in if let error { noted(error) } }
        if snapshot != nil {
            // Counted from this revision now (the costs of the writes after it are theirs).
            known.withLock { $0.costs[id] = nil }
            pending.whenDone { [self] error in if error == nil { known.withLock { $0.snapshots[id] = record.revision } } }
        }
        return pending
    }

    /// `snapshotDue`, or the operations since the latest snapshot, this one's `replayCost`
    /// (nanoseconds to apply) included, took `snapshotReplayBudget` or more; when due, counts
    /// the next snapshot from `revision` at once, so of several writes of one stack in flight
    /// only one claims it. The caller then schedules it (`recordSnapshotLater`) once
    /// `revision` is durable, or gives the claim back (`dropSnapshotClaim`) if it fails (the
    /// next one is then due `max(snapshotInterval, rows / 8)` revisions, or the budget,
    /// later). Nothing is claimed while the key's last claim is not yet written: snapshots of
    /// a stack whose operations take longer than its snapshots never queue up, each holding
    /// a copy of the stack; the costs meanwhile count towards the next one. O(1).
    public func claimSnapshot(id: String, revision: Int, rowCount: Int, replayCost: UInt64 = 0) -> Bool {
        known.withLock { known in
            let cost = (known.costs[id] ?? 0) &+ replayCost
            guard !known.pending.contains(id),
                  revision - (known.snapshots[id] ?? 0) >= max(snapshotInterval, rowCount / 8) || cost >= snapshotReplayBudget else {
                known.costs[id] = cost
                return false
            }
            known.snapshots[id] = revision
            known.costs[id] = nil
            known.pending.insert(id)
            return true
        }
    }

    /// Gives back a claim `claimSnapshot` made for a write that then failed.
    public func dropSnapshotClaim(id: String) {
        _ = known.withLock { $0.pending.remove(id) }
    }

    public func recordDeletion(id: String) throws(JournalError) {
        try backend.delete(key: id)
        known.withLock { $0.snapshots[id] = nil; $0.incarnations[id] = nil; $0.costs[id] = nil; $0.pending.remove(id) }
    }

    /// Schedules a snapshot of `revision` of stack `id` (whose mutation is already journaled):
    /// `encode` runs later on the snapshot thread, from a copy of the state taken by the
    /// caller, so no writer waits while O(rows) bytes are encoded and written. The snapshot
    /// is written only if the stack is still the same incarnation (not deleted since); a
    /// failure is only logged by `failed`, since every mutation is journaled without it.
    /// Later mutations count from `revision`, and a claimed snapshot (`claimSnapshot`) is the
    /// key's only one until written (or failed), so one stack has at most one pending at a time.
    public func recordSnapshotLater(id: String, revision: Int, encode: @escaping @Sendable () -> [UInt8],
                                    failed: @escaping @Sendable (JournalError) -> Void) {
        let incarnation = known.withLock { known -> Int64? in
            known.snapshots[id] = revision
            if known.incarnations[id] == nil { known.pending.remove(id) }
            return known.incarnations[id]
        }
        guard let incarnation else { return }
        snapshotsPending.add(1, ordering: .relaxed)
        snapshotQueue.async { [self] in
            defer {
                _ = known.withLock { $0.pending.remove(id) }
                snapshotsPending.subtract(1, ordering: .relaxed)
            }
            do throws(JournalError) {
                try backend.writeSnapshot(key: id, revision: revision, snapshot: encode(), incarnation: incarnation)
            } catch {
                failed(noted(error))
            }
        }
    }

    /// Returns once every snapshot scheduled before the call is written (or failed).
    public func waitForSnapshots() {
        snapshotQueue.sync {}
    }

    /// Every journal (only `id`'s when given): its latest snapshot at or before `revision`
    /// (default: the latest) and the records after it, up to `revision`.
    public func load(only id: String? = nil, upTo revision: Int = Int(Int64.max)) throws(JournalError) -> [StoredJournal] {
        let journals = try noting { () throws(JournalError) in try backend.load(key: id, upTo: revision) }
        remember(journals)
        return journals
    }

    /// Every journal, each loaded on its own (`JournalBackend.loadEach`): those that load,
    /// and the damaged ones with why (not told to the damage observer: the caller has them).
    public func loadEach() throws(JournalError) -> LoadedJournals {
        let loaded = try backend.loadEach()
        remember(loaded.journals)
        return loaded
    }

    /// Keeps the incarnation and latest snapshot of each journal loaded, where none is known.
    private func remember(_ journals: [StoredJournal]) {
        known.withLock { known in
            for journal in journals where known.incarnations[journal.key] == nil {
                known.incarnations[journal.key] = journal.incarnation
                known.snapshots[journal.key] = journal.snapshotRevision
            }
        }
    }

    /// The events of the records after revision `after`, at most `limit` records, in order.
    public func events(id: String, after: Int, limit: Int) throws(JournalError) -> [(revision: Int, events: [UInt8])] {
        try noting { () throws(JournalError) in try backend.records(key: id, after: after, limit: limit).map { ($0.revision, $0.events) } }
    }

    /// The record of the mutation that made `revision` (without its plan), or nil.
    public func record(id: String, revision: Int) throws(JournalError) -> JournalRecord? {
        try noting { () throws(JournalError) in try backend.records(key: id, after: revision - 1, limit: 1).first { $0.revision == revision } }
    }

    /// The transition plan kept with the mutation that made `revision`, or nil.
    public func plan(id: String, revision: Int) throws(JournalError) -> [UInt8]? {
        try noting { () throws(JournalError) in try backend.plan(key: id, revision: revision) }
    }
}
