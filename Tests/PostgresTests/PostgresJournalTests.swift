import Dispatch
import PostgresCluster
import ScrollStackPostgres
import ScrollStackStore
import Synchronization
import XCTest

/// `PostgresJournal` against a real server: the conditional append, incarnations, loads of
/// past revisions, notifications, and two journals (two replicas) racing for one revision.
final class PostgresJournalTests: XCTestCase {
    nonisolated(unsafe) static var cluster: PostgresCluster?

    override class func setUp() {
        super.setUp()
        cluster = try? PostgresCluster()
    }

    override class func tearDown() {
        cluster = nil
        super.tearDown()
    }

    func journal() throws -> PostgresJournal {
        let cluster = try XCTUnwrap(Self.cluster, "the PostgreSQL cluster did not start (Scripts/postgres-cluster.sh)")
        return try PostgresJournal(url: cluster.url, connections: 4)
    }

    static func record(_ revision: Int) -> JournalRecord {
        JournalRecord(revision: revision, operation: [UInt8(revision), 0, 255], events: Array("[\(revision)]".utf8), plan: [7, UInt8(revision)])
    }

    /// Several journals started in one transaction: all of them, or, when one key exists
    /// already, none (the conflict names that key).
    func testCreateAllStartsEveryJournalOrNone() throws {
        let journal = try journal()
        let (a, b, c) = ("all-a-\(UUID().uuidString)", "all-b-\(UUID().uuidString)", "all-c-\(UUID().uuidString)")
        let incarnations = try journal.createAll([(key: a, snapshot: [1]), (key: b, snapshot: [2])])
        XCTAssertEqual(incarnations.count, 2)
        XCTAssertEqual(try journal.head(key: a), JournalHead(incarnation: incarnations[0], revision: 1))
        XCTAssertEqual(try journal.load(key: b, upTo: .max).first?.snapshot, [2])
        XCTAssertThrowsError(try journal.createAll([(key: c, snapshot: [3]), (key: b, snapshot: [4])])) { error in
            XCTAssertEqual(error as? JournalError, .conflict(key: b, latest: 1))
        }
        XCTAssertNil(try journal.head(key: c), "rolled back with the key that existed")
        XCTAssertEqual(try journal.load(key: b, upTo: .max).first?.snapshot, [2])
    }

    func testAppendsOnlyTheNextRevisionAndLoadsAnyPastOne() throws {
        let journal = try journal()
        let key = "append-\(UUID().uuidString)"
        XCTAssertThrowsError(try journal.append(key: key, record: Self.record(2), snapshot: nil)) { error in
            XCTAssertEqual(error as? JournalError, .conflict(key: key, latest: nil))
        }
        let incarnation = try journal.create(key: key, snapshot: [1])
        XCTAssertThrowsError(try journal.create(key: key, snapshot: [9])) { error in
            XCTAssertEqual(error as? JournalError, .conflict(key: key, latest: 1))
        }
        for revision in 2...5 { try journal.append(key: key, record: Self.record(revision), snapshot: revision == 4 ? [4] : nil) }
        XCTAssertThrowsError(try journal.append(key: key, record: Self.record(5), snapshot: nil)) { error in
            XCTAssertEqual(error as? JournalError, .conflict(key: key, latest: 5))
        }
        XCTAssertThrowsError(try journal.append(key: key, record: Self.record(7), snapshot: nil))
        XCTAssertEqual(try journal.head(key: key), JournalHead(incarnation: incarnation, revision: 5))
        let latest = try XCTUnwrap(journal.load(key: key, upTo: .max).first)
        XCTAssertEqual(latest.snapshotRevision, 4)
        XCTAssertEqual(latest.snapshot, [4])
        XCTAssertEqual(latest.records, [JournalRecord(revision: 5, operation: Self.record(5).operation, events: Self.record(5).events)])
        let past = try XCTUnwrap(journal.load(key: key, upTo: 3).first)
        XCTAssertEqual(past.snapshotRevision, 1)
        XCTAssertEqual(past.records.map(\.revision), [2, 3])
        XCTAssertEqual(try journal.records(key: key, after: 2, limit: 2).map(\.revision), [3, 4])
        XCTAssertEqual(try journal.plan(key: key, revision: 3), [7, 3])
    }

    func testASnapshotOfAnEndedIncarnationIsNeverWritten() throws {
        let journal = try journal()
        let key = "incarnation-\(UUID().uuidString)"
        let first = try journal.create(key: key, snapshot: [1])
        try journal.append(key: key, record: Self.record(2), snapshot: nil)
        XCTAssertTrue(try journal.writeSnapshot(key: key, revision: 2, snapshot: [2], incarnation: first))
        try journal.delete(key: key)
        XCTAssertNil(try journal.head(key: key))
        XCTAssertEqual(try journal.load(key: key, upTo: .max), [])
        let second = try journal.create(key: key, snapshot: [10])
        XCTAssertNotEqual(first, second)
        try journal.append(key: key, record: Self.record(2), snapshot: nil)
        XCTAssertFalse(try journal.writeSnapshot(key: key, revision: 2, snapshot: [99], incarnation: first))
        XCTAssertEqual(try journal.load(key: key, upTo: .max).first?.snapshot, [10])
    }

