import ScrollStackPostgres
import ScrollStackStore
import Synchronization
import XCTest

/// What `PostgresJournal` reports of its transactions (`StackJournal.observeCommits`, for
/// metrics), and the incarnation an append may name.
extension PostgresJournalTests {
    func testEveryTransactionOfAppendsIsReportedWithItsWrites() throws {
        let cluster = try XCTUnwrap(Self.cluster, "the PostgreSQL cluster did not start (Scripts/postgres-cluster.sh)")
        let backend = try PostgresJournal(url: cluster.url, connections: 4)
        let journal = StackJournal(backend: backend)
        let reported = Mutex<[(writes: Int, nanoseconds: UInt64)]>([])
        journal.observeCommits { writes, nanoseconds in reported.withLock { $0.append((writes, nanoseconds)) } }
        let key = "reported-\(UUID().uuidString)"
        _ = try backend.create(key: key, snapshot: [1])
        var after: PendingWrite?
        var pending: [PendingWrite] = []
        for revision in 2...6 {
            let write = journal.recordMutationLater(id: key, record: Self.record(revision), snapshot: nil, after: after)
            pending.append(write)
            after = write
        }
        XCTAssertEqual(pending.map { $0.wait() }, Array(repeating: nil, count: 5))
        let transactions = reported.withLock { $0 }
        XCTAssertEqual(transactions.map(\.writes).reduce(0, +), 5, "every write reported once")
        XCTAssertTrue(transactions.allSatisfy { $0.nanoseconds > 0 })
        XCTAssertEqual(try backend.head(key: key)?.revision, 6)
    }

    func testAnAppendNamingAnotherIncarnationConflictsAndWritesNothing() throws {
        let journal = try journal()
        let key = "incarnation-\(UUID().uuidString)"
        let former = try journal.create(key: key, snapshot: [1])
        try journal.delete(key: key)
        let current = try journal.create(key: key, snapshot: [2])
        XCTAssertNotEqual(former, current)
        XCTAssertEqual(journal.appendLater(key: key, record: Self.record(2), snapshot: nil, after: nil, incarnation: former).wait(),
                       .conflict(key: key, latest: nil))
        XCTAssertEqual(try journal.head(key: key), JournalHead(incarnation: current, revision: 1))
        XCTAssertNil(journal.appendLater(key: key, record: Self.record(2), snapshot: nil, after: nil, incarnation: current).wait())
        XCTAssertEqual(try journal.head(key: key), JournalHead(incarnation: current, revision: 2))
    }
}
