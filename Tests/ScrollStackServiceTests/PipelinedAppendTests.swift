import Dispatch
import Foundation
@testable import ScrollStackStore
import SQLite
import Synchronization
import XCTest

/// `SQLiteJournal.appendLater`: several revisions of one key queued at once are committed
/// together in order, and a conflict leaves out only the write that caused it.
final class PipelinedAppendTests: XCTestCase {
    func record(_ revision: Int) -> JournalRecord {
        JournalRecord(revision: revision, operation: [UInt8(revision)], events: Array("[]".utf8))
    }

    func testRevisionsOfOneKeyQueuedTogetherCommitInOrderAndAConflictFailsAlone() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sspipe-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let journal = try StackJournal(path: path)
        let committer = journal.committer
        for key in ["a", "b"] { _ = try journal.backend.create(key: key, snapshot: [0]) }
        let queued = 6
        let inFirst = DispatchSemaphore(value: 0)
        let first = DispatchGroup()
        first.enter()
        Thread {
            try? committer.commit { _ throws(SQLiteError) in
                inFirst.signal()
                GroupCommitTests.waitUntilQueued(committer, queued)
            }
            first.leave()
        }.start()
        XCTAssertEqual(inFirst.wait(timeout: .now() + 30), .success)
        let before = committer.transactions.load(ordering: .relaxed)
        var pending = (2...6).map { journal.recordMutationLater(id: "a", record: record($0), snapshot: nil) }
        pending.append(journal.recordMutationLater(id: "b", record: record(5), snapshot: nil))  // b's latest is 1
        XCTAssertEqual(first.wait(timeout: .now() + 30), .success)
        let outcomes = pending.map { $0.wait() }
        XCTAssertEqual(outcomes, [nil, nil, nil, nil, nil, .conflict(key: "b", latest: 1)])
        XCTAssertEqual(committer.transactions.load(ordering: .relaxed) - before, 1, "the six queued writes shared one transaction")
        XCTAssertEqual(try journal.backend.records(key: "a", after: 1, limit: 10).map(\.revision), [2, 3, 4, 5, 6])
        XCTAssertEqual(try journal.backend.records(key: "b", after: 0, limit: 10), [])
    }

    func testACallbackRunsBeforeTheWaiterIsReleasedAndAtOnceWhenGivenLate() {
        let pending = PendingWrite()
        let seen = Mutex<[String]>([])
        pending.whenDone { error in seen.withLock { $0.append("callback \(error == nil)") } }
        let waited = DispatchGroup()
        waited.enter()
        Thread {
            let error = pending.wait()
            seen.withLock { $0.append("waiter \(error == nil)") }
            waited.leave()
        }.start()
        pending.complete(nil)
        XCTAssertEqual(waited.wait(timeout: .now() + 30), .success)
        pending.whenDone { error in seen.withLock { $0.append("late \(error == nil)") } }
        XCTAssertEqual(seen.withLock { $0 }, ["callback true", "waiter true", "late true"])
    }
}
