import Dispatch
import SQLite
import Synchronization

/// The durable record of every stack: snapshots, and every acknowledged mutation — the request
/// that made it (replayed on start) and the events it answered with (read back as history).
///
/// SQLite in WAL mode with `synchronous = FULL`: a mutation's transaction is on disk before
/// its answer is sent, so an acknowledged write survives a crash of the process or the
/// machine. Each mutation is one transaction, so none is ever half-applied.
public final class StackJournal: Sendable {
    /// The fewest revisions between two snapshots of a stack. A snapshot costs O(rows), so a
    /// stack of n rows is snapshotted every max(`snapshotInterval`, n / 8) revisions: the
    /// cost per mutation stays O(1) amortized, and a restart replays at most that many.
    public let snapshotInterval: Int
    let database: SQLiteDatabase
    /// The revision of each stack's latest snapshot, written or scheduled.
    private let snapshotRevisions = Mutex<[String: Int]>([:])
    /// Each journaled stack's incarnation: a number given at creation (and at load), gone at
    /// deletion, so a snapshot scheduled for a stack that was deleted (and maybe created
    /// again) since is never written (see `recordSnapshotLater`).
    private let incarnations = Mutex<(next: Int, byStack: [String: Int])>((0, [:]))
    /// The one thread that encodes and writes the snapshots due after mutations, in order.
    let snapshotQueue = DispatchQueue(label: "scrollstack.journal.snapshots")
    /// Snapshots scheduled on `snapshotQueue` and not yet written (or failed).
    let snapshotsPending = Atomic<Int>(0)

    /// A stack as the journal holds it: its latest snapshot and the mutations after it.
    struct StoredStack {
        var id: String
        var snapshotRevision: Int
        var snapshot: [UInt8]
        var mutations: [LoggedMutation]
    }

    struct LoggedMutation {
        var revision: Int
        var method: String
        /// The path as received (percent-encoded), for `Router.match`.
        var path: String
        var body: [UInt8]
    }

    /// Commits mutations, several at once when they arrive together (`GroupCommit`).
    let committer: GroupCommit

    /// Opens (creating) the journal in `path`; ":memory:" keeps it in memory only.
    /// `groupCommit` false commits every mutation in a transaction of its own.
    public init(path: String, snapshotInterval: Int = 100, groupCommit: Bool = true) throws(SQLiteError) {
        self.snapshotInterval = max(1, snapshotInterval)
        database = try SQLiteDatabase(path: path)
        committer = GroupCommit(database: database, enabled: groupCommit)
        if path != ":memory:" {
            _ = try database.query("PRAGMA journal_mode = WAL")
        }
        try database.execute("""
            PRAGMA synchronous = FULL;
            CREATE TABLE IF NOT EXISTS snapshots (
                stack TEXT NOT NULL, revision INTEGER NOT NULL, model BLOB NOT NULL,
                PRIMARY KEY (stack, revision));
            CREATE TABLE IF NOT EXISTS mutations (
                stack TEXT NOT NULL, revision INTEGER NOT NULL, method TEXT NOT NULL, path TEXT NOT NULL,
                body BLOB NOT NULL, events BLOB NOT NULL,
                PRIMARY KEY (stack, revision));
            CREATE TABLE IF NOT EXISTS plans (
                stack TEXT NOT NULL, revision INTEGER NOT NULL, plan BLOB NOT NULL,
                PRIMARY KEY (stack, revision));
            """)
        try migrateToRawPaths()
    }

    /// Journals of format 0 (`PRAGMA user_version`) hold each mutation's path percent-decoded;
    /// from format 1 on they hold it as received, since routing decodes each segment on its
    /// own. A decoded path never holds an encoded `/` (it could not be routed), so escaping
    /// every `%` as `%25` turns it into a raw path that decodes back to the same segments.
    /// Runs once, in one transaction.
    private func migrateToRawPaths() throws(SQLiteError) {
        try database.transaction { () throws(SQLiteError) in
            guard case .integer(let format)? = try database.query("PRAGMA user_version").first?.first, format < 1 else { return }
            try database.query("UPDATE mutations SET path = replace(path, '%', '%25')")
            try database.execute("PRAGMA user_version = 1")
        }
    }

    /// Records a new stack at revision 1.
    func recordCreation(id: String, model: [UInt8]) throws(SQLiteError) {
        try database.transaction { () throws(SQLiteError) in
            try database.query("DELETE FROM snapshots WHERE stack = ?", [.text(id)])
            try database.query("DELETE FROM mutations WHERE stack = ?", [.text(id)])
            try database.query("DELETE FROM plans WHERE stack = ?", [.text(id)])
            try database.query("INSERT INTO snapshots (stack, revision, model) VALUES (?, 1, ?)", [.text(id), .blob(model)])
            incarnations.withLock { $0.byStack[id] = $0.next; $0.next += 1 }
        }
        snapshotRevisions.withLock { $0[id] = 1 }
    }

    /// Whether the mutation making `revision` of a stack of `rowCount` rows should also
    /// write a snapshot.
    func snapshotDue(id: String, revision: Int, rowCount: Int) -> Bool {
        let last = snapshotRevisions.withLock { $0[id] } ?? 0
        return revision - last >= max(snapshotInterval, rowCount / 8)
    }

