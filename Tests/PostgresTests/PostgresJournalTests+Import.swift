import ScrollStackPostgres
import ScrollStackStore
import XCTest

/// `PostgresJournal.importJournals` (what `scrollstackd migrate` writes with): everything of
/// every journal copied, all or nothing, existing keys refused unless replaced.
extension PostgresJournalTests {
    static func archive(_ key: String, latest: Int, snapshots: [Int]) -> JournalArchive {
        JournalArchive(key: key, snapshots: snapshots.map { JournalSnapshot(revision: $0, model: [UInt8($0), 42]) },
                       records: latest < 2 ? [] : (2...latest).map { revision in
                           var record = record(revision)
                           if revision == 3 { record.plan = nil }
                           return record
                       })
    }

    func testImportCopiesEverySnapshotRecordAndPlan() throws {
        let journal = try journal()
        let (first, second) = ("import-a-\(UUID().uuidString)", "import-b-\(UUID().uuidString)")
        let archives = [first: Self.archive(first, latest: 5, snapshots: [1, 4]), second: Self.archive(second, latest: 1, snapshots: [1])]
        let copied = try journal.importJournals(keys: [first, second], replacing: false) { key throws(JournalError) in archives[key]! }
        XCTAssertEqual(copied, 4)
        XCTAssertEqual(try journal.head(key: first)?.revision, 5)
        XCTAssertEqual(try journal.head(key: second)?.revision, 1)
        let latest = try XCTUnwrap(journal.load(key: first, upTo: .max).first)
        XCTAssertEqual(latest.snapshotRevision, 4)
        XCTAssertEqual(latest.snapshot, [4, 42])
        XCTAssertEqual(latest.records.map(\.revision), [5])
        let past = try XCTUnwrap(journal.load(key: first, upTo: 3).first)
        XCTAssertEqual(past.snapshotRevision, 1)
        XCTAssertEqual(past.records, [2, 3].map { JournalRecord(revision: $0, operation: Self.record($0).operation, events: Self.record($0).events) })
        XCTAssertEqual(try journal.plan(key: first, revision: 2), Self.record(2).plan)
        XCTAssertNil(try journal.plan(key: first, revision: 3))
        // The copy continues as any journal: the next revision appends.
        try journal.append(key: first, record: Self.record(6), snapshot: nil)
        XCTAssertEqual(try journal.head(key: first)?.revision, 6)
    }

    func testImportIsAllOrNothingAndReplacesOnlyWhenTold() throws {
        let journal = try journal()
        let (held, fresh) = ("import-held-\(UUID().uuidString)", "import-fresh-\(UUID().uuidString)")
        try journal.importJournals(keys: [held], replacing: false) { key throws(JournalError) in Self.archive(key, latest: 4, snapshots: [1]) }
        let incarnation = try XCTUnwrap(journal.head(key: held)).incarnation
        // A key already held stops the whole copy: the new key before it is not kept either.
        XCTAssertThrowsError(try journal.importJournals(keys: [fresh, held], replacing: false) { key throws(JournalError) in
            Self.archive(key, latest: 2, snapshots: [1])
        }) { error in XCTAssertEqual(error as? JournalError, .conflict(key: held, latest: nil)) }
        XCTAssertNil(try journal.head(key: fresh))
        XCTAssertEqual(try journal.head(key: held), JournalHead(incarnation: incarnation, revision: 4))
        // A damaged source (revision 3 missing) is refused before anything of it is written.
        var damaged = Self.archive(fresh, latest: 4, snapshots: [1])
        damaged.records.remove(at: 1)
        XCTAssertThrowsError(try journal.importJournals(keys: [fresh], replacing: true) { _ throws(JournalError) in damaged }) { error in
            guard case .failed(let detail)? = error as? JournalError else { return XCTFail("\(error)") }
            XCTAssertTrue(detail.contains("revision 4 where 3 belongs"), detail)
        }
        XCTAssertNil(try journal.head(key: fresh))
        // Replacing: the held key becomes the archive's, as a new incarnation; twice gives the same.
        for _ in 0..<2 {
            try journal.importJournals(keys: [held, fresh], replacing: true) { key throws(JournalError) in Self.archive(key, latest: 2, snapshots: [1, 2]) }
            let head = try XCTUnwrap(journal.head(key: held))
            XCTAssertEqual(head.revision, 2)
            XCTAssertNotEqual(head.incarnation, incarnation)
            XCTAssertEqual(try journal.records(key: held, after: 0, limit: 10).map(\.revision), [2])
            XCTAssertEqual(try journal.load(key: held, upTo: .max).first?.snapshotRevision, 2)
            XCTAssertEqual(try journal.head(key: fresh)?.revision, 2)
        }
    }
}