    /// Records read for one incarnation: that incarnation's, none when it has no more, and
    /// nil once the key was deleted and created again, even where the new incarnation's
    /// revisions go on past the ones asked for.
    func testRecordsOfAnIncarnationAreNeverAnotherOnes() throws {
        let journal = try journal()
        let key = "records-\(UUID().uuidString)"
        let first = try journal.create(key: key, snapshot: [1])
        for revision in 2...3 { try journal.append(key: key, record: Self.record(revision), snapshot: nil) }
        XCTAssertEqual(try journal.records(key: key, after: 1, limit: 10, incarnation: first)?.map(\.revision), [2, 3])
        XCTAssertEqual(try journal.records(key: key, after: 2, limit: 1, incarnation: first)?.map(\.revision), [3])
        XCTAssertEqual(try journal.records(key: key, after: 3, limit: 10, incarnation: first)?.map(\.revision), [])
        try journal.delete(key: key)
        XCTAssertNil(try journal.records(key: key, after: 1, limit: 10, incarnation: first))
        let second = try journal.create(key: key, snapshot: [10])
        for revision in 2...5 { try journal.append(key: key, record: Self.record(revision), snapshot: nil) }
        XCTAssertNil(try journal.records(key: key, after: 3, limit: 10, incarnation: first))
        XCTAssertEqual(try journal.records(key: key, after: 3, limit: 10, incarnation: second)?.map(\.revision), [4, 5])
        XCTAssertEqual(try journal.records(key: key, after: 3, limit: 10, incarnation: second)?.map(\.events), [Array("[4]".utf8), Array("[5]".utf8)])
    }

    func testTwoReplicasRacingForEachRevisionWinOnceEach() throws {
        let replicas = [try journal(), try journal()]
        let key = "race-\(UUID().uuidString)"
        _ = try replicas[0].create(key: key, snapshot: [1])
        let wins = Mutex<[Int: [Int]]>([:])
        // Each replica tries revisions 2…101 in order, moving on when it wins or loses.
        DispatchQueue.concurrentPerform(iterations: 2) { replica in
            var revision = 2
            while revision <= 101 {
                do {
                    try replicas[replica].append(key: key, record: Self.record(revision), snapshot: nil)
                    wins.withLock { $0[revision, default: []].append(replica) }
                    revision += 1
                } catch JournalError.conflict(_, let latest?) {
                    revision = latest + 1
                } catch {
                    XCTFail("\(error)")
                    return
                }
            }
        }
        XCTAssertEqual(wins.withLock { $0.keys.sorted() }, Array(2...101))
        XCTAssertTrue(wins.withLock { $0.values.allSatisfy { $0.count == 1 } })
        XCTAssertEqual(try replicas[1].records(key: key, after: 1, limit: 1000).map(\.revision), Array(2...101))
    }

    /// Each committed change is announced, in order here since each waits for the one before;
    /// an append refused as a conflict may repeat the revision the journal stands at (its
    /// announcement checks the journal, not the append), never announce one it has not reached.
    func testEveryCommittedChangeIsAnnounced() throws {
        let journal = try journal()
        let key = "watch-\(UUID().uuidString)"
        let heard = Mutex<[Int]>([])
        let resynchronized = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        journal.watch(changed: { changed, revision in
            guard changed == key else { return }
            heard.withLock { $0.append(revision) }
            if revision == 0 { done.signal() }
        }, resynchronize: { resynchronized.signal() }, poll: {})
        defer { journal.stopWatching() }
        XCTAssertEqual(resynchronized.wait(timeout: .now() + 20), .success, "the watcher never listened")
        _ = try journal.create(key: key, snapshot: [1])
        try journal.append(key: key, record: Self.record(2), snapshot: nil)
        XCTAssertThrowsError(try journal.append(key: key, record: Self.record(2), snapshot: nil))
        try journal.append(key: key, record: Self.record(3), snapshot: nil)
        try journal.append(key: key, record: Self.record(4), snapshot: nil)
        try journal.delete(key: key)
        XCTAssertEqual(done.wait(timeout: .now() + 20), .success, "heard \(heard.withLock { $0 })")
        let announced = heard.withLock { $0 }
        XCTAssertEqual(announced.enumerated().filter { $0.offset == 0 || announced[$0.offset - 1] != $0.element }.map(\.element), [1, 2, 3, 4, 0],
                       "heard \(announced)")
    }
}
