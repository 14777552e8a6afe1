import SQLite

/// The SQLite journal's schema, versioned by `PRAGMA user_version` (the journal's *format*):
/// one named migration per version, applied in order. Opening a file applies those above its
/// version, all in one transaction (`migrate`), and refuses a file of a version above the
/// last one known here, before changing anything (`checkVersion`).
///
/// A new file is version 0 with no tables: every migration applies to it. Files of journal
/// formats 0 and 1, which kept each revision as the HTTP request that made it (a table
/// `mutations`), are refused, also before anything is changed (`checkVersion`): this server
/// reads journals of model operations only.
extension SQLiteJournal {
    /// One step of the schema: what makes a file of version `version - 1` one of `version`.
    struct Migration: Sendable {
        let version: Int64
        let name: String
        let apply: @Sendable (SQLiteDatabase) throws(SQLiteError) -> Void
    }

    /// Every migration, in the order applied (versions 1, 2, 3, …; the list only grows).
    /// Each leaves alone what a file of an earlier version may already hold (`IF NOT
    /// EXISTS`): the tables of version 2 varied from build to build.
    static let migrations: [Migration] = [
        // Version 1 changed only the table of requests, which files this server opens never
        // hold: nothing to do.
        Migration(version: 1, name: "raw request paths") { _ throws(SQLiteError) in },
        // Revisions as the service's operations (`records`) and snapshots.
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
        // snapshots and records), with `plans` and `snapshot_parts`, which files of format 2
        // written before they existed lack. O(rows).
        Migration(version: 3, name: "heads catalogue, plans and snapshot parts") { database throws(SQLiteError) in
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
                SELECT stack, max(revision) FROM (SELECT stack, revision FROM snapshots UNION ALL SELECT stack, revision FROM records)
                GROUP BY stack;
                """)
        },
        // Named blobs beside the journals.
        Migration(version: 4, name: "blobs") { database throws(SQLiteError) in
            try database.execute("CREATE TABLE IF NOT EXISTS blobs (name TEXT NOT NULL PRIMARY KEY, bytes BLOB NOT NULL)")
        },
    ]

    /// The newest schema version this binary knows: the last migration's.
    public static var schemaVersion: Int { Int(migrations[migrations.count - 1].version) }

    /// The file's schema version (`PRAGMA user_version`).
    static func version(of database: SQLiteDatabase) throws(SQLiteError) -> Int64 {
        guard case .integer(let version)? = try database.query("PRAGMA user_version").first?.first else { return 0 }
        return version
    }

    /// Refuses, before anything in the file is changed, a file written by a newer server
    /// (`.schemaTooNew`, naming both versions), and one of journal format 0 or 1 (`.failed`,
    /// naming its format): it holds each revision as the HTTP request that made it, which
    /// this server does not read.
    static func checkVersion(_ database: SQLiteDatabase, path: String) throws(JournalError) {
        let found: Int64
        let requests: Bool
        do throws(SQLiteError) {
            found = try version(of: database)
            requests = try hasTableOfRequests(database)
        } catch {
            throw .failed("\(error)")
        }
        if found > Int64(schemaVersion) { throw .schemaTooNew(store: "the journal file \(path)", found: Int(found), known: schemaVersion) }
        if requests {
            throw .failed("the journal file \(path) is of journal format \(min(found, 1)), which kept each revision as the HTTP request that made it; this scrollstackd reads journals of model operations (format 2 and later) only, and changed nothing: start it on an empty data directory")
        }
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

    /// Whether the file holds the table of requests (`mutations`) of journal formats 0 and 1.
    static func hasTableOfRequests(_ database: SQLiteDatabase) throws(SQLiteError) -> Bool {
        try !database.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'mutations'").isEmpty
    }
}
