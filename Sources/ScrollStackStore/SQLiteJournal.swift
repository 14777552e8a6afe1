import Dispatch
import SQLite
import Synchronization

/// The embedded backend: one SQLite file (`--data-dir`'s `scrollstack.sqlite`) that one
/// process serves.
///
/// WAL mode with `synchronous = FULL`: an append is on disk before it returns, so an
/// acknowledged write survives a crash of the process or the machine. Appends of every key
/// that arrive while a transaction is being committed are committed together in the next one
/// (`GroupCommit`), each returning once its own transaction is durable.
///
/// Tables (schema version, or format, 3: `PRAGMA user_version`; each version is a named
/// migration, `SQLiteJournal+Migrations.swift`): `snapshots (stack, revision, model)`,
/// `records (stack, revision, operation, events)` and `plans (stack, revision, plan)`, each
/// keyed by (stack, revision), and `snapshot_parts (stack, revision, part, bytes)`: a
/// snapshot written by `writeSnapshot` larger than `snapshotPartBytes` is stored there in
/// parts, and its `snapshots` row, written last, has an empty `model` (no encoded snapshot is
/// empty). Parts without their `snapshots` row (a crash mid-way) are ignored, and deleted
/// when the file is opened. A file of format 0 or 1 (a journal of HTTP requests, table
/// `mutations`) is refused (`checkVersion`).
///
/// `heads (stack, revision)` (from format 3) is the catalogue: one row per journal, its
/// latest revision, written in the same transaction as every creation, append and deletion.
/// It is what the journal must hold: a load checks the snapshot and records it finds against
/// it (`StoredJournal.verified`), so rows deleted or lost make that journal `.damaged`, never
/// an older revision served as the latest. At start (`loadEach`) rows the catalogue does not
/// account for (records past a head, snapshots of a key without one) are damage too. A file
/// of an earlier format gets its heads from its rows once, when opened.
///
/// Damage is kept to the keys it holds: an error of the file (`SQLiteError.isDamage`) met
/// while reading or appending one key's rows is that key's `.damaged`, and the other keys
/// are read and written as before (`loadEach`, `GroupCommit`). A table missing from a file
/// whose format has it is not one key's damage: opening fails, naming it.
public final class SQLiteJournal: JournalBackend {
    let database: SQLiteDatabase
    /// Commits appends, several at once when they arrive together.
    let committer: GroupCommit
    /// The connection snapshots are written on (a file only; in memory, `database`): its
    /// commits do not wait for the disk, so the commits' connection is held only while a
    /// snapshot's pages are written, not while they are synced (`writeSnapshot`).
    let snapshotWriter: SQLiteDatabase
    /// The largest part of a snapshot written in one transaction (`writeSnapshot`): the
    /// commits' connection is held for one part at a time, about 1 ms for 256 KiB here,
    /// instead of for the whole snapshot (22 ms for the 5.5 MB of 150,000 rows).
    let snapshotPartBytes: Int
    /// Where the log is checkpointed, on a connection of its own, instead of inside the commit
    /// that takes it past 1,000 pages; a commit checkpoints it itself only once it is 16,000
    /// frames long (`SQLiteDatabase.checkpointElsewhere`).
    let checkpointQueue = DispatchQueue(label: "scrollstack.journal.checkpoints")
    /// Each key's incarnation: given at creation and when first loaded, gone at deletion,
    /// changed only inside the transactions that create or delete the key (one process owns
    /// the file, so memory is enough).
    private let incarnations = Mutex<(next: Int64, byKey: [String: Int64])>((1, [:]))

