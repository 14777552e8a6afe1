import Dispatch
import Foundation
@testable import ScrollStackStore
import SQLite
import Synchronization
import XCTest

/// With a committer thread (deferred answers), queued writes commit with nobody waiting for
/// them, and still share transactions; without one, a write needs a waiter to drive it.
final class CommitterThreadTests: XCTestCase {
    func testQueuedWritesCommitWithNobodyWaitingAndShareTransactions() throws {
        let journal = try SQLiteJournal(path: ":memory:", committerThread: true)
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
            XCTAssertTrue(pending.completesOnItsOwn)
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

    func testWithoutACommitterThreadAWriteIsDrivenByItsWaiter() throws {
        let journal = try SQLiteJournal(path: ":memory:")
        try journal.database.execute("CREATE TABLE t (k TEXT PRIMARY KEY)")
        let pending = journal.committer.enqueue { db throws(SQLiteError) -> JournalError? in
            try db.query("INSERT INTO t VALUES ('x')")
            return nil
        }
        XCTAssertFalse(pending.completesOnItsOwn, "a deferred answer must not wait for it")
        XCTAssertNil(pending.outcome, "nothing commits it until someone waits")
        XCTAssertNil(pending.wait())
        XCTAssertEqual(try journal.database.query("SELECT count(*) FROM t").first?.first, .integer(1))
    }
}
