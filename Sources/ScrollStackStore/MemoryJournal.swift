import Synchronization

/// The backend of `--in-memory`: every journal in this process's memory, gone when it exits.
/// It keeps what `SQLiteJournal` keeps (every snapshot, record and plan, so history, live
/// events, plans and `?revision=` reads work the same) and answers every call the same way,
/// but an append is an array append under a lock: no SQL, no transaction, no hand-off to a
/// committing thread, and `appendLater` returns a write already complete.
///
/// Keys are ordered by their UTF-8 bytes in `load`, as SQLite's `ORDER BY` orders `TEXT`.
/// They are told apart as `String`s (canonical equivalence) where SQLite compares bytes: the
/// same for the keys the service makes (stack ids are ASCII; piles' add an ASCII prefix).
///
/// - Complexity: `append`, `delete`, `plan` O(1) amortized (besides copying the record's
///   references); `records` O(limit); `load` of one key O(records after its snapshot), of
///   all O(K log K) more for K keys; `writeSnapshot` O(log S) for S snapshots of the key.
public final class MemoryJournal: JournalBackend, CommitReporting {
    /// One key's journal: revision 1's snapshot, then a record per revision, contiguous.
    private struct Journal {
        var incarnation: Int64
        /// By increasing revision.
        var snapshots: [JournalSnapshot]
        /// Revisions 2, 3, … in order (`records[i].revision == i + 2`), plans left out.
        var records: [JournalRecord] = []
        var plans: [Int: [UInt8]] = [:]

        /// The latest revision: its last record's, else revision 1's snapshot.
        var latest: Int { records.last?.revision ?? 1 }
    }

    private let journals = Mutex<(next: Int64, byKey: [String: Journal])>((1, [:]))
    private let timer = CommitTimer()
    /// The named blobs (`putBlob`).
    private let blobs = Mutex<[String: [UInt8]]>([:])

    public init() {}

    public func create(key: String, snapshot: [UInt8]) throws(JournalError) -> Int64 {
        journals.withLock { state in
            let incarnation = state.next
            state.next += 1
            state.byKey[key] = Journal(incarnation: incarnation, snapshots: [JournalSnapshot(revision: 1, model: snapshot)])
            return incarnation
        }
    }

    /// Every journal started under the lock at once.
    public func createAll(_ journals: [(key: String, snapshot: [UInt8])]) throws(JournalError) -> [Int64] {
        self.journals.withLock { state in
            journals.map { journal in
                let incarnation = state.next
                state.next += 1
                state.byKey[journal.key] = Journal(incarnation: incarnation, snapshots: [JournalSnapshot(revision: 1, model: journal.snapshot)])
                return incarnation
            }
        }
    }

    /// Appended under the lock if `record.revision - 1` is the key's latest revision; each
    /// append is reported to the commit observer as a transaction of one write.
    public func append(key: String, record: JournalRecord, snapshot: [UInt8]?) throws(JournalError) {
        let failure = timer.timed(writes: 1) {
            journals.withLock { state -> JournalError? in
                guard let latest = state.byKey[key]?.latest else { return .conflict(key: key, latest: nil) }
                guard latest == record.revision - 1 else { return .conflict(key: key, latest: latest) }
                var stored = record
                stored.plan = nil
                state.byKey[key]!.records.append(stored)
                if let plan = record.plan { state.byKey[key]!.plans[record.revision] = plan }
                if let snapshot { state.byKey[key]!.snapshots.append(JournalSnapshot(revision: record.revision, model: snapshot)) }
                return nil
            }
        }
        if let failure { throw failure }
    }

    public func delete(key: String) throws(JournalError) {
        _ = journals.withLock { $0.byKey.removeValue(forKey: key) }
    }

    public func putBlob(name: String, bytes: [UInt8]) throws(JournalError) -> Bool {
        blobs.withLock { blobs in
            guard blobs[name] == nil else { return false }
            blobs[name] = bytes
            return true
        }
    }

