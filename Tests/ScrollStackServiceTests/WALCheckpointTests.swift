import Dispatch
import Foundation
import SQLite
import XCTest

/// The log's checkpoints run on another connection, off the commits
/// (`SQLiteDatabase.checkpointElsewhere`).
final class WALCheckpointTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sswal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
    }

    func fileSize(_ name: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)[.size] as? Int ?? 0
    }

    /// A WAL-mode file whose commits checkpoint elsewhere (`pages`) on a queue held from
    /// before `count` commits of one 4,000-byte row each (about 3 frames each), unless not
    /// `held`; the caller resumes the queue, and keeps the connection open (closing the last
    /// one checkpoints).
    func commitWhileTheQueueIsHeld(pages: Int, count: Int, held: Bool = true) throws -> (SQLiteDatabase, DispatchQueue) {
        let path = directory.appendingPathComponent("db.sqlite").path
        let writer = try SQLiteDatabase(path: path)
        _ = try writer.query("PRAGMA journal_mode = WAL")
        let queue = DispatchQueue(label: "test.checkpoints")
        writer.checkpointElsewhere(on: try SQLiteDatabase(path: path), queue: queue, pages: pages)
        try writer.execute("CREATE TABLE blobs (n INTEGER PRIMARY KEY, bytes BLOB NOT NULL)")
        if held { queue.suspend() }
        do {
            for n in 0..<count {
                try writer.query("INSERT INTO blobs (n, bytes) VALUES (?, ?)", [.integer(Int64(n)), .blob([UInt8](repeating: UInt8(n % 251), count: 4_000))])
            }
        } catch {
            if held { queue.resume() }  // a queue released while suspended ends the process
            throw error
        }
        return (writer, queue)
    }

    /// Every row of `commitWhileTheQueueIsHeld` reads back from a connection opened afresh.
    func assertEveryRowReadsBack(_ count: Int) throws {
        let reader = try SQLiteDatabase(path: directory.appendingPathComponent("db.sqlite").path)
        XCTAssertEqual(try reader.query("SELECT count(*), sum(length(bytes)) FROM blobs").first, [.integer(Int64(count)), .integer(Int64(count * 4_000))])
    }

    /// Commits that take the log past the threshold and SQLite's own 1,000 pages (about 2,400
    /// frames, not as far as 4 × the threshold) leave every page in the log while the
    /// checkpoint queue is held: none ran inside a commit. Once the queue runs, the pages are
    /// in the database file.
    func testCommitsOnlyQueueTheCheckpoint() throws {
        let count = 800
        let (writer, queue) = try commitWhileTheQueueIsHeld(pages: 1_000, count: count)
        var resumed = false
        defer {
            if !resumed { queue.resume() }
            withExtendedLifetime(writer) {}
        }
        XCTAssertLessThan(try fileSize("db.sqlite"), 100_000, "no checkpoint copied the log into the database file while the queue was held")
        XCTAssertGreaterThan(try fileSize("db.sqlite-wal"), count * 4_000)
        queue.resume()
        resumed = true
        let ran = DispatchSemaphore(value: 0)
        queue.async { ran.signal() }
        XCTAssertEqual(ran.wait(timeout: .now() + 60), .success, "the checkpoint queue did not run within 60 s")
        XCTAssertGreaterThan(try fileSize("db.sqlite"), count * 4_000, "the queued checkpoint copied the log into the database file")
        try assertEveryRowReadsBack(count)
    }

    /// With the checkpoint queue held, a commit that finds the log 4 × the threshold long
    /// checkpoints it itself: the log starts over, so it stays bounded.
    func testTheLogStaysBoundedWhenTheQueueFallsBehind() throws {
        let count = 1_500
        let (writer, queue) = try commitWhileTheQueueIsHeld(pages: 10, count: count)
        defer {
            queue.resume()
            withExtendedLifetime(writer) {}
        }
        // 40 frames of about 4 KiB, and the 3 of the commit that crosses them.
        XCTAssertLessThan(try fileSize("db.sqlite-wal"), 50 * 4_200, "the log started over")
        XCTAssertGreaterThan(try fileSize("db.sqlite"), (count - 50) * 4_000, "the commits' own checkpoints copied the rest")
        try assertEveryRowReadsBack(count)
    }

    /// Commits one after another while the queue's checkpoints run beside them (none of
    /// which may ever copy the whole log before the next commit): the log starts over again
    /// and again (its file never shrinks, so its size is its most).
    func testTheLogStaysBoundedBesideSteadyCommits() throws {
        let count = 1_500
        let (writer, _) = try commitWhileTheQueueIsHeld(pages: 10, count: count, held: false)
        defer { withExtendedLifetime(writer) {} }
        // The log runs past 40 frames only by the commits made while a queued checkpoint runs
        // (the commits' own ones then find it busy): few on a quiet machine, a few hundred on a
        // loaded one, where the checkpoint's thread may wait long for a core. A log that never
        // started over would hold all of them (about 6 MB).
        XCTAssertLessThan(try fileSize("db.sqlite-wal"), count * 4_200 * 4 / 5, "the log started over")
        try assertEveryRowReadsBack(count)
    }
}
