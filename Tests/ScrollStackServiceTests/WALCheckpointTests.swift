import Dispatch
import Foundation
@testable import ScrollStackStore
import SQLite
import Synchronization
import TestHTTPClient
import XCTest

/// The journal's WAL is checkpointed on a thread of its own, beside the commits, and stays
/// bounded when that thread falls behind; snapshots are written on a connection of their own.
final class WALCheckpointTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sswal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
    }

    var path: String { directory.appendingPathComponent("db.sqlite").path }

    /// A record of about 3 KB (an overflow page and a leaf's share: a few pages per commit).
    func record(_ revision: Int) -> JournalRecord {
        JournalRecord(revision: revision, operation: [UInt8](repeating: UInt8(revision % 251), count: 3_000), events: Array("[]".utf8))
    }

    /// The most pages one commit of `record` adds to the WAL (the record, its index entries,
    /// the pages an insert may split): what a commit may add past the bound.
    let pagesPerCommit = 8

    /// With the checkpoint thread held, commits go on past the threshold (no checkpoint runs
    /// on their path) up to the bound, where the committing thread checkpoints itself: the WAL
    /// never holds more than the bound and one commit's pages. Released, the thread
    /// checkpoints, and every record reads back.
    func testCommitsDoNotWaitForCheckpointsAndTheWALStaysBounded() throws {
        let journal = try SQLiteJournal(path: path, checkpointPages: 20)
        let checkpointer = try XCTUnwrap(journal.checkpointer)
        XCTAssertEqual(checkpointer.limit, 320)
        _ = try journal.create(key: "s", snapshot: [1, 2, 3])
        let gate = DispatchSemaphore(value: 0)
        checkpointer.hold { _ = gate.wait(timeout: .now() + 60) }
        var revision = 1
        while checkpointer.mostWALPages.load(ordering: .relaxed) < 2 * checkpointer.threshold, revision < 10_000 {
            revision += 1
            try journal.append(key: "s", record: record(revision), snapshot: nil)
        }
        XCTAssertEqual(checkpointer.background.load(ordering: .relaxed), 0, "the held thread ran no checkpoint")
        XCTAssertEqual(checkpointer.inline.load(ordering: .relaxed), 0, "no commit checkpointed below the bound")
        for _ in 0..<(3 * checkpointer.limit) {
            revision += 1
            try journal.append(key: "s", record: record(revision), snapshot: nil)
        }
        XCTAssertGreaterThan(checkpointer.inline.load(ordering: .relaxed), 0, "at the bound a commit checkpoints itself")
        XCTAssertLessThanOrEqual(checkpointer.mostWALPages.load(ordering: .relaxed), checkpointer.limit + pagesPerCommit)
        XCTAssertLessThanOrEqual(try walBytes(), (checkpointer.limit + pagesPerCommit) * (4_096 + 24) + 32, "the WAL file is bounded too")
        gate.signal()
        checkpointer.waitForCheckpoints()
        XCTAssertGreaterThan(checkpointer.background.load(ordering: .relaxed), 0, "released, the thread checkpointed")
        XCTAssertEqual(try journal.records(key: "s", after: 1, limit: 100_000).map(\.revision), Array(2...revision))
    }

    /// Unheld, the checkpoint thread keeps the WAL near the threshold on its own, and what was
    /// committed reads back from a new connection after the journal is closed.
    func testCheckpointsKeepTheWALSmallAndLoseNothing() throws {
        var journal: SQLiteJournal? = try SQLiteJournal(path: path, checkpointPages: 20)
        _ = try journal?.create(key: "s", snapshot: [1, 2, 3])
        for revision in 2...1_000 {
            try journal?.append(key: "s", record: record(revision), snapshot: nil)
        }
        let checkpointer = try XCTUnwrap(journal?.checkpointer)
        checkpointer.waitForCheckpoints()
        XCTAssertGreaterThan(checkpointer.background.load(ordering: .relaxed), 0)
        XCTAssertLessThanOrEqual(checkpointer.mostWALPages.load(ordering: .relaxed), checkpointer.limit + pagesPerCommit)
        journal = nil
        let reopened = try SQLiteJournal(path: path, checkpointPages: 20)
        XCTAssertEqual(try reopened.records(key: "s", after: 1, limit: 100_000).map(\.revision), Array(2...1_000))
    }

    /// A snapshot is written on the snapshot connection while commits continue on theirs,
    /// and both read back after the journal is reopened.
    func testSnapshotsOnTheirOwnConnectionReadBack() throws {
        var journal: SQLiteJournal? = try SQLiteJournal(path: path)
        let incarnation = try XCTUnwrap(journal?.create(key: "s", snapshot: [1]))
        XCTAssertFalse(journal?.snapshotWriter === journal?.database, "a file gets a snapshot connection of its own")
        for revision in 2...50 {
            try journal?.append(key: "s", record: record(revision), snapshot: nil)
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

    func walBytes() throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? NSNumber)?.intValue ?? 0
    }
}
