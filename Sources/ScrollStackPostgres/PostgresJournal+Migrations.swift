import Postgres
import ScrollStackStore

/// The PostgreSQL journal's schema, versioned by the table `schema_migrations (version,
/// name, applied_at)`: one row per migration applied. Every replica applies the missing ones
/// at start, in order, in one transaction under an advisory lock (replicas starting together
/// take turns; the second finds nothing left to do), and refuses a database holding a
/// version above the last one it knows, before changing anything.
///
/// A database written before the schema was versioned holds the tables of version 1 and no
/// `schema_migrations`: migration 1 creates only what is missing, so such a database is
/// adopted as it is.
extension PostgresJournal {
    /// One step of the schema: the statements that make a database of version `version - 1`
    /// one of `version`.
    struct Migration: Sendable {
        let version: Int
        let name: String
        let sql: String
    }

    /// Every migration, in the order applied (versions 1, 2, …; the list only grows).
    static let migrations: [Migration] = [
        Migration(version: 1, name: "journals, snapshots and records", sql: """
            CREATE SEQUENCE IF NOT EXISTS journal_incarnations;
            CREATE TABLE IF NOT EXISTS journals (
                key text PRIMARY KEY, incarnation bigint NOT NULL, latest bigint NOT NULL);
            CREATE TABLE IF NOT EXISTS snapshots (
                key text NOT NULL, revision bigint NOT NULL, model bytea NOT NULL, PRIMARY KEY (key, revision));
            CREATE TABLE IF NOT EXISTS records (
                key text NOT NULL, revision bigint NOT NULL, operation bytea NOT NULL, events bytea NOT NULL, plan bytea,
                PRIMARY KEY (key, revision));
            """),
        Migration(version: 2, name: "blobs", sql: """
            CREATE TABLE IF NOT EXISTS blobs (name text PRIMARY KEY, bytes bytea NOT NULL);
            """),
        Migration(version: 3, name: "members", sql: """
            CREATE TABLE IF NOT EXISTS members (address text PRIMARY KEY, seen timestamptz NOT NULL);
            """),
    ]

    /// The newest schema version this binary knows: the last migration's.
    public static var schemaVersion: Int { migrations[migrations.count - 1].version }

    /// The advisory lock every replica's migrations run under.
    static let migrationLock: Int64 = 7301185642

    /// Applies the migrations the database lacks, in order, in one transaction that records
    /// each in `schema_migrations`; returns the names of those applied (none when another
    /// replica applied them first).
    ///
    /// - Throws: `.schemaTooNew` (naming both versions) when the database holds a version
    ///   above `schemaVersion`: nothing is changed then. `.unavailable` / `.failed` as `run`.
    @discardableResult
    func migrate() throws(JournalError) -> [String] {
        let (found, applied) = try run { connection throws(PostgresError) -> (Int, [String]) in
            try connection.transaction { () throws(PostgresError) -> (Int, [String]) in
                try connection.execute("""
                    SET LOCAL client_min_messages = warning;
                    SELECT pg_advisory_xact_lock(\(Self.migrationLock));
                    CREATE TABLE IF NOT EXISTS schema_migrations (
                        version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now());
                    """)
                let found = Int(try connection.query("SELECT coalesce(max(version), 0) FROM schema_migrations").first?.first?.integerValue ?? 0)
                guard found <= Self.schemaVersion else { return (found, []) }
                let due = Self.migrations.filter { $0.version > found }
                for migration in due {
                    try connection.execute(migration.sql)
                    try connection.query("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
                                         [.integer(Int64(migration.version)), .text(migration.name)])
                }
                return (found, due.map(\.name))
            }
        }
        if found > Self.schemaVersion {
            throw .schemaTooNew(store: "the PostgreSQL database \(ConnectionString.redacted(pool.url))", found: found, known: Self.schemaVersion)
        }
        return applied
    }
}
