import Dispatch
import Foundation
@testable import ScrollStackStore
import SQLite
import Synchronization
import TestSeeds
import XCTest

/// Snapshots larger than `SQLiteJournal.snapshotPartBytes` are written part by part, each
/// part in a transaction of its own, so that commits never wait for a whole snapshot.
final class SnapshotPartsTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sssnapparts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
    }

    var path: String { directory.appendingPathComponent("db.sqlite").path }

    static func record(_ revision: Int) -> JournalRecord {
        JournalRecord(revision: revision, operation: [UInt8(revision % 251)], events: Array("[]".utf8))
    }

    /// Seeded bytes (the seed is printed, so a failure can be replayed).
    static func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        print("SnapshotPartsTests seed \(seed)")
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }

    func count(_ journal: SQLiteJournal, _ sql: String) throws -> Int64 {
        guard case .integer(let count)? = try journal.database.query(sql).first?.first else { return -1 }
        return count
    }

    /// A snapshot of 10,500 bytes with parts of 1,000 is stored as 11 parts and an empty
    /// `model`, and reads back whole (load and archive) after reopening; a small one is
    /// stored whole, without parts.
    func testALargeSnapshotIsStoredInPartsAndReadsBackWhole() throws {
        let large = Self.bytes(10_500, seed: TestSeed.seed("SnapshotPartsTests.testALargeSnapshotIsStoredInPartsAndReadsBackWhole") | 1)
        var journal: SQLiteJournal? = try SQLiteJournal(path: path, snapshotPartBytes: 1_000)
        let incarnation = try XCTUnwrap(journal?.create(key: "s", snapshot: [1]))
        try journal?.append(key: "s", record: Self.record(2), snapshot: nil)
        XCTAssertEqual(try journal?.writeSnapshot(key: "s", revision: 2, snapshot: large, incarnation: incarnation), true)
        try journal?.append(key: "s", record: Self.record(3), snapshot: nil)
        XCTAssertEqual(try journal?.writeSnapshot(key: "s", revision: 3, snapshot: [7, 7, 7], incarnation: incarnation), true)
        XCTAssertEqual(try count(XCTUnwrap(journal), "SELECT count(*) FROM snapshot_parts WHERE revision = 2"), 11)
        XCTAssertEqual(try count(XCTUnwrap(journal), "SELECT max(length(bytes)) FROM snapshot_parts"), 1_000)
        XCTAssertEqual(try count(XCTUnwrap(journal), "SELECT length(model) FROM snapshots WHERE revision = 2"), 0)
        XCTAssertEqual(try count(XCTUnwrap(journal), "SELECT count(*) FROM snapshot_parts WHERE revision = 3"), 0, "small: stored whole")
        journal = nil
        let reopened = try SQLiteJournal(path: path, snapshotPartBytes: 1_000)
        let atTwo = try XCTUnwrap(reopened.load(key: "s", upTo: 2).first)
        XCTAssertEqual(atTwo.snapshotRevision, 2)
        XCTAssertTrue(atTwo.snapshot == large, "the parts, in order, are the snapshot")
        XCTAssertEqual(try reopened.load(key: "s", upTo: 3).first?.snapshot, [7, 7, 7])
        let archived = try reopened.archive(key: "s").snapshots
        XCTAssertEqual(archived.map(\.revision), [1, 2, 3])
        XCTAssertTrue(archived[1].model == large, "archive (migration to PostgreSQL) reads the parts too")
    }

    /// Parts whose `snapshots` row was never written (a crash mid-way) are not a snapshot:
    /// the load takes the one before, and opening the file deletes them. Deleting the stack
    /// deletes its parts; a snapshot of another incarnation writes no part.
    func testPartsWithoutTheirRowAreIgnoredAndDeletedWithTheStack() throws {
        var journal: SQLiteJournal? = try SQLiteJournal(path: path, snapshotPartBytes: 100)
        let incarnation = try XCTUnwrap(journal?.create(key: "s", snapshot: [1]))
        try journal?.append(key: "s", record: Self.record(2), snapshot: nil)
        try journal?.database.query("INSERT INTO snapshot_parts (stack, revision, part, bytes) VALUES ('s', 2, 0, x'0102')")
        XCTAssertEqual(try journal?.load(key: "s", upTo: 2).first?.snapshotRevision, 1, "an unfinished snapshot is not used")
        journal = nil
        journal = try SQLiteJournal(path: path, snapshotPartBytes: 100)
        XCTAssertEqual(try count(XCTUnwrap(journal), "SELECT count(*) FROM snapshot_parts"), 0, "deleted on opening")
        XCTAssertEqual(try journal?.writeSnapshot(key: "s", revision: 2, snapshot: Self.bytes(350, seed: 7), incarnation: incarnation + 1), false)
        XCTAssertEqual(try count(XCTUnwrap(journal), "SELECT count(*) FROM snapshot_parts"), 0, "another incarnation writes no part")
        let current = try XCTUnwrap(journal?.load(key: "s", upTo: Int(Int64.max)).first?.incarnation)
        XCTAssertEqual(try journal?.writeSnapshot(key: "s", revision: 2, snapshot: Self.bytes(350, seed: 8), incarnation: current), true)
        XCTAssertEqual(try count(XCTUnwrap(journal), "SELECT count(*) FROM snapshot_parts"), 4)
        try journal?.delete(key: "s")
        XCTAssertEqual(try count(XCTUnwrap(journal), "SELECT count(*) FROM snapshot_parts"), 0, "deleted with the stack")
    }

    /// A write queued while a snapshot of many parts is being written is committed before the
    /// snapshot ends: it takes the commits' connection between two parts. (Written whole, in
    /// one transaction, the snapshot held the commits out until its end.)
    func testACommitGetsInBetweenTheParts() throws {
        // 32,768 parts of 128 bytes: a second or more to write, so that the commit below comes
        // between two of them even when this thread waits long for a core.
        let partBytes = 128
        let journal = try SQLiteJournal(path: path, snapshotPartBytes: partBytes)
        let incarnation = try journal.create(key: "t", snapshot: [1])
        // A snapshot is of a revision already appended: past the head, no load would read it.
        try journal.append(key: "t", record: Self.record(2), snapshot: nil)
        _ = try journal.create(key: "s", snapshot: [1])
        let large = Self.bytes(4 << 20, seed: TestSeed.seed("SnapshotPartsTests") | 1)
        let written = DispatchGroup()
        let outcome = Mutex<String>("running")
        DispatchQueue.global().async(group: written) {
            do {
                let ok = try journal.writeSnapshot(key: "t", revision: 2, snapshot: large, incarnation: incarnation)
                outcome.withLock { $0 = ok ? "written" : "dropped" }
            } catch { outcome.withLock { $0 = "\(error)" } }
        }
        let deadline = Date().addingTimeInterval(60)
        while try count(journal, "SELECT count(*) FROM snapshot_parts") == 0, Date() < deadline { sched_yield() }
        XCTAssertGreaterThan(try count(journal, "SELECT count(*) FROM snapshot_parts"), 0, "the snapshot's first part within 60 s")
        try journal.append(key: "s", record: Self.record(2), snapshot: nil)
        let parts = try count(journal, "SELECT count(*) FROM snapshot_parts")
        XCTAssertLessThan(parts, Int64(large.count / partBytes), "committed while parts were still to be written (\(parts) of \(large.count / partBytes))")
        XCTAssertEqual(written.wait(timeout: .now() + 120), .success, "the snapshot still written after 120 s")
        XCTAssertEqual(outcome.withLock { $0 }, "written")
        XCTAssertTrue(try journal.load(key: "t", upTo: Int(Int64.max)).first?.snapshot == large)
    }
}
