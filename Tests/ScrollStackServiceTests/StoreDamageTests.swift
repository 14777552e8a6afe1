import Foundation
import JSONCodec
import SQLite
import TestHTTPClient
import XCTest

/// Damage to the SQLite file is kept to the stacks it holds, and never rolls a stack back
/// silently: a real daemon on a real data directory, the file damaged by the test (pages
/// overwritten with garbage, rows deleted, a table dropped), checked over HTTP.
final class StoreDamageTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ssdamage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
    }

    var dataDir: String { directory.appendingPathComponent("data").path }
    var databasePath: String { dataDir + "/scrollstack.sqlite" }

    /// Ids of 120 characters: each key of the records' index then takes about 130 bytes, so
    /// 80 revisions of one stack fill several index pages that hold no other stack's keys.
    /// They sort keep < reader < writer.
    static let keep = "keep-" + String(repeating: "k", count: 115)
    static let reader = "reader-" + String(repeating: "r", count: 113)
    static let writer = "writer-" + String(repeating: "w", count: 113)

    func start(_ arguments: [String] = []) throws -> Daemon {
        try Daemon.start(["--data-dir", dataDir, "--log-level", "notice"] + arguments)
    }

    func send(_ daemon: Daemon, _ method: String, _ path: String, _ body: JSON? = nil, headers: [(String, String)] = []) throws -> Reply {
        Reply(try httpRequest(port: daemon.port, method: method, path: path,
                              headers: headers + (body == nil ? [] : [("Content-Type", "application/json")]), body: body?.serialized()))
    }

    /// Creates `id` and gives it `count` more revisions, one row each (revision 1 + count).
    func fill(_ daemon: Daemon, _ id: String, count: Int = 80) throws {
        XCTAssertEqual(try send(daemon, "POST", "/v1/stacks", object(("id", .string(id)))).status, 201)
        for i in 0..<count {
            XCTAssertEqual(try send(daemon, "POST", "/v1/stacks/\(id)/rows", object(("rows", [row("row-\(i)")]))).status, 200)
        }
    }

    /// The leaf pages of the records' index (`sqlite_autoindex_records_1`) that hold keys of
    /// `stack` and of no stack in `others`, read on `database` (a connection of the test's
    /// own) with SQLite's `dbstat` table and the file's bytes: the log must be checkpointed
    /// into the file first.
    func indexPages(of stack: String, notOf others: [String], database: SQLiteDatabase) throws -> [Int] {
        guard case .integer(let pageSize)? = try database.query("PRAGMA page_size").first?.first else { throw DaemonError(message: "no page size") }
        let leaves = try database.query("SELECT pageno FROM dbstat WHERE name = 'sqlite_autoindex_records_1' AND pagetype = 'leaf' ORDER BY pageno")
        let file = try Data(contentsOf: URL(fileURLWithPath: databasePath))
        var pages: [Int] = []
        for case .integer(let page) in leaves.compactMap(\.first) {
            let bytes = file.subdata(in: Int(page - 1) * Int(pageSize)..<Int(page) * Int(pageSize))
            if bytes.range(of: Data(stack.utf8)) != nil && others.allSatisfy({ bytes.range(of: Data($0.utf8)) == nil }) {
                pages.append(Int(page))
            }
        }
        XCTAssertGreaterThanOrEqual(pages.count, 1, "no index page holds \(stack)'s keys alone")
        return pages
    }

    /// Overwrites `pages` of the database file with garbage (not a valid page type).
    func overwrite(pages: [Int], pageSize: Int = 4096) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: databasePath))
        defer { try? handle.close() }
        for page in pages {
            try handle.seek(toOffset: UInt64((page - 1) * pageSize))
            try handle.write(contentsOf: Data(repeating: 0xAB, count: pageSize))
        }
        try handle.synchronize()
    }

    /// A stopped daemon's file, damaged where one stack's keys are: that stack alone answers
    /// 503 `stack_unavailable` naming it (no Retry-After), the others are served as before,
    /// `/healthz` says `degraded` with a count only, and the log and `GET /v1/health` name it.
    func testADamagedPageAtStartMakesOnlyItsStackUnavailable() throws {
        var daemon = try start()
        try fill(daemon, Self.keep)
        try fill(daemon, Self.reader)
        try fill(daemon, Self.writer)
        let kept = try send(daemon, "GET", "/v1/stacks/\(Self.keep)/layout").text
        let written = try send(daemon, "GET", "/v1/stacks/\(Self.writer)").text
        XCTAssertEqual(try daemon.stop(), 0)

        do {
            let database = try SQLiteDatabase(path: databasePath)
            _ = try database.query("PRAGMA wal_checkpoint(TRUNCATE)")
            try overwrite(pages: indexPages(of: Self.reader, notOf: [Self.keep, Self.writer], database: database))
        }

        daemon = try start()
        XCTAssertTrue(daemon.startupLog.contains("cannot restore stack \(Self.reader): its journal is damaged"), daemon.startupLog)
        XCTAssertTrue(daemon.startupLog.contains("restored 2 stacks"), daemon.startupLog)
        let unavailable = try send(daemon, "GET", "/v1/stacks/\(Self.reader)")
        XCTAssertEqual(unavailable.status, 503, unavailable.text)
        XCTAssertEqual(unavailable.errorCode, "stack_unavailable")
        XCTAssertTrue(unavailable["error.message"]?.stringValue?.contains("\"\(Self.reader)\"") == true, unavailable.text)
        XCTAssertNil(unavailable.header("Retry-After"), "retrying cannot help until the file is repaired")
        XCTAssertEqual(try send(daemon, "GET", "/v1/stacks/\(Self.keep)/layout").text, kept, "the other stacks are served as they were")
        XCTAssertEqual(try send(daemon, "GET", "/v1/stacks/\(Self.writer)").text, written)
        XCTAssertEqual(try send(daemon, "POST", "/v1/stacks/\(Self.keep)/rows", object(("rows", [row("after")]))).status, 200)

        let health = try send(daemon, "GET", "/healthz")
        XCTAssertEqual(health.status, 200)
        XCTAssertEqual(health.text, #"{"status":"degraded","unavailableStacks":1}"#)
        let detailed = try send(daemon, "GET", "/v1/health")
        XCTAssertEqual(detailed["unavailableStacks[0].id"]?.stringValue, Self.reader, detailed.text)
        XCTAssertTrue(detailed["unavailableStacks[0].reason"]?.stringValue?.contains("damaged") == true, detailed.text)
        XCTAssertEqual(try send(daemon, "GET", "/v1/stacks").json?.arrayValue?.count, 2, "the list holds the served stacks")
        // Its rows are on the damaged pages: deleting them fails whole, and it stays as it was.
        XCTAssertEqual(try send(daemon, "DELETE", "/v1/stacks/\(Self.reader)").status, 503)
        XCTAssertEqual(try send(daemon, "GET", "/v1/stacks/\(Self.reader)").errorCode, "stack_unavailable")
        XCTAssertEqual(try send(daemon, "GET", "/healthz").text, #"{"status":"degraded","unavailableStacks":1}"#)
        XCTAssertEqual(try daemon.stop(), 0)
    }

    /// Damage met while serving: a history read that meets it, and a write that meets it,
    /// each make their own stack unavailable (503 `stack_unavailable`), the write is not
    /// acknowledged, another stack's write in the same moments is, and after a restart the
    /// same two stacks are unavailable and the third holds every acknowledged write.
    func testDamageMetWhileServingMakesOnlyItsStackUnavailable() throws {
        let daemon = try start()
        try fill(daemon, Self.keep)
        try fill(daemon, Self.reader)
        try fill(daemon, Self.writer)

        do {
            // Another connection: the log is copied into the file, pages are overwritten
            // there, then one write of this connection makes the daemon's connections drop
            // the pages they cached (SQLite does so when another connection wrote).
            let database = try SQLiteDatabase(path: databasePath)
            let checkpoint = try database.query("PRAGMA wal_checkpoint(TRUNCATE)").first
            XCTAssertEqual(checkpoint?.first, .integer(0), "the checkpoint was not blocked")
            let others = [Self.keep, Self.reader, Self.writer]
            try overwrite(pages: indexPages(of: Self.reader, notOf: others.filter { $0 != Self.reader }, database: database)
                + indexPages(of: Self.writer, notOf: others.filter { $0 != Self.writer }, database: database))
            guard case .integer(let format)? = try database.query("PRAGMA user_version").first?.first else { return XCTFail("no user_version") }
            try database.execute("PRAGMA user_version = \(format)")
        }

        let history = try send(daemon, "GET", "/v1/stacks/\(Self.reader)/events?after=0")
        XCTAssertEqual(history.status, 503, history.text)
        XCTAssertEqual(history.errorCode, "stack_unavailable")
        XCTAssertNil(history.header("Retry-After"))
        XCTAssertEqual(try send(daemon, "GET", "/v1/stacks/\(Self.reader)").errorCode, "stack_unavailable", "unavailable from then on")

        let refused = try send(daemon, "POST", "/v1/stacks/\(Self.writer)/rows", object(("rows", [row("lost")])))
        XCTAssertEqual(refused.status, 503, refused.text)
        XCTAssertEqual(refused.errorCode, "stack_unavailable")
        XCTAssertTrue(refused["error.message"]?.stringValue?.contains("\"\(Self.writer)\"") == true, refused.text)
        XCTAssertNil(refused.header("Retry-After"))
        XCTAssertEqual(try send(daemon, "GET", "/v1/stacks/\(Self.writer)").errorCode, "stack_unavailable", "memory is not served past the journal")

        let accepted = try send(daemon, "POST", "/v1/stacks/\(Self.keep)/rows", object(("rows", [row("kept")])))
        XCTAssertEqual(accepted.status, 200, accepted.text)
        XCTAssertEqual(accepted.header("etag"), "\"82\"")
        XCTAssertEqual(try send(daemon, "GET", "/healthz").text, #"{"status":"degraded","unavailableStacks":2}"#)
        let detailed = try send(daemon, "GET", "/v1/health")
        XCTAssertEqual(detailed["unavailableStacks"]?.arrayValue?.compactMap { $0["id"]?.stringValue }, [Self.reader, Self.writer], detailed.text)
        let kept = try send(daemon, "GET", "/v1/stacks/\(Self.keep)").text
        XCTAssertEqual(try daemon.stop(), 0)
        let log = daemon.log()
        XCTAssertTrue(log.contains("stack \(Self.reader) is unavailable: its journal is damaged"), log)
        XCTAssertTrue(log.contains("stack \(Self.writer) is unavailable: its journal is damaged"), log)

        let restarted = try start()
        XCTAssertEqual(try send(restarted, "GET", "/v1/stacks/\(Self.keep)").text, kept, "every acknowledged write is there")
        XCTAssertEqual(try send(restarted, "GET", "/v1/stacks/\(Self.reader)").errorCode, "stack_unavailable")
        XCTAssertEqual(try send(restarted, "GET", "/v1/stacks/\(Self.writer)").errorCode, "stack_unavailable")
        XCTAssertEqual(try send(restarted, "GET", "/healthz").text, #"{"status":"degraded","unavailableStacks":2}"#)
        XCTAssertEqual(try restarted.stop(), 0)
    }

    /// Records deleted between a stack's snapshot and its head: the stack is not restored at
    /// the older revision they leave; it answers 503 naming the missing revisions.
    func testDeletedRecordsMakeTheStackUnavailableNotOlder() throws {
        var daemon = try start()
        try fill(daemon, Self.keep, count: 10)
        try fill(daemon, "rolled", count: 10)
        let kept = try send(daemon, "GET", "/v1/stacks/\(Self.keep)").text
        XCTAssertEqual(try daemon.stop(), 0)
        try SQLiteDatabase(path: databasePath).query("DELETE FROM records WHERE stack = 'rolled' AND revision > 6")

        daemon = try start()
        let unavailable = try send(daemon, "GET", "/v1/stacks/rolled")
        XCTAssertEqual(unavailable.status, 503, "not revision 6 served as the latest: \(unavailable.text)")
        XCTAssertEqual(unavailable.errorCode, "stack_unavailable")
        XCTAssertTrue(unavailable["error.message"]?.stringValue?.contains("revisions 7…11 are missing") == true, unavailable.text)
        XCTAssertTrue(daemon.startupLog.contains("cannot restore stack rolled: its journal is damaged"), daemon.startupLog)
        XCTAssertEqual(try send(daemon, "GET", "/v1/stacks/\(Self.keep)").text, kept)
        XCTAssertEqual(try send(daemon, "GET", "/healthz").text, #"{"status":"degraded","unavailableStacks":1}"#)
        XCTAssertEqual(try daemon.stop(), 0)
    }

    /// Every snapshot of a stack deleted: the stack does not vanish (404) nor come back
    /// empty; it answers 503 saying it has no snapshot to start from.
    func testDeletedSnapshotsMakeTheStackUnavailableNotGone() throws {
        var daemon = try start()
        try fill(daemon, Self.keep, count: 3)
        try fill(daemon, "unanchored", count: 3)
        XCTAssertEqual(try daemon.stop(), 0)
        try SQLiteDatabase(path: databasePath).query("DELETE FROM snapshots WHERE stack = 'unanchored'")

        daemon = try start()
        let unavailable = try send(daemon, "GET", "/v1/stacks/unanchored")
        XCTAssertEqual(unavailable.status, 503, unavailable.text)
        XCTAssertEqual(unavailable.errorCode, "stack_unavailable")
        XCTAssertTrue(unavailable["error.message"]?.stringValue?.contains("no snapshot at or before revision 4") == true, unavailable.text)
        XCTAssertEqual(try send(daemon, "GET", "/v1/stacks/\(Self.keep)").status, 200)
        XCTAssertEqual(try send(daemon, "GET", "/healthz").text, #"{"status":"degraded","unavailableStacks":1}"#)
        XCTAssertEqual(try send(daemon, "POST", "/v1/stacks", object(("id", "unanchored"))).status, 409, "its id stays taken until deleted")
        XCTAssertEqual(try send(daemon, "DELETE", "/v1/stacks/unanchored").status, 204)
        XCTAssertEqual(try send(daemon, "GET", "/healthz").text, #"{"status":"ok"}"#)
        XCTAssertEqual(try send(daemon, "POST", "/v1/stacks", object(("id", "unanchored"))).status, 201)
        XCTAssertEqual(try daemon.stop(), 0)
    }

    /// Rows the catalogue of heads does not account for, as a server that kept no heads
    /// would leave them writing the file after this one: a record past a stack's head, a
    /// stack's snapshot with no head. Neither stack is served without them, nor dropped.
    func testRowsPastTheCatalogueMakeTheirStacksUnavailable() throws {
        var daemon = try start()
        try fill(daemon, Self.keep, count: 2)
        try fill(daemon, "appended", count: 2)
        XCTAssertEqual(try daemon.stop(), 0)
        let database = try SQLiteDatabase(path: databasePath)
        try database.query("INSERT INTO records (stack, revision, operation, events) SELECT stack, 4, operation, events FROM records WHERE stack = 'appended' AND revision = 3")
        try database.query("INSERT INTO snapshots (stack, revision, model) SELECT 'headless', 1, model FROM snapshots WHERE stack = 'appended' AND revision = 1")

        daemon = try start()
        let appended = try send(daemon, "GET", "/v1/stacks/appended")
        XCTAssertEqual(appended.errorCode, "stack_unavailable", "not revision 3 of 4: \(appended.text)")
        XCTAssertTrue(appended["error.message"]?.stringValue?.contains("records up to revision 4, past its recorded head 3") == true, appended.text)
        XCTAssertEqual(try send(daemon, "GET", "/v1/stacks/headless").errorCode, "stack_unavailable", "not 404")
        XCTAssertEqual(try send(daemon, "GET", "/v1/stacks/\(Self.keep)").status, 200)
        XCTAssertEqual(try send(daemon, "GET", "/healthz").text, #"{"status":"degraded","unavailableStacks":2}"#)
        XCTAssertEqual(try daemon.stop(), 0)
    }

    /// A journal table dropped: the daemon does not start (nothing would be served as it
    /// was), its log names the table, and the file is left as it was (no table created).
    func testADroppedTableIsAStartErrorNamingIt() throws {
        let daemon = try start()
        try fill(daemon, Self.keep, count: 3)
        XCTAssertEqual(try daemon.stop(), 0)
        try SQLiteDatabase(path: databasePath).execute("DROP TABLE records")

        let refused = try DaemonProcess(["--port", "0", "--data-dir", dataDir, "--log-level", "notice"])
        XCTAssertNotEqual(try refused.finish(seconds: 60), 0, refused.text)
        XCTAssertTrue(refused.text.contains("lacks the table records"), refused.text)
        XCTAssertFalse(refused.text.contains("listening on"), refused.text)
        XCTAssertEqual(try SQLiteDatabase(path: databasePath).query("SELECT name FROM sqlite_master WHERE name = 'records'"), [], "nothing was created")
    }

    /// `GET /v1/health` is behind the access tokens like every /v1 path; `/healthz` is not,
    /// and tells anyone only the count.
    func testTheUnavailableStacksIdsNeedAToken() throws {
        var daemon = try start()
        try fill(daemon, "secret-name", count: 1)
        XCTAssertEqual(try daemon.stop(), 0)
        try SQLiteDatabase(path: databasePath).query("DELETE FROM snapshots WHERE stack = 'secret-name'")

        daemon = try start(["--tokens", "health-test-token-0123456789 read"])
        let anonymous = try send(daemon, "GET", "/healthz")
        XCTAssertEqual(anonymous.text, #"{"status":"degraded","unavailableStacks":1}"#)
        XCTAssertEqual(try send(daemon, "GET", "/v1/health").status, 401)
        let detailed = try send(daemon, "GET", "/v1/health", headers: [("Authorization", "Bearer health-test-token-0123456789")])
        XCTAssertEqual(detailed.status, 200, detailed.text)
        XCTAssertEqual(detailed["status"]?.stringValue, "degraded")
        XCTAssertEqual(detailed["unavailableStacks[0].id"]?.stringValue, "secret-name")
        XCTAssertEqual(try daemon.stop(), 0)
    }
}
