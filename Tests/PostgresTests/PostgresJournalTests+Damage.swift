import Postgres
import ScrollStackPostgres
import ScrollStackStore
import XCTest

/// Rows deleted behind the journal's back (a record between a snapshot and `journals.latest`,
/// or every snapshot of a key) make that key's journal `.damaged`: it is never loaded as an
/// older revision, nor left out as if it did not exist, and the other keys load all the same.
extension PostgresJournalTests {
    func testDeletedRowsMakeOnlyTheirJournalDamaged() throws {
        let journal = try journal()
        let cluster = try XCTUnwrap(Self.cluster)
        let id = UUID().uuidString
        let (intact, rolled, unanchored) = ("intact-\(id)", "rolled-\(id)", "unanchored-\(id)")
        for key in [intact, rolled, unanchored] {
            _ = try journal.create(key: key, snapshot: [1])
            for revision in 2...6 { try journal.append(key: key, record: Self.record(revision), snapshot: nil) }
        }
        let sql = try PostgresConnection(url: cluster.url)
        _ = try sql.query("DELETE FROM records WHERE key = $1 AND revision > 4", [.text(rolled)])
        _ = try sql.query("DELETE FROM snapshots WHERE key = $1", [.text(unanchored)])

        XCTAssertEqual(try journal.load(key: intact, upTo: .max).first?.revision, 6)
        XCTAssertThrowsError(try journal.load(key: rolled, upTo: .max)) { error in
            guard case .damaged(rolled, let detail)? = error as? JournalError else { return XCTFail("\(error)") }
            XCTAssertTrue(detail.contains("revisions 5…6 are missing"), detail)
        }
        XCTAssertEqual(try journal.load(key: rolled, upTo: 4).first?.revision, 4, "the revisions before the gap still read back")
        XCTAssertThrowsError(try journal.load(key: unanchored, upTo: 3)) { error in
            guard case .damaged(unanchored, let detail)? = error as? JournalError else { return XCTFail("\(error)") }
            XCTAssertTrue(detail.contains("no snapshot at or before revision 3"), detail)
        }
        let loaded = try journal.loadEach()
        XCTAssertTrue(loaded.journals.contains { $0.key == intact && $0.revision == 6 })
        XCTAssertFalse(loaded.journals.contains { $0.key == rolled || $0.key == unanchored })
        XCTAssertNotNil(loaded.damaged[rolled])
        XCTAssertNotNil(loaded.damaged[unanchored])
    }
}
