import Dispatch
import Foundation
@testable import ScrollStackStore
import SQLite
import Synchronization
import XCTest

/// Queued writes commit on the commits' own thread with nobody waiting for them (so answers
/// can be deferred), and still share transactions.
final class CommitterThreadTests: XCTestCase {
    func testQueuedWritesCommitWithNobodyWaitingAndShareTransactions() throws {
        let journal = try SQLiteJournal(path: ":memory:")
        let committer = journal.committer
        try journal.database.execute("CREATE TABLE t (k TEXT PRIMARY KEY)")
        let writes = 32
        let done = DispatchGroup()
        let outcomes = Mutex<[Int: JournalError?]>([:])
        // The first write is held inside its transaction until all the others are queued.
        let started = DispatchSemaphore(value: 0), queuedAll = DispatchSemaphore(value: 0)
        for i in 0..<writes {
            if i == 1 { XCTAssertEqual(started.wait(timeout: .now() + 30), .success, "the first write's transaction began") }
            done.enter()
            let pending = committer.enqueue { db throws(SQLiteError) -> JournalError? in
                if i == 0 {
                    started.signal()
                    _ = queuedAll.wait(timeout: .now() + 30)
                }
                try db.query("INSERT INTO t VALUES (?)", [.text("w\(i)")])
                return nil
            }
            pending.whenDone { error in
                outcomes.withLock { $0[i] = error }
                done.leave()
            }
        }
        queuedAll.signal()
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success, "every write completed, none waited for")
        XCTAssertEqual(outcomes.withLock { $0.count }, writes)
        XCTAssertTrue(outcomes.withLock { $0.values.allSatisfy { $0 == nil } }, "all durable")
        XCTAssertEqual(committer.transactions.load(ordering: .relaxed), 2, "the first alone, the 31 queued behind it together")
        XCTAssertEqual(try journal.database.query("SELECT count(*) FROM t").first?.first, .integer(Int64(writes)))
    }
}
