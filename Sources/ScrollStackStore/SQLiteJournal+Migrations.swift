import SQLite

/// The SQLite journal's schema, versioned by `PRAGMA user_version` (the journal's *format*):
/// one named migration per version, applied in order. Opening a file applies those above its
/// version, all in one transaction (`migrate`), and refuses a file of a version above the
/// last one known here, before changing anything (`checkVersion`).
///
/// Versions 0 and 1 predate the list: a file of version 0 holds each revision as its HTTP
/// request with a percent-decoded path (`mutations`), one of version 1 the same with raw
/// paths. A new file is version 0 with no tables: every migration applies to it.
extension SQLiteJournal {
    /// One step of the schema: what makes a file of version `version - 1` one of `version`.
    struct Migration: Sendable {
        let version: Int64
        let name: String
        let apply: @Sendable (SQLiteDatabase) throws(SQLiteError) -> Void
    }

    /// Every migration, in the order applied (versions 1, 2, 3, …; the list only grows).
    /// Each leaves alone what a file of an earlier version may already hold (`IF NOT
    /// EXISTS`): the tables of versions 0–2 varied from release to release.
    static let migrations: [Migration] = [
        // Format 0 held each mutation's path percent-decoded; from format 1 on it is held as
        // received, since routing decodes each segment on its own. A decoded path never holds
        // an encoded `/` (it could not be routed), so escaping every `%` as `%25` turns it
        // into a raw path that decodes back to the same segments.
        Migration(version: 1, name: "raw request paths") { database throws(SQLiteError) in
            if try hasLegacyTable(database) {
                try database.query("UPDATE mutations SET path = replace(path, '%', '%25')")
            }
        },
        // Revisions as the service's operations (`records`) and snapshots; a file of format 1
        // may hold snapshots (and plans) already, so those are created only when absent.
        // `StackService.migrateLegacyJournals` turns the requests into records afterwards.
        Migration(version: 2, name: "records and snapshots") { database throws(SQLiteError) in
            try database.execute("""
                CREATE TABLE IF NOT EXISTS snapshots (
                    stack TEXT NOT NULL, revision INTEGER NOT NULL, model BLOB NOT NULL,
                    PRIMARY KEY (stack, revision));
                CREATE TABLE IF NOT EXISTS records (
                    stack TEXT NOT NULL, revision INTEGER NOT NULL, operation BLOB NOT NULL, events BLOB NOT NULL,
                    PRIMARY KEY (stack, revision));
                """)
        },
        // The catalogue of heads, filled from the rows (each key's latest revision among its
        // snapshots, records and legacy requests), with `plans` and `snapshot_parts`, which
        // files of format 2 written before they existed lack. O(rows).
        Migration(version: 3, name: "heads catalogue, plans and snapshot parts") { database throws(SQLiteError) in
            let legacy = try hasLegacyTable(database) ? " UNION ALL SELECT stack, revision FROM mutations" : ""
            try database.execute("""
                CREATE TABLE IF NOT EXISTS plans (
                    stack TEXT NOT NULL, revision INTEGER NOT NULL, plan BLOB NOT NULL,
                    PRIMARY KEY (stack, revision));
                CREATE TABLE IF NOT EXISTS snapshot_parts (
                    stack TEXT NOT NULL, revision INTEGER NOT NULL, part INTEGER NOT NULL, bytes BLOB NOT NULL,
                    PRIMARY KEY (stack, revision, part));
                CREATE TABLE IF NOT EXISTS heads (
                    stack TEXT NOT NULL PRIMARY KEY, revision INTEGER NOT NULL) WITHOUT ROWID;
                INSERT OR REPLACE INTO heads (stack, revision)
                SELECT stack, max(revision) FROM (SELECT stack, revision FROM snapshots UNION ALL SELECT stack, revision FROM records\(legacy))
                GROUP BY stack;
                """)
        },
    ]

    /// The newest schema version this binary knows: the last migration's.
    public static var schemaVersion: Int { Int(migrations[migrations.count - 1].version) }

    /// The file's schema version (`PRAGMA user_version`).
    static func version(of database: SQLiteDatabase) throws(SQLiteError) -> Int64 {
        guard case .integer(let version)? = try database.query("PRAGMA user_version").first?.first else { return 0 }
        return version
    }

    /// Refuses (`.schemaTooNew`, naming both versions) a file written by a newer server,
    /// before anything in it is changed.
    static func checkVersion(_ database: SQLiteDatabase, path: String) throws(JournalError) {
        let found: Int64
        do throws(SQLiteError) { found = try version(of: database) } catch { throw .failed("\(error)") }
        if found > Int64(schemaVersion) { throw .schemaTooNew(store: "the journal file \(path)", found: Int(found), known: schemaVersion) }
    }

    /// Applies every migration above the file's version, in order, in one transaction that
    /// also sets the new version: a failure leaves the file as it was. Returns the names of
    /// those applied. The version is read again inside the transaction (another connection
    /// may have migrated the file meanwhile); one newer than known throws `.schemaTooNew`.
    @discardableResult
    static func migrate(_ database: SQLiteDatabase, path: String) throws(JournalError) -> [String] {
        var tooNew: Int64?
        let applied: [String]
        do throws(SQLiteError) {
            applied = try database.transaction { () throws(SQLiteError) -> [String] in
                let found = try version(of: database)
                guard found <= Int64(schemaVersion) else {
                    tooNew = found
                    return []
                }
                let due = migrations.filter { $0.version > found }
                for migration in due { try migration.apply(database) }
                if let last = due.last { try database.execute("PRAGMA user_version = \(last.version)") }
                return due.map(\.name)
            }
        } catch {
            throw .failed("migrating the journal file \(path) to schema version \(schemaVersion) failed (nothing was changed): \(error)")
        }
        if let tooNew { throw .schemaTooNew(store: "the journal file \(path)", found: Int(tooNew), known: schemaVersion) }
        return applied
    }

    /// Whether the file holds the legacy table of requests (`mutations`).
    static func hasLegacyTable(_ database: SQLiteDatabase) throws(SQLiteError) -> Bool {
        try !database.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'mutations'").isEmpty
    }
}