    /// Opens (creating) the journal in `path`; ":memory:" keeps it in memory only. Appends
    /// are committed together on a thread of their own (`GroupCommit`).
    ///
    /// The file's schema is brought to `schemaVersion` by its migrations, in one transaction
    /// (`SQLiteJournal+Migrations.swift`).
    ///
    /// - Throws: `.schemaTooNew` for a file of a newer schema version; `.failed` when the
    ///   file cannot be opened, is of journal format 0 or 1, lacks a table its format has, or
    ///   a migration fails (naming it: nothing in the file is changed or created then).
    public init(path: String, snapshotPartBytes: Int = 256 << 10) throws(JournalError) {
        self.snapshotPartBytes = max(1, snapshotPartBytes)
        do throws(SQLiteError) {
            database = try SQLiteDatabase(path: path)
        } catch {
            throw .failed("\(error)")
        }
        try Self.checkVersion(database, path: path)
        do throws(SQLiteError) {
            try Self.checkTables(database, path: path)
            committer = GroupCommit(database: database)
            if path != ":memory:" {
                _ = try database.query("PRAGMA journal_mode = WAL")
                snapshotWriter = try SQLiteDatabase(path: path)
                try snapshotWriter.execute("PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = 0")
                // A connection of its own: on the snapshots' one, a snapshot part waiting for
                // a checkpoint to end would hold the commits' connection meanwhile.
                database.checkpointElsewhere(on: try SQLiteDatabase(path: path), queue: checkpointQueue)
            } else {
                snapshotWriter = database
            }
            try database.execute("PRAGMA synchronous = FULL")
        } catch {
            throw .failed("\(error)")
        }
        try Self.migrate(database, path: path)
        // Tidying only: parts in damaged pages are found when their stack loads.
        try? database.execute("""
            DELETE FROM snapshot_parts WHERE NOT EXISTS (
                SELECT 1 FROM snapshots WHERE snapshots.stack = snapshot_parts.stack AND snapshots.revision = snapshot_parts.revision);
            """)
    }

    /// The tables a file of each format is sure to have: from format 2 on, `snapshots` and
    /// `records` (files of format 2 written before `plans` or `snapshot_parts` existed lack
    /// those); from format 3 on, every table.
    static let tablesByFormat: [(format: Int64, tables: [String])] = [(2, ["snapshots", "records"]), (3, ["plans", "snapshot_parts", "heads"])]

    /// Refuses a file that lacks a table its format (`PRAGMA user_version`) has: a table is
    /// never dropped by the journal, so one missing means the file was altered or damaged,
    /// and creating it empty would serve every journal it held as an older revision, or
    /// none. A new file (format 0) and older formats get their missing tables created.
    static func checkTables(_ database: SQLiteDatabase, path: String) throws(SQLiteError) {
        guard case .integer(let format)? = try database.query("PRAGMA user_version").first?.first else { return }
        let present = Set(try database.query("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { row -> String? in
            if case .text(let name)? = row.first { return name }
            return nil
        })
        let missing = tablesByFormat.filter { $0.format <= format }.flatMap(\.tables).filter { !present.contains($0) }
        guard missing.isEmpty else {
            throw SQLiteError(code: 0, message: "the journal file \(path) (format \(format)) lacks the table\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", ")), which it must hold: it was altered or damaged, and serving it would roll stacks back; nothing was changed: restore the file from a backup")
        }
    }

    /// Runs `body`, reporting SQLite's errors as the journal's; with `key`, an error of the
    /// file (`SQLiteError.isDamage`) is that key's `.damaged`.
    func sqlite<T>(key: String?, _ body: () throws(SQLiteError) -> T) throws(JournalError) -> T {
        do throws(SQLiteError) { return try body() } catch {
            if let key, error.isDamage { throw .damaged(key: key, detail: "reading its rows failed: \(error)") }
            throw .failed("\(error)")
        }
    }

    /// Runs `body`, reporting SQLite's errors as the journal's.
    func sqlite<T>(_ body: () throws(SQLiteError) -> T) throws(JournalError) -> T {
        do throws(SQLiteError) { return try body() } catch { throw .failed("\(error)") }
    }

