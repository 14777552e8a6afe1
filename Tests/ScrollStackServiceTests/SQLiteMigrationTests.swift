import Foundation
import SQLite
@testable import ScrollStackStore
import XCTest

/// The SQLite journal's schema migrations (`PRAGMA user_version`): a new file gets every one,
/// a file of an older version (made by hand here) is migrated with its journals, and a file
/// of a newer version, or of a journal of requests, is refused before anything in it changes.
final class SQLiteMigrationTests: XCTestCase {
    var path: String!

    override func setUp() {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("ssmigrate-\(UUID().uuidString).sqlite").path
    }

    override func tearDown() {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    private func version(_ database: SQLiteDatabase) throws -> SQLiteDatabase.Value? {
        try database.query("PRAGMA user_version").first?.first
    }

    private func tables(_ database: SQLiteDatabase) throws -> Set<String> {
        Set(try database.query("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { row -> String? in
            if case .text(let name)? = row.first { return name }
            return nil
        })
    }

    func testANewFileGetsEveryMigrationInOrder() throws {
        let database = try SQLiteDatabase(path: path)
        XCTAssertEqual(try SQLiteJournal.migrate(database, path: path), SQLiteJournal.migrations.map(\.name))
        XCTAssertEqual(SQLiteJournal.migrations.map(\.version), (1...Int64(SQLiteJournal.schemaVersion)).map { $0 }, "numbered 1, 2, … in order")
        XCTAssertEqual(try version(database), .integer(Int64(SQLiteJournal.schemaVersion)))
        XCTAssertEqual(try tables(database), ["snapshots", "records", "plans", "snapshot_parts", "heads", "blobs"])
        XCTAssertEqual(try SQLiteJournal.migrate(database, path: path), [], "nothing is left to apply")

        let journal = try SQLiteJournal(path: path)
        _ = try journal.create(key: "k", snapshot: [1])
        try journal.append(key: "k", record: JournalRecord(revision: 2, operation: [2], events: [3]), snapshot: nil)
        XCTAssertEqual(try journal.load(key: "k", upTo: .max).first?.revision, 2)
    }

    /// A file of format 2, as servers before the catalogue of heads wrote it: it gains
    /// `heads` (filled from its rows), `plans` and `snapshot_parts`, and its journal loads.
    func testAFileOfAnOlderVersionIsMigratedWithItsJournals() throws {
        do {
            let database = try SQLiteDatabase(path: path)
            try database.execute("""
                CREATE TABLE snapshots (stack TEXT NOT NULL, revision INTEGER NOT NULL, model BLOB NOT NULL, PRIMARY KEY (stack, revision));
                CREATE TABLE records (stack TEXT NOT NULL, revision INTEGER NOT NULL, operation BLOB NOT NULL, events BLOB NOT NULL,
                                      PRIMARY KEY (stack, revision));
                INSERT INTO snapshots VALUES ('old', 1, X'01');
                INSERT INTO records VALUES ('old', 2, X'02', X'5b5d');
                INSERT INTO records VALUES ('old', 3, X'03', X'5b5d');
                PRAGMA user_version = 2;
                """)
        }
        let journal = try SQLiteJournal(path: path)
        XCTAssertEqual(try version(journal.database), .integer(Int64(SQLiteJournal.schemaVersion)))
        XCTAssertEqual(try tables(journal.database), ["snapshots", "records", "plans", "snapshot_parts", "heads", "blobs"])
        XCTAssertEqual(try journal.database.query("SELECT stack, revision FROM heads"), [[.text("old"), .integer(3)]])
        let old = try XCTUnwrap(journal.load(key: "old", upTo: .max).first)
        XCTAssertEqual(old.snapshot, [1])
        XCTAssertEqual(old.records.map(\.operation), [[2], [3]])
        try journal.append(key: "old", record: JournalRecord(revision: 4, operation: [4], events: [], plan: [9]), snapshot: nil)
        XCTAssertEqual(try journal.plan(key: "old", revision: 4), [9])
    }

    func testAFileOfANewerVersionIsRefusedUnchanged() throws {
        let newer = SQLiteJournal.schemaVersion + 1
        do {
            let journal = try SQLiteJournal(path: path)
            _ = try journal.create(key: "k", snapshot: [1])
            try journal.database.execute("PRAGMA user_version = \(newer)")
        }
        XCTAssertThrowsError(try SQLiteJournal(path: path)) { error in
            XCTAssertEqual(error as? JournalError, .schemaTooNew(store: "the journal file \(path!)", found: newer, known: SQLiteJournal.schemaVersion))
            let message = "\(error)"
            XCTAssertTrue(message.contains("version \(newer)") && message.contains("version \(SQLiteJournal.schemaVersion)"), message)
        }
        let database = try SQLiteDatabase(path: path)
        XCTAssertEqual(try version(database), .integer(Int64(newer)), "nothing was changed")
        XCTAssertEqual(try database.query("SELECT stack, revision FROM heads"), [[.text("k"), .integer(1)]])
    }

    /// Journal formats 0 and 1 kept each revision as its HTTP request (`mutations`): such a
    /// file is refused, naming its format, and left as it was.
    func testAJournalOfRequestsIsRefusedUnchanged() throws {
        for format in [0, 1] {
            tearDown()
            do {
                let database = try SQLiteDatabase(path: path)
                try database.execute("""
                    CREATE TABLE mutations (stack TEXT NOT NULL, revision INTEGER NOT NULL, method TEXT NOT NULL, path TEXT NOT NULL,
                                            body BLOB NOT NULL, events BLOB NOT NULL, PRIMARY KEY (stack, revision));
                    CREATE TABLE snapshots (stack TEXT NOT NULL, revision INTEGER NOT NULL, model BLOB NOT NULL, PRIMARY KEY (stack, revision));
                    INSERT INTO snapshots VALUES ('s', 1, CAST('{"id":"s"}' AS BLOB));
                    INSERT INTO mutations VALUES ('s', 2, 'PATCH', '/v1/stacks/s', CAST('{"spacing":4}' AS BLOB), CAST('[]' AS BLOB));
                    PRAGMA user_version = \(format);
                    """)
            }
            XCTAssertThrowsError(try SQLiteJournal(path: path), "format \(format)") { error in
                let message = "\(error)"
                XCTAssertTrue(message.contains("is of journal format \(format),") && message.contains("changed nothing")
                              && message.contains("empty data directory"), message)
            }
            let database = try SQLiteDatabase(path: path)
            XCTAssertEqual(try version(database), .integer(Int64(format)), "nothing was changed")
            XCTAssertEqual(try tables(database), ["mutations", "snapshots"])
            XCTAssertEqual(try database.query("SELECT count(*) FROM mutations"), [[.integer(1)]])
        }
    }
}