    public func blobNames() throws(JournalError) -> [(name: String, bytes: Int)] {
        blobs.withLock { $0.map { ($0.key, $0.value.count) }.sorted { $0.name < $1.name } }
    }

    public func blob(name: String) throws(JournalError) -> [UInt8]? {
        blobs.withLock { $0[name] }
    }

    @discardableResult
    public func deleteBlob(name: String) throws(JournalError) -> Bool {
        blobs.withLock { $0.removeValue(forKey: name) != nil }
    }

    /// Stored (replacing one of the same revision) only while `key` is `incarnation` and
    /// `revision` is one of its revisions (1…latest: `StackJournal` never asks for another;
    /// `SQLiteJournal` would store one of a later revision, which would then count as the
    /// latest).
    @discardableResult
    public func writeSnapshot(key: String, revision: Int, snapshot: [UInt8], incarnation: Int64) throws(JournalError) -> Bool {
        journals.withLock { state in
            // Checked through scalars: a binding of the journal would hold a second reference
            // to its snapshots, and the insertion below would copy them.
            guard state.byKey[key]?.incarnation == incarnation, let latest = state.byKey[key]?.latest,
                  (1...latest).contains(revision) else { return false }
            let stored = JournalSnapshot(revision: revision, model: snapshot)
            let at = Self.firstIndex(in: state.byKey[key]!.snapshots) { $0.revision >= revision }
            if at < state.byKey[key]!.snapshots.count && state.byKey[key]!.snapshots[at].revision == revision {
                state.byKey[key]!.snapshots[at] = stored
            } else {
                state.byKey[key]!.snapshots.insert(stored, at: at)
            }
            return true
        }
    }

    public func load(key: String?, upTo revision: Int) throws(JournalError) -> [StoredJournal] {
        journals.withLock { state in
            let keys = key.map { [$0] } ?? state.byKey.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            var loaded: [StoredJournal] = []
            for key in keys {
                guard let journal = state.byKey[key] else { continue }
                let after = Self.firstIndex(in: journal.snapshots) { $0.revision > revision }
                guard after > 0 else { continue }
                let snapshot = journal.snapshots[after - 1]
                loaded.append(StoredJournal(key: key, incarnation: journal.incarnation, snapshotRevision: snapshot.revision,
                                            snapshot: snapshot.model,
                                            records: Self.records(of: journal, after: snapshot.revision, upTo: revision, limit: Int.max)))
            }
            return loaded
        }
    }

    public func records(key: String, after: Int, limit: Int) throws(JournalError) -> [JournalRecord] {
        journals.withLock { state in
            guard let journal = state.byKey[key] else { return [] }
            return Self.records(of: journal, after: after, upTo: Int.max, limit: limit)
        }
    }

    public func plan(key: String, revision: Int) throws(JournalError) -> [UInt8]? {
        journals.withLock { $0.byKey[key]?.plans[revision] }
    }

    public func observeCommits(_ observer: @escaping @Sendable (_ writes: Int, _ nanoseconds: UInt64) -> Void) {
        timer.observe(observer)
    }

    /// The records of revisions after `after` up to `upTo`, at most `limit` of them (a
    /// negative `limit` is none, as SQLite's `LIMIT -1`).
    private static func records(of journal: Journal, after: Int, upTo: Int, limit: Int) -> [JournalRecord] {
        let first = after <= 1 ? 0 : min(after - 1, journal.records.count)  // revision after + 1 is at index after - 1
        let throughUpTo = upTo <= 1 ? 0 : max(0, upTo - 1 - first)
        let count = min(journal.records.count - first, limit < 0 ? Int.max : limit, throughUpTo)
        return Array(journal.records[first..<(first + count)])
    }

    /// The first index whose snapshot satisfies `isAfter` (false…false true…true), or the
    /// count. O(log S).
    private static func firstIndex(in snapshots: [JournalSnapshot], where isAfter: (JournalSnapshot) -> Bool) -> Int {
        var low = 0, high = snapshots.count
        while low < high {
            let middle = (low + high) / 2
            if isAfter(snapshots[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