    public func create(key: String, snapshot: [UInt8]) throws(JournalError) -> Int64 {
        try sqlite { () throws(SQLiteError) -> Int64 in
            try database.transaction { () throws(SQLiteError) -> Int64 in
                try deleteRows(key)
                try database.query("INSERT INTO snapshots (stack, revision, model) VALUES (?, 1, ?)", [.text(key), .blob(snapshot)])
                try database.query("INSERT INTO heads (stack, revision) VALUES (?, 1)", [.text(key)])
                return incarnations.withLock { state in
                    state.byKey[key] = state.next
                    state.next += 1
                    return state.next - 1
                }
            }
        }
    }

    /// Every journal started in one SQLite transaction.
    public func createAll(_ journals: [(key: String, snapshot: [UInt8])]) throws(JournalError) -> [Int64] {
        try sqlite { () throws(SQLiteError) -> [Int64] in
            try database.transaction { () throws(SQLiteError) -> [Int64] in
                var incarnations: [Int64] = []
                for journal in journals {
                    try deleteRows(journal.key)
                    try database.query("INSERT INTO snapshots (stack, revision, model) VALUES (?, 1, ?)", [.text(journal.key), .blob(journal.snapshot)])
                    try database.query("INSERT INTO heads (stack, revision) VALUES (?, 1)", [.text(journal.key)])
                }
                for journal in journals {
                    incarnations.append(self.incarnations.withLock { state in
                        state.byKey[journal.key] = state.next
                        state.next += 1
                        return state.next - 1
                    })
                }
                return incarnations
            }
        }
    }

    public func append(key: String, record: JournalRecord, snapshot: [UInt8]?) throws(JournalError) {
        if let error = appendLater(key: key, record: record, snapshot: snapshot).wait() { throw error }
    }

    /// Queued for the group commit; committed in queue order. The revision check runs inside
    /// the batch's transaction, after the writes queued before it: a conflict leaves this
    /// write out alone (`.conflict`), and the rest of the batch is committed. So several
    /// revisions of one key can be in flight at once: each finds the one before it written.
    /// The key's head moves to the new revision in the same transaction.
    public func appendLater(key: String, record: JournalRecord, snapshot: [UInt8]?) -> PendingWrite {
        committer.enqueue(key: key) { [self] database throws(SQLiteError) -> JournalError? in
            let latest = try latestRevision(key)
            guard latest == record.revision - 1 else { return .conflict(key: key, latest: latest) }
            let id = SQLiteDatabase.Value.text(key), revision = SQLiteDatabase.Value.integer(Int64(record.revision))
            try database.query("INSERT INTO records (stack, revision, operation, events) VALUES (?, ?, ?, ?)",
                               [id, revision, .blob(record.operation), .blob(record.events)])
            if let plan = record.plan {
                try database.query("INSERT INTO plans (stack, revision, plan) VALUES (?, ?, ?)", [id, revision, .blob(plan)])
            }
            if let snapshot {
                try database.query("INSERT INTO snapshots (stack, revision, model) VALUES (?, ?, ?)", [id, revision, .blob(snapshot)])
            }
            try database.query("UPDATE heads SET revision = ? WHERE stack = ?", [revision, id])
            return nil
        }
    }

    /// The key's latest revision, its head; nil when it has no journal. One indexed lookup.
    func latestRevision(_ key: String) throws(SQLiteError) -> Int? {
        guard case .integer(let latest)? = try database.query("SELECT revision FROM heads WHERE stack = ?", [.text(key)]).first?.first else { return nil }
        return Int(latest)
    }

    public func delete(key: String) throws(JournalError) {
        try sqlite { () throws(SQLiteError) in
            try database.transaction { () throws(SQLiteError) in
                try deleteRows(key)
                _ = incarnations.withLock { $0.byKey.removeValue(forKey: key) }
            }
        }
    }

