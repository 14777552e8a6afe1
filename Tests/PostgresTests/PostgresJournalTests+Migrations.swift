import Foundation
import Postgres
import ScrollStackPostgres
import ScrollStackStore
import XCTest

/// The schema's migrations (`schema_migrations`), each test on a database of its own in the
/// shared cluster: a new database gets every one, a database made before the schema was
/// versioned is adopted with its journals, and one of a newer version is refused unchanged.
extension PostgresJournalTests {
    /// A new, empty database in the cluster: its URL, and a connection to it.
    private func freshDatabase() throws -> (url: String, sql: PostgresConnection) {
        let cluster = try XCTUnwrap(Self.cluster, "the PostgreSQL cluster did not start (Scripts/postgres-cluster.sh)")
        let name = "migrations_\(UUID().uuidString.prefix(8).lowercased())"
        try PostgresConnection(url: cluster.url).execute("CREATE DATABASE \(name)")
        let url = String(cluster.url.dropLast("postgres".count)) + name
        return (url, try PostgresConnection(url: url))
    }

    private func migrations(_ sql: PostgresConnection) throws -> [[PostgresValue]] {
        try sql.query("SELECT version, name FROM schema_migrations ORDER BY version")
    }

    func testANewDatabaseGetsEveryMigration() throws {
        let (url, sql) = try freshDatabase()
        let journal = try PostgresJournal(url: url, connections: 2)
        let applied = try migrations(sql)
        XCTAssertEqual(applied.map { $0[0].integerValue }, (1...PostgresJournal.schemaVersion).map { Int64($0) })
        XCTAssertTrue(applied.allSatisfy { !($0[1].textValue ?? "").isEmpty }, "every migration is named: \(applied)")
        _ = try journal.create(key: "k", snapshot: [1])
        try journal.append(key: "k", record: Self.record(2), snapshot: nil)
        XCTAssertEqual(try journal.head(key: "k")?.revision, 2)
        // A second replica starting on it applies nothing again.
        _ = try PostgresJournal(url: url, connections: 2)
        XCTAssertEqual(try migrations(sql), applied)
    }

    func testADatabaseFromBeforeVersioningIsMigratedWithItsJournals() throws {
        let (url, sql) = try freshDatabase()
        // The tables as servers before `schema_migrations` made them, with one journal.
        try sql.execute("""
            CREATE SEQUENCE journal_incarnations;
            CREATE TABLE journals (key text PRIMARY KEY, incarnation bigint NOT NULL, latest bigint NOT NULL);
            CREATE TABLE snapshots (key text NOT NULL, revision bigint NOT NULL, model bytea NOT NULL, PRIMARY KEY (key, revision));
            CREATE TABLE records (key text NOT NULL, revision bigint NOT NULL, operation bytea NOT NULL, events bytea NOT NULL, plan bytea,
                                  PRIMARY KEY (key, revision));
            INSERT INTO journals VALUES ('old', nextval('journal_incarnations'), 2);
            INSERT INTO snapshots VALUES ('old', 1, '\\x01');
            INSERT INTO records VALUES ('old', 2, '\\x0200ff', '\\x5b325d', NULL);
            """)
        let journal = try PostgresJournal(url: url, connections: 2)
        XCTAssertEqual(try migrations(sql).map { $0[0].integerValue }, (1...PostgresJournal.schemaVersion).map { Int64($0) })
        let old = try XCTUnwrap(journal.load(key: "old", upTo: .max).first)
        XCTAssertEqual(old.snapshot, [1])
        XCTAssertEqual(old.records.map(\.revision), [2])
        XCTAssertEqual(old.records.first?.operation, [2, 0, 255])
        try journal.append(key: "old", record: Self.record(3), snapshot: nil)
        XCTAssertEqual(try journal.head(key: "old")?.revision, 3)
    }

    func testADatabaseOfANewerSchemaIsRefusedUnchanged() throws {
        let (url, sql) = try freshDatabase()
        _ = try PostgresJournal(url: url, connections: 2).create(key: "k", snapshot: [1])
        let newer = PostgresJournal.schemaVersion + 1
        try sql.query("INSERT INTO schema_migrations (version, name) VALUES ($1, 'from a newer server')", [.integer(Int64(newer))])
        let before = try migrations(sql)
        XCTAssertThrowsError(try PostgresJournal(url: url, connections: 2)) { error in
            guard case .schemaTooNew(_, let found, let known)? = error as? JournalError else { return XCTFail("\(error)") }
            XCTAssertEqual(found, newer)
            XCTAssertEqual(known, PostgresJournal.schemaVersion)
            let message = "\(error)"
            XCTAssertTrue(message.contains("version \(newer)") && message.contains("version \(PostgresJournal.schemaVersion)"), message)
        }
        XCTAssertEqual(try migrations(sql), before, "nothing was changed")
        XCTAssertEqual(try sql.query("SELECT latest FROM journals WHERE key = 'k'"), [[.integer(1)]])
    }
}