    /// Records an acknowledged mutation, with its transition plan when given and a snapshot
    /// of the result when given (a revert), in the next group commit: it returns once that
    /// transaction is durable. Older snapshots stay: they serve reads of past revisions.
    func recordMutation(id: String, revision: Int, method: String, path: String, body: [UInt8], events: [UInt8], snapshot: [UInt8]?,
                        plan: [UInt8]? = nil) throws(SQLiteError) {
        try committer.commit { database throws(SQLiteError) in
            try database.query("INSERT INTO mutations (stack, revision, method, path, body, events) VALUES (?, ?, ?, ?, ?, ?)",
                               [.text(id), .integer(Int64(revision)), .text(method), .text(path), .blob(body), .blob(events)])
            if let plan {
                try database.query("INSERT INTO plans (stack, revision, plan) VALUES (?, ?, ?)", [.text(id), .integer(Int64(revision)), .blob(plan)])
            }
            if let snapshot {
                try database.query("INSERT INTO snapshots (stack, revision, model) VALUES (?, ?, ?)",
                                   [.text(id), .integer(Int64(revision)), .blob(snapshot)])
            }
        }
        if snapshot != nil { snapshotRevisions.withLock { $0[id] = revision } }
    }

    func recordDeletion(id: String) throws(SQLiteError) {
        try database.transaction { () throws(SQLiteError) in
            try database.query("DELETE FROM snapshots WHERE stack = ?", [.text(id)])
            try database.query("DELETE FROM mutations WHERE stack = ?", [.text(id)])
            try database.query("DELETE FROM plans WHERE stack = ?", [.text(id)])
            _ = incarnations.withLock { $0.byStack.removeValue(forKey: id) }
        }
        snapshotRevisions.withLock { $0[id] = nil }
    }

    /// Schedules a snapshot of `revision` of stack `id` (whose mutation is already journaled):
    /// `encode` runs later on the snapshot thread, from a copy of the state taken by the
    /// caller, so no writer waits while O(rows) bytes are encoded and written. The snapshot
    /// is written only if the stack is still the same incarnation (not deleted since); a
    /// failure is only logged by `failed`, since every mutation is journaled without it.
    /// Later mutations count from `revision`, so one stack has at most one pending at a time
    /// in steady state.
    func recordSnapshotLater(id: String, revision: Int, encode: @escaping @Sendable () -> [UInt8],
                             failed: @escaping @Sendable (SQLiteError) -> Void) {
        snapshotRevisions.withLock { $0[id] = revision }
        guard let incarnation = incarnations.withLock({ $0.byStack[id] }) else { return }
        snapshotsPending.add(1, ordering: .relaxed)
        snapshotQueue.async { [self] in
            defer { snapshotsPending.subtract(1, ordering: .relaxed) }
            let model = encode()
            do throws(SQLiteError) {
                try database.transaction { () throws(SQLiteError) in
                    guard incarnations.withLock({ $0.byStack[id] }) == incarnation else { return }
                    try database.query("INSERT INTO snapshots (stack, revision, model) VALUES (?, ?, ?)",
                                       [.text(id), .integer(Int64(revision)), .blob(model)])
                }
            } catch {
                failed(error)
            }
        }
    }

    /// Returns once every snapshot scheduled before the call is written (or failed).
    func waitForSnapshots() {
        snapshotQueue.sync {}
    }

    /// Every stack: its latest snapshot at or before `revision` (default: the latest) and the
    /// mutations after it, up to `revision`.
    func load(only id: String? = nil, upTo revision: Int = Int(Int64.max)) throws(SQLiteError) -> [StoredStack] {
        let latest = try database.query(
            "SELECT stack, MAX(revision) FROM snapshots WHERE (?1 IS NULL OR stack = ?1) AND revision <= ?2 GROUP BY stack ORDER BY stack",
            [id.map { .text($0) } ?? .null, .integer(Int64(revision))])
        var stacks: [StoredStack] = []
        for row in latest {
            guard case .text(let stack) = row[0], case .integer(let snapshotRevision) = row[1] else { continue }
            let model = try database.query("SELECT model FROM snapshots WHERE stack = ? AND revision = ?", [.text(stack), .integer(snapshotRevision)])
            guard case .blob(let snapshot)? = model.first?.first else { continue }
            let logged = try database.query(
                "SELECT revision, method, path, body FROM mutations WHERE stack = ? AND revision > ? AND revision <= ? ORDER BY revision",
                [.text(stack), .integer(snapshotRevision), .integer(Int64(revision))])
            let mutations = logged.compactMap { row -> LoggedMutation? in
                guard case .integer(let r) = row[0], case .text(let method) = row[1], case .text(let path) = row[2], case .blob(let body) = row[3] else { return nil }
                return LoggedMutation(revision: Int(r), method: method, path: path, body: body)
            }
            stacks.append(StoredStack(id: stack, snapshotRevision: Int(snapshotRevision), snapshot: snapshot, mutations: mutations))
        }
        snapshotRevisions.withLock { known in
            for stack in stacks where known[stack.id] == nil { known[stack.id] = stack.snapshotRevision }
        }
        incarnations.withLock { state in
            for stack in stacks where state.byStack[stack.id] == nil {
                state.byStack[stack.id] = state.next
                state.next += 1
            }
        }
        return stacks
    }

    /// The events of the mutations after revision `after`, at most `limit` mutations, in order.
    func events(id: String, after: Int, limit: Int) throws(SQLiteError) -> [(revision: Int, events: [UInt8])] {
        try database.query("SELECT revision, events FROM mutations WHERE stack = ? AND revision > ? ORDER BY revision LIMIT ?",
                           [.text(id), .integer(Int64(after)), .integer(Int64(limit))])
            .compactMap { row in
                guard case .integer(let revision) = row[0], case .blob(let events) = row[1] else { return nil }
                return (Int(revision), events)
            }
    }
}