    public func putBlob(name: String, bytes: [UInt8]) throws(JournalError) -> Bool {
        try sqlite { () throws(SQLiteError) -> Bool in
            try database.transaction { () throws(SQLiteError) -> Bool in
                guard try database.query("SELECT 1 FROM blobs WHERE name = ?", [.text(name)]).isEmpty else { return false }
                try database.query("INSERT INTO blobs (name, bytes) VALUES (?, ?)", [.text(name), .blob(bytes)])
                return true
            }
        }
    }

    public func blobNames() throws(JournalError) -> [(name: String, bytes: Int)] {
        try sqlite { () throws(SQLiteError) -> [(name: String, bytes: Int)] in
            try database.query("SELECT name, length(bytes) FROM blobs ORDER BY name").compactMap { row in
                guard case .text(let name) = row[0], case .integer(let size) = row[1] else { return nil }
                return (name, Int(size))
            }
        }
    }

    public func blob(name: String) throws(JournalError) -> [UInt8]? {
        try sqlite { () throws(SQLiteError) -> [UInt8]? in
            guard case .blob(let bytes)? = try database.query("SELECT bytes FROM blobs WHERE name = ?", [.text(name)]).first?.first else { return nil }
            return bytes
        }
    }

    @discardableResult
    public func deleteBlob(name: String) throws(JournalError) -> Bool {
        try sqlite { () throws(SQLiteError) -> Bool in
            try database.transaction { () throws(SQLiteError) -> Bool in
                let found = try !database.query("SELECT 1 FROM blobs WHERE name = ?", [.text(name)]).isEmpty
                if found { try database.query("DELETE FROM blobs WHERE name = ?", [.text(name)]) }
                return found
            }
        }
    }

    private func deleteRows(_ key: String) throws(SQLiteError) {
        for table in ["heads", "snapshots", "snapshot_parts", "records", "plans"] {
            try database.query("DELETE FROM \(table) WHERE stack = ?", [.text(key)])
        }
    }

    /// Writes a snapshot on `snapshotWriter` while holding the commits' connection (so no
    /// creation or deletion of `key` interleaves, and neither connection waits for the
    /// other's write lock): that hold lasts while the pages are written, not synced. They are
    /// synced right after, outside the commits' lock; a crash before then may lose the
    /// snapshot, which only shortens replays, and never a commit synced after it.
    ///
    /// A snapshot larger than `snapshotPartBytes` is written part by part, each part in a
    /// transaction and a hold of its own, then its `snapshots` row (with an empty `model`),
    /// so that commits wait for one part at most, never for a whole snapshot. Each
    /// transaction first checks that `key` is still `incarnation`; false (nothing more
    /// written) when it is not. O(size of the snapshot).
    @discardableResult
    public func writeSnapshot(key: String, revision: Int, snapshot: [UInt8], incarnation: Int64) throws(JournalError) -> Bool {
        let id = SQLiteDatabase.Value.text(key), at = SQLiteDatabase.Value.integer(Int64(revision))
        let inParts = snapshot.count > snapshotPartBytes
        if inParts {
            for (part, start) in stride(from: 0, to: snapshot.count, by: snapshotPartBytes).enumerated() {
                let bytes = Array(snapshot[start..<min(start + snapshotPartBytes, snapshot.count)])
                guard try writeSnapshotRow("INSERT OR REPLACE INTO snapshot_parts (stack, revision, part, bytes) VALUES (?, ?, ?, ?)",
                                           [id, at, .integer(Int64(part)), .blob(bytes)], key: key, incarnation: incarnation) else { return false }
            }
        }
        let written = try writeSnapshotRow("INSERT OR REPLACE INTO snapshots (stack, revision, model) VALUES (?, ?, ?)",
                                           [id, at, .blob(inParts ? [] : snapshot)], key: key, incarnation: incarnation)
        // Best effort: a failed sync leaves the pages to the next commit's sync, which reports it.
        if written, snapshotWriter !== database { try? snapshotWriter.syncWAL() }
        return written
    }

