import Dispatch
import Foundation
import Postgres
import PostgresCluster
@testable import ScrollStackPostgres
import ScrollStackStore
import XCTest

/// Holds `key`'s `journals` row locked from a connection of its own, so a transaction
/// appending to it waits until `release()`.
final class RowHold {
    let connection: PostgresConnection

    init(url: String, key: String) throws {
        connection = try PostgresConnection(url: url)
        try connection.execute("BEGIN")
        XCTAssertEqual(try connection.query("SELECT 1 FROM journals WHERE key = $1 FOR UPDATE", [.text(key)]).count, 1)
    }

    func release() throws {
        try connection.execute("COMMIT")
    }
}

/// Waits (30 s at most) for `condition`, which no event announces (a queue's counters).
func waitUntil(_ what: String, _ condition: () -> Bool, file: StaticString = #filePath, line: UInt = #line) {
    let deadline = Date().addingTimeInterval(30)
    while !condition() {
        guard Date() < deadline else { return XCTFail("not within 30 s: \(what)", file: file, line: line) }
        usleep(1000)
    }
}

/// Batched appends (`PostgresJournal.AppendQueue`): appends queued while a transaction is
/// held open commit together in the next one, one key's as one run, and a run whose first
/// revision another writer took loses every append built on it, and nothing else.
extension PostgresJournalTests {
    /// Starts a transaction on `blocker` that waits for `hold`, so appends queued after it
    /// wait for the next transaction.
    func holdTheQueue(_ journal: PostgresJournal, blocker: String) throws -> PendingWrite {
        let appends = journal.appends
        let taken = appends.taken.load(ordering: .relaxed)
        let pending = journal.appendLater(key: blocker, record: Self.record(2), snapshot: nil)
        waitUntil("the blocker's transaction started") { appends.taken.load(ordering: .relaxed) == taken + 1 }
        return pending
    }

    func testAppendsQueuedDuringACommitShareTheNextTransactionOneKeyAsOneRun() throws {
        let journal = try journal()
        let appends = journal.appends
        let (key, other, blocker) = ("batch-\(UUID().uuidString)", "batch-other-\(UUID().uuidString)", "batch-z-\(UUID().uuidString)")
        for k in [key, other, blocker] { _ = try journal.create(key: k, snapshot: [1]) }
        let hold = try RowHold(url: try XCTUnwrap(Self.cluster).url, key: blocker)
        // Read before the blocker's batch is taken: its transaction is counted only once its
        // commit begins, which may be after the queue's counter of appends taken moved.
        let transactions = appends.transactions.load(ordering: .relaxed)
        let first = try holdTheQueue(journal, blocker: blocker)
        let r2 = journal.appendLater(key: key, record: Self.record(2), snapshot: nil, after: nil)
        let r3 = journal.appendLater(key: key, record: Self.record(3), snapshot: [3], after: r2)
        let r4 = journal.appendLater(key: key, record: Self.record(4), snapshot: nil, after: r3)
        let o2 = journal.appendLater(key: other, record: Self.record(2), snapshot: nil, after: nil)
        XCTAssertEqual(appends.queuedCount, 4)
        XCTAssertTrue(r2.outcome == nil, "nothing is durable while the transaction before it is held")
        try hold.release()
        for pending in [first, r2, r3, r4, o2] { XCTAssertNil(pending.wait()) }
        XCTAssertEqual(appends.transactions.load(ordering: .relaxed), transactions + 2, "the blocker's, then the four appends of two keys shared one transaction")
        XCTAssertEqual(try journal.records(key: key, after: 1, limit: 10), (2...4).map { JournalRecord(revision: $0, operation: Self.record($0).operation, events: Self.record($0).events) })
        XCTAssertEqual(try journal.plan(key: key, revision: 3), Self.record(3).plan)
        let stored = try XCTUnwrap(journal.load(key: key, upTo: .max).first)
        XCTAssertEqual(stored.snapshotRevision, 3)
        XCTAssertEqual(stored.snapshot, [3])
        XCTAssertEqual(try journal.head(key: other)?.revision, 2)
    }

    /// A batch's keys are announced once it has committed, up to 40 keys per notification
    /// (one line `REVISION KEY` each): 100 keys in one batch make 3 notifications.
    func testABatchOfManyKeysIsAnnouncedFortyKeysPerNotification() throws {
        let url = try XCTUnwrap(Self.cluster).url
        let journal = try journal()
        let listener = try PostgresConnection(url: url)
        try listener.listen(PostgresJournal.channel)
        let prefix = "many-\(UUID().uuidString)-"
        let keys = (0..<100).map { prefix + String(format: "%03d", $0) }, blocker = prefix + "z"
        _ = try journal.createAll((keys + [blocker]).map { ($0, [1]) })
        let hold = try RowHold(url: url, key: blocker)
        let transactions = journal.appends.transactions.load(ordering: .relaxed)
        let first = try holdTheQueue(journal, blocker: blocker)
        let appends = keys.map { journal.appendLater(key: $0, record: Self.record(2), snapshot: nil, after: nil) }
        try hold.release()
        for pending in [first] + appends { XCTAssertNil(pending.wait()) }
        XCTAssertEqual(journal.appends.transactions.load(ordering: .relaxed), transactions + 2, "the blocker's, then the 100 appends in one transaction")
        var payloads: [String] = []
        let deadline = Date().addingTimeInterval(20)
        while payloads.flatMap({ $0.split(separator: "\n") }).count < keys.count, Date() < deadline {
            // Not the creations' (`1 KEY`), nor the blocker's transaction's.
            payloads += try listener.notifications(waitingUpTo: 1).map(\.payload).filter { $0.contains(prefix) && !$0.hasPrefix("1 ") && $0 != "2 " + blocker }
        }
        XCTAssertEqual(payloads.map { $0.split(separator: "\n").count }, [40, 40, 20])
        XCTAssertEqual(payloads.flatMap { $0.split(separator: "\n") }.map(String.init), keys.map { "2 " + $0 })
    }

