import Dispatch
import Foundation
import JSONCodec
import MicroHTTP
@testable import ScrollStackService
@testable import ScrollStackStore
import SQLite
import Synchronization
import XCTest

/// Writes that arrive while a commit is in progress are committed together in the next
/// transaction; a failed batch fails each of its writers, keeps nothing of them, and each
/// stack involved is as it was.
final class GroupCommitTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ssgroup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Waits (30 s at most) until `count` writers are queued behind the commit in progress;
    /// false if they never were (the tests then fail on what they committed). Polled: a writer
    /// joining the queue announces nothing (it then blocks on its own semaphore).
    @discardableResult
    static func waitUntilQueued(_ committer: GroupCommit, _ count: Int) -> Bool {
        let deadline = Date().addingTimeInterval(30)
        while committer.queuedCount < count, Date() < deadline { sched_yield() }
        return committer.queuedCount == count
    }

    /// Starts `body` on its own thread; the group is left when it returns.
    func spawn(_ group: DispatchGroup, _ body: @escaping @Sendable () -> Void) {
        group.enter()
        Thread { body(); group.leave() }.start()
    }

    func testWritesArrivingDuringACommitAreCommittedTogether() throws {
        let journal = try StackJournal(path: directory.appendingPathComponent("db.sqlite").path)
        let committer = journal.committer
        try journal.database.execute("CREATE TABLE t (k TEXT PRIMARY KEY)")
        let writers = 8
        let inFirst = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        let errors = Mutex<[String]>([])
        spawn(group) {
            do {
                try committer.commit { db throws(SQLiteError) in
                    try db.query("INSERT INTO t VALUES ('first')")
                    inFirst.signal()
                    Self.waitUntilQueued(committer, writers)
                }
            } catch { errors.withLock { $0.append("first: \(error)") } }
        }
        XCTAssertEqual(inFirst.wait(timeout: .now() + 30), .success)
        for i in 0..<writers {
            spawn(group) {
                do { try committer.commit { db throws(SQLiteError) in try db.query("INSERT INTO t VALUES (?)", [.text("w\(i)")]) } } catch {
                    errors.withLock { $0.append("w\(i): \(error)") }
                }
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(errors.withLock { $0 }, [])
        XCTAssertEqual(committer.transactions.load(ordering: .relaxed), 2, "the first write alone, then the 8 queued behind it together")
        XCTAssertEqual(try journal.database.query("SELECT count(*) FROM t").first?.first, .integer(Int64(writers + 1)))
    }

    /// A write that meets damage of the file (`SQLiteError.isDamage`) fails alone, as its
    /// key's `.damaged`; the writes batched with it are committed again without it.
    func testAWriteMeetingDamageFailsAloneAndItsBatchIsCommittedWithoutIt() throws {
        let journal = try StackJournal(path: directory.appendingPathComponent("db.sqlite").path)
        let committer = journal.committer
        try journal.database.execute("CREATE TABLE t (k TEXT PRIMARY KEY)")
        let inFirst = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        spawn(group) {
            try? committer.commit { db throws(SQLiteError) in
                try db.query("INSERT INTO t VALUES ('first')")
                inFirst.signal()
                Self.waitUntilQueued(committer, 3)
            }
        }
        XCTAssertEqual(inFirst.wait(timeout: .now() + 30), .success)
        let insert: (String) -> GroupCommit.Write = { key in { db throws(SQLiteError) in try db.query("INSERT INTO t VALUES (?)", [.text(key)]); return nil } }
        let before = committer.enqueue(key: "before", insert("before"))
        let broken = committer.enqueue(key: "broken") { db throws(SQLiteError) in
            try db.query("INSERT INTO t VALUES ('broken')")
            throw SQLiteError(code: 11, message: "database disk image is malformed")
        }
        let after = committer.enqueue(key: "after", insert("after"))
        XCTAssertEqual(group.wait(timeout: .now() + 60), .success)
        XCTAssertNil(before.wait())
        guard case .damaged("broken", let detail)? = broken.wait() else { return XCTFail("\(String(describing: broken.outcome))") }
        XCTAssertTrue(detail.contains("malformed"), detail)
        XCTAssertNil(after.wait())
        XCTAssertEqual(committer.transactions.load(ordering: .relaxed), 3, "the first, the batch rolled back, the batch again without the damaged write")
        XCTAssertEqual(try journal.database.query("SELECT k FROM t ORDER BY k"), [[.text("after")], [.text("before")], [.text("first")]])
    }

    func testAFailedBatchFailsEachOfItsWritersAndKeepsNothing() throws {
        let journal = try StackJournal(path: directory.appendingPathComponent("db.sqlite").path)
        let committer = journal.committer
        try journal.database.execute("CREATE TABLE t (k TEXT PRIMARY KEY)")
        let inFirst = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        let outcomes = Mutex<[String: Bool]>([:])
        spawn(group) {
            let ok = (try? committer.commit { db throws(SQLiteError) in
                try db.query("INSERT INTO t VALUES ('first')")
                inFirst.signal()
                Self.waitUntilQueued(committer, 3)
            }) != nil
            outcomes.withLock { $0["first"] = ok }
        }
        XCTAssertEqual(inFirst.wait(timeout: .now() + 30), .success)
        for key in ["a", "first", "b"] {  // "first" is taken: that write fails, and with it its batch
            spawn(group) {
                let ok = (try? committer.commit { db throws(SQLiteError) in try db.query("INSERT INTO t VALUES (?)", [.text(key)]) }) != nil
                outcomes.withLock { $0["queued " + key] = ok }
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(outcomes.withLock { $0 }, ["first": true, "queued a": false, "queued first": false, "queued b": false])
        XCTAssertEqual(try journal.database.query("SELECT k FROM t ORDER BY k").compactMap(\.first), [.text("first")])
        try committer.commit { db throws(SQLiteError) in try db.query("INSERT INTO t VALUES ('later')") }
        XCTAssertEqual(try journal.database.query("SELECT count(*) FROM t").first?.first, .integer(2))
    }

    /// Through the service: three stacks' writes queued behind a commit all fail when their
    /// batch fails (the journal turned read-only meanwhile): each answers 503 and its stack
    /// is as it was, in memory and on disk; then each goes on from the same revision.
    func testAFailedBatchAnswers503ToEachWriterAndRestoresTheirStacks() throws {
        let path = directory.appendingPathComponent("db.sqlite").path
        let journal = try StackJournal(path: path)
        let service = StackService(journal: journal)
        let ids = ["a", "b", "c"]
        @Sendable func send(_ method: String, _ path: String, _ body: JSON) -> HTTPResponse {
            service.handle(HTTPRequest(method: method, path: path, headers: [("Content-Type", "application/json")], body: body.serialized()))
        }
        for id in ids { XCTAssertEqual(send("POST", "/v1/stacks", object(("id", .string(id)), ("rows", [row("x")]))).status, 201) }
        let before = ids.map { service.handle(HTTPRequest(method: "GET", path: "/v1/stacks/\($0)")).body }

        let inFirst = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        let statuses = Mutex<[String: Int]>([:])
        spawn(group) {
            try? journal.committer.commit { db throws(SQLiteError) in
                inFirst.signal()
                Self.waitUntilQueued(journal.committer, ids.count)
                try db.execute("PRAGMA query_only = ON")  // the queued batch cannot write
            }
        }
        XCTAssertEqual(inFirst.wait(timeout: .now() + 30), .success)
        for id in ids {
            spawn(group) {
                let status = send("POST", "/v1/stacks/\(id)/rows", object(("rows", [row("new")]))).status
                statuses.withLock { $0[id] = status }
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(statuses.withLock { $0 }, ["a": 503, "b": 503, "c": 503])
        XCTAssertEqual(ids.map { service.handle(HTTPRequest(method: "GET", path: "/v1/stacks/\($0)")).body }, before, "memory is as it was")

        try journal.database.execute("PRAGMA query_only = OFF")
        for id in ids { XCTAssertEqual(send("POST", "/v1/stacks/\(id)/rows", object(("rows", [row("new")]))).header("etag"), "\"2\"") }
        let restarted = StackService(journal: try StackJournal(path: path))
        XCTAssertEqual(try restarted.restore(), 3)
        for id in ids {
            XCTAssertEqual(restarted.handle(HTTPRequest(method: "GET", path: "/v1/stacks/\(id)")).body,
                           service.handle(HTTPRequest(method: "GET", path: "/v1/stacks/\(id)")).body, "disk matches memory")
        }
    }
}