    /// Runs one statement of `writeSnapshot` in a transaction of `snapshotWriter`, holding the
    /// commits' connection, if `key` is still `incarnation` (returns whether it was).
    private func writeSnapshotRow(_ statement: String, _ values: [SQLiteDatabase.Value], key: String, incarnation: Int64) throws(JournalError) -> Bool {
        try sqlite(key: key) { () throws(SQLiteError) -> Bool in
            try database.exclusively { () throws(SQLiteError) -> Bool in
                try snapshotWriter.transaction { () throws(SQLiteError) -> Bool in
                    guard incarnations.withLock({ $0.byKey[key] }) == incarnation else { return false }
                    try snapshotWriter.query(statement, values)
                    return true
                }
            }
        }
    }

    /// The snapshot stored as `model` in `snapshots` at (`key`, `revision`): `model` itself, or
    /// when empty its parts from `snapshot_parts`, in order.
    func snapshotBytes(_ model: [UInt8], key: String, revision: Int64) throws(SQLiteError) -> [UInt8] {
        guard model.isEmpty else { return model }
        var bytes: [UInt8] = []
        for row in try database.query("SELECT bytes FROM snapshot_parts WHERE stack = ? AND revision = ? ORDER BY part",
                                      [.text(key), .integer(revision)]) {
            if case .blob(let part) = row[0] { bytes += part }
        }
        return bytes
    }

    /// Each key named in `heads` (only `key`), loaded by `loadOne`; the first damaged one
    /// throws. No journal has a revision below 1: none is loaded up to one.
    public func load(key: String?, upTo revision: Int) throws(JournalError) -> [StoredJournal] {
        guard revision >= 1 else { return [] }
        var journals: [StoredJournal] = []
        for (stack, head) in try heads(only: key) { journals.append(try loadOne(stack, head: head, upTo: revision)) }
        return journals
    }

    /// Each key of `heads` loaded on its own (`loadOne`): a damaged one is reported, the
    /// others load. Meant for start-up, with no appends running, so it also reports rows the
    /// catalogue does not account for, which only a server that kept no heads (a downgrade)
    /// or tampering leaves: records past a key's head, and snapshots of a key with no head.
    /// - Throws: `.failed` only when `heads` itself cannot be read.
    /// - Complexity: O(K log K + what each key's load reads + the snapshots' index) for K keys.
    public func loadEach() throws(JournalError) -> LoadedJournals {
        var loaded = LoadedJournals(journals: [])
        let heads = try heads(only: nil)
        for (stack, head) in heads {
            do throws(JournalError) {
                let journal = try loadOne(stack, head: head, upTo: Int(Int64.max))
                let past = try sqlite(key: stack) { () throws(SQLiteError) -> Int64? in
                    guard case .integer(let last)? = try database.query("SELECT max(revision) FROM records WHERE stack = ?", [.text(stack)]).first?.first else { return nil }
                    return last
                }
                if let past, past > head {
                    throw JournalError.damaged(key: stack, detail: "it holds records up to revision \(past), past its recorded head \(head) (written by a server that kept no heads?)")
                }
                loaded.journals.append(journal)
            } catch {
                guard case .damaged(_, let detail) = error else { throw error }
                loaded.damaged[stack] = detail
            }
        }
        // Best effort: an unreadable index leaves the check to each key's own load.
        let known = Set(heads.map(\.0))
        for row in (try? database.query("SELECT DISTINCT stack FROM snapshots")) ?? [] {
            guard case .text(let stack)? = row.first, !known.contains(stack), !stack.isEmpty else { continue }
            loaded.damaged[stack] = "it has snapshots but no recorded head (written by a server that kept no heads?)"
        }
        return loaded
    }