    func testAConflictInTheMiddleOfABatchLosesEveryAppendBuiltOnItAndNothingElse() throws {
        let url = try XCTUnwrap(Self.cluster).url
        let (mine, theirs) = (try journal(), try PostgresJournal(url: url, connections: 2))
        let (key, other, blocker) = ("middle-\(UUID().uuidString)", "middle-other-\(UUID().uuidString)", "middle-z-\(UUID().uuidString)")
        for k in [key, other, blocker] { _ = try mine.create(key: k, snapshot: [1]) }
        let hold = try RowHold(url: url, key: blocker)
        let first = try holdTheQueue(mine, blocker: blocker)
        // Revisions 2…4 built on this replica's state; another replica then takes revision 2.
        let r2 = mine.appendLater(key: key, record: Self.record(2), snapshot: nil, after: nil)
        let r3 = mine.appendLater(key: key, record: Self.record(3), snapshot: nil, after: r2)
        let r4 = mine.appendLater(key: key, record: Self.record(4), snapshot: nil, after: r3)
        let o2 = mine.appendLater(key: other, record: Self.record(2), snapshot: nil, after: nil)
        let winner = JournalRecord(revision: 2, operation: [99], events: Array("[]".utf8))
        try theirs.append(key: key, record: winner, snapshot: nil)
        try hold.release()
        XCTAssertNil(first.wait())
        for pending in [r2, r3, r4] { XCTAssertEqual(pending.wait(), .conflict(key: key, latest: nil)) }
        XCTAssertNil(o2.wait(), "the other key's append in the same transaction is kept")
        // Revision 3 is free now, but this one was built on the lost revision 2: refused unsent.
        let late = mine.appendLater(key: key, record: Self.record(5), snapshot: nil, after: r4)
        let built = mine.appendLater(key: key, record: JournalRecord(revision: 3, operation: [7], events: []), snapshot: nil, after: late)
        XCTAssertEqual(late.wait(), .conflict(key: key, latest: nil))
        XCTAssertEqual(built.wait(), .conflict(key: key, latest: nil))
        XCTAssertEqual(try mine.head(key: key)?.revision, 2)
        // On the journal's state (what a replica reloads), revision 3 goes in.
        XCTAssertNil(mine.appendLater(key: key, record: Self.record(3), snapshot: nil, after: nil).wait())
        XCTAssertEqual(try mine.records(key: key, after: 1, limit: 10).map(\.operation), [[99], Self.record(3).operation])
    }

    func testAServerGoneMidBatchFailsEveryAppendOfItAndKeepsNothing() throws {
        let cluster = try PostgresCluster()
        let journal = try PostgresJournal(url: cluster.url, connections: 4)
        let (key, blocker) = ("gone-\(UUID().uuidString)", "gone-z-\(UUID().uuidString)")
        for k in [key, blocker] { _ = try journal.create(key: k, snapshot: [1]) }
        let hold = try RowHold(url: cluster.url, key: blocker)
        let first = try holdTheQueue(journal, blocker: blocker)
        let r2 = journal.appendLater(key: key, record: Self.record(2), snapshot: nil, after: nil)
        let r3 = journal.appendLater(key: key, record: Self.record(3), snapshot: nil, after: r2)
        // A crash: with a fast stop, the holder's session could end (releasing its row lock)
        // before the blocked transaction's, which could then commit on its way out.
        try cluster.crash()
        _ = try? hold.release()
        for pending in [first, r2, r3] {
            guard case .unavailable? = pending.wait() else { return XCTFail("\(String(describing: pending.outcome))") }
        }
        let late = journal.appendLater(key: key, record: Self.record(4), snapshot: nil, after: r3)
        XCTAssertEqual(late.wait(), .conflict(key: key, latest: nil))
        try cluster.start()
        // Pooled connections learn of the restart when first used (then they are reset).
        var head: JournalHead?
        for _ in 0...4 {
            do { head = try journal.head(key: key); break } catch JournalError.unavailable {}
        }
        XCTAssertEqual(head?.revision, 1, "nothing of the lost transaction was kept")
        XCTAssertEqual(try journal.head(key: blocker)?.revision, 1)
        XCTAssertNil(journal.appendLater(key: key, record: Self.record(2), snapshot: nil, after: nil).wait(), "the batch's connection reconnects by itself")
        XCTAssertEqual(try journal.records(key: key, after: 1, limit: 10).map(\.revision), [2])
    }
}
