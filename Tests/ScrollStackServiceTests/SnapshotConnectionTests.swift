import Dispatch
import Foundation
@testable import ScrollStackStore
import SQLite
import Synchronization
import XCTest

/// Snapshots are written on a connection of their own, beside the commits' (`SQLiteJournal`).
final class SnapshotConnectionTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sssnapconn-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
    }

    var path: String { directory.appendingPathComponent("db.sqlite").path }

    static func record(_ revision: Int) -> JournalRecord {
        JournalRecord(revision: revision, operation: [UInt8](repeating: UInt8(revision % 251), count: 3_000), events: Array("[]".utf8))
    }

    /// A snapshot is written on the snapshot connection while commits continue on theirs,
    /// and both read back after the journal is reopened.
    func testSnapshotsOnTheirOwnConnectionReadBack() throws {
        var journal: SQLiteJournal? = try SQLiteJournal(path: path)
        let incarnation = try XCTUnwrap(journal?.create(key: "s", snapshot: [1]))
        XCTAssertFalse(journal?.snapshotWriter === journal?.database, "a file gets a snapshot connection of its own")
        for revision in 2...50 {
            try journal?.append(key: "s", record: Self.record(revision), snapshot: nil)
            if revision % 10 == 0 {
                XCTAssertEqual(try journal?.writeSnapshot(key: "s", revision: revision, snapshot: [UInt8](repeating: 9, count: 200_000), incarnation: incarnation), true)
            }
        }
        XCTAssertEqual(try journal?.writeSnapshot(key: "s", revision: 50, snapshot: [2], incarnation: incarnation + 1), false, "another incarnation's snapshot is dropped")
        journal = nil
        let reopened = try SQLiteJournal(path: path)
        let stored = try XCTUnwrap(reopened.load(key: "s", upTo: Int(Int64.max)).first)
        XCTAssertEqual(stored.snapshotRevision, 50)
        XCTAssertEqual(stored.snapshot.count, 200_000)
        XCTAssertEqual(try reopened.load(key: "s", upTo: 45).first?.snapshotRevision, 40)
        XCTAssertEqual(try reopened.load(key: "s", upTo: 45).first?.records.map(\.revision), Array(41...45))
    }

    /// Snapshots written from another thread while appends commit: every one of both succeeds
    /// (the connections take turns, never refusing each other as busy) and reads back.
    func testSnapshotsAndCommitsFromTwoThreadsAllLand() throws {
        let journal = try SQLiteJournal(path: path)
        _ = try journal.create(key: "s", snapshot: [1])
        let incarnation = try journal.create(key: "t", snapshot: [1])
        let errors = Mutex<[String]>([])
        let done = DispatchGroup()
        DispatchQueue.global().async(group: done) {
            for revision in 2...400 {
                do { try journal.append(key: "s", record: Self.record(revision), snapshot: nil) } catch {
                    errors.withLock { $0.append("append \(revision): \(error)") }
                }
            }
        }
        DispatchQueue.global().async(group: done) {
            for i in 1...40 {
                do { _ = try journal.writeSnapshot(key: "t", revision: 1 + i, snapshot: [UInt8](repeating: UInt8(i), count: 100_000), incarnation: incarnation) } catch {
                    errors.withLock { $0.append("snapshot \(i): \(error)") }
                }
            }
        }
        XCTAssertEqual(done.wait(timeout: .now() + 120), .success, "appends and snapshots still running after 120 s")
        XCTAssertEqual(errors.withLock { $0 }, [])
        XCTAssertEqual(try journal.records(key: "s", after: 1, limit: 1_000).map(\.revision), Array(2...400))
        let snapshots = try journal.database.query("SELECT count(*) FROM snapshots WHERE stack = 't' AND revision > 1")
        XCTAssertEqual(snapshots.first?.first, .integer(40))
    }
}