    /// The rows of `heads` (only `key`'s when given), ordered by key.
    private func heads(only key: String?) throws(JournalError) -> [(String, Int)] {
        do throws(SQLiteError) {
            let rows = if let key {
                try database.query("SELECT stack, revision FROM heads WHERE stack = ?", [.text(key)])
            } else {
                try database.query("SELECT stack, revision FROM heads ORDER BY stack")
            }
            return rows.compactMap { row in
                    guard case .text(let stack) = row[0], case .integer(let head) = row[1] else { return nil }
                    return (stack, Int(head))
                }
        } catch {
            if let key, error.isDamage { throw .damaged(key: key, detail: "reading its head failed: \(error)") }
            throw .failed("the catalogue of journals (table heads) cannot be read: \(error)")
        }
    }

    /// `key`'s latest snapshot at or before `min(head, revision)` and its records after it up
    /// to there, checked against `head` (`StoredJournal.verified`). Records past `head` (an
    /// append committed since `head` was read) are not read, so a load racing appends is
    /// never mistaken for damage. - Throws: `.damaged` (missing rows, or an error of the file
    /// reading them). - Complexity: O(snapshot + records read), indexed range reads.
    private func loadOne(_ key: String, head: Int, upTo revision: Int) throws(JournalError) -> StoredJournal {
        let target = min(head, revision)
        let stored = try sqlite(key: key) { () throws(SQLiteError) -> StoredJournal? in
            let rows = try database.query("SELECT revision, model FROM snapshots WHERE stack = ? AND revision <= ? ORDER BY revision DESC LIMIT 1",
                                          [.text(key), .integer(Int64(target))])
            guard let row = rows.first, case .integer(let snapshotRevision) = row[0], case .blob(let model) = row[1] else { return nil }
            let snapshot = try snapshotBytes(model, key: key, revision: snapshotRevision)
            let records = try recordRows(key, after: Int(snapshotRevision), upTo: target, limit: Int(Int64.max))
            return StoredJournal(key: key, incarnation: incarnation(of: key), snapshotRevision: Int(snapshotRevision), snapshot: snapshot, records: records)
        }
        guard let stored else { throw StoredJournal.noSnapshot(key: key, head: head, upTo: revision) }
        if stored.snapshot.isEmpty {
            throw .damaged(key: key, detail: "the parts of its snapshot at revision \(stored.snapshotRevision) are missing")
        }
        return try stored.verified(head: head, upTo: revision)
    }

    /// The key's incarnation, given now when it has none yet (first load after opening).
    private func incarnation(of key: String) -> Int64 {
        incarnations.withLock { state in
            if let known = state.byKey[key] { return known }
            state.byKey[key] = state.next
            state.next += 1
            return state.next - 1
        }
    }

    public func records(key: String, after: Int, limit: Int) throws(JournalError) -> [JournalRecord] {
        try sqlite(key: key) { () throws(SQLiteError) -> [JournalRecord] in try recordRows(key, after: after, upTo: Int(Int64.max), limit: limit) }
    }

    private func recordRows(_ key: String, after: Int, upTo: Int, limit: Int) throws(SQLiteError) -> [JournalRecord] {
        try database.query(
            "SELECT revision, operation, events FROM records WHERE stack = ? AND revision > ? AND revision <= ? ORDER BY revision LIMIT ?",
            [.text(key), .integer(Int64(after)), .integer(Int64(upTo)), .integer(Int64(limit))]
        ).compactMap { row in
            guard case .integer(let revision) = row[0], case .blob(let operation) = row[1], case .blob(let events) = row[2] else { return nil }
            return JournalRecord(revision: Int(revision), operation: operation, events: events)
        }
    }

    public func plan(key: String, revision: Int) throws(JournalError) -> [UInt8]? {
        try sqlite(key: key) { () throws(SQLiteError) -> [UInt8]? in
            let rows = try database.query("SELECT plan FROM plans WHERE stack = ? AND revision = ?", [.text(key), .integer(Int64(revision))])
            guard case .blob(let plan)? = rows.first?.first else { return nil }
            return plan
        }
    }
}
