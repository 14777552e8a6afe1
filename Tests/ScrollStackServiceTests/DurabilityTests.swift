import Foundation
import JSONCodec
import MicroHTTP
@testable import ScrollStackCore
@testable import ScrollStackService
@testable import ScrollStackStore
import Synchronization
import TestHTTPClient
import TestSeeds
import XCTest

/// Restarts and crashes lose nothing that was acknowledged.
final class DurabilityTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ssdurable-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Calls the service directly; `target` may carry a query string.
    func call(_ service: StackService, _ method: String, _ target: String, _ body: JSON? = nil) -> HTTPResponse {
        let parts = target.split(separator: "?", maxSplits: 1)
        let query = parts.count > 1 ? parts[1].split(separator: "&").map { pair -> (name: String, value: String) in
            let kv = pair.split(separator: "=", maxSplits: 1)
            return (String(kv[0]), kv.count > 1 ? String(kv[1]) : "")
        } : []
        return service.handle(HTTPRequest(method: method, path: String(parts[0]), query: query,
                                          headers: body == nil ? [] : [("Content-Type", "application/json")], body: body?.serialized() ?? []))
    }

    /// Mutate, stop, start on the same journal: every stack, its history and its layout are
    /// byte for byte the same. A small snapshot interval makes the restart use snapshots.
    func testRestartRestoresEveryStackByteForByte() throws {
        let path = directory.appendingPathComponent("db.sqlite").path
        var before: [String: [UInt8]] = [:]
        do {
            let service = StackService(journal: try StackJournal(path: path, snapshotInterval: 7))
            XCTAssertEqual(try service.restore(), 0)
            for s in 0..<3 {
                XCTAssertEqual(call(service, "POST", "/v1/stacks", object(("id", .string("s\(s)")), ("rows", [row("a"), row("b")]))).status, 201)
                for i in 0..<20 {
                    let path = "/v1/stacks/s\(s)"
                    let responses = [
                        call(service, "POST", path + "/rows", object(("rows", [object(("view", object(("type", "V"), ("props", object(("n", .real(0.1 * Double(i))))))), ("size", object(("fixed", .real(10.3 + Double(i))))))]), ("at", object(("index", 1))))),
                        call(service, "PATCH", path + "/rows/at/0", object(("hidden", .bool(i % 2 == 0)))),
                        call(service, "POST", path + "/scroll", object(("offset", object(("x", 0), ("y", .real(Double(i) * 3.7)))))),
                        call(service, "PATCH", path, object(("spacing", .real(Double(i) / 3)))),
                    ]
                    XCTAssertEqual(responses.map(\.status), [200, 200, 200, 200])
                }
            }
            XCTAssertEqual(call(service, "POST", "/v1/stacks", object(("id", "gone"))).status, 201)
            XCTAssertEqual(call(service, "DELETE", "/v1/stacks/gone").status, 204)
            for s in 0..<3 {
                for path in ["/v1/stacks/s\(s)", "/v1/stacks/s\(s)/layout", "/v1/stacks/s\(s)/events?limit=1000"] {
                    before[path] = call(service, "GET", path).body
                }
            }
            before["/v1/stacks"] = call(service, "GET", "/v1/stacks").body
        }
        let restarted = StackService(journal: try StackJournal(path: path, snapshotInterval: 7))
        XCTAssertEqual(try restarted.restore(), 3)
        XCTAssertEqual(before.count, 10)
        for (path, body) in before {
            XCTAssertTrue(body.count > 20, path)
            XCTAssertEqual(String(decoding: call(restarted, "GET", path).body, as: UTF8.self), String(decoding: body, as: UTF8.self), path)
        }
        XCTAssertEqual(call(restarted, "GET", "/v1/stacks/gone").status, 404)
        // It goes on where it stopped.
        let next = call(restarted, "POST", "/v1/stacks/s0/rows", object(("rows", [row("z")])))
        XCTAssertEqual(next.header("etag"), "\"82\"")
    }

    /// A write the journal refuses answers 503 and leaves the stack as it was, in memory and
    /// on disk; the next write goes on from the same revision.
    func testAFailedJournalWriteAnswers503AndChangesNothing() throws {
        let path = directory.appendingPathComponent("db.sqlite").path
        let journal = try StackJournal(path: path)
        let service = StackService(journal: journal)
        XCTAssertEqual(call(service, "POST", "/v1/stacks", object(("id", "s"), ("rows", [row("a")]))).status, 201)
        XCTAssertEqual(call(service, "POST", "/v1/stacks/s/rows", object(("rows", [row("b")]))).status, 200)
        let before = call(service, "GET", "/v1/stacks/s").body

        try journal.database.execute("PRAGMA query_only = ON")  // every write now fails
        let refused = call(service, "POST", "/v1/stacks/s/rows", object(("rows", [row("c")])))
        XCTAssertEqual(refused.status, 503)
        XCTAssertEqual(try JSON.parse(refused.body)["error"]?["code"], "storage_unavailable")
        XCTAssertEqual(call(service, "GET", "/v1/stacks/s").body, before, "memory is as it was")
        XCTAssertEqual(call(service, "DELETE", "/v1/stacks/s").status, 503)
        XCTAssertEqual(call(service, "POST", "/v1/stacks", object(("id", "t"))).status, 503)
        XCTAssertEqual(call(service, "GET", "/v1/stacks/t").status, 404, "a stack that could not be journaled does not exist")

        try journal.database.execute("PRAGMA query_only = OFF")
        let next = call(service, "POST", "/v1/stacks/s/rows", object(("rows", [row("c")])))
        XCTAssertEqual(next.status, 200)
        XCTAssertEqual(next.header("etag"), "\"3\"", "the refused write used no revision")
        let restarted = StackService(journal: try StackJournal(path: path))
        XCTAssertEqual(try restarted.restore(), 1)
        XCTAssertEqual(call(restarted, "GET", "/v1/stacks/s").body, call(service, "GET", "/v1/stacks/s").body, "disk matches memory")
    }

    /// A backend that appends at once (no queue) and refuses appends while `refusing` is set.
    final class RefusingJournal: SQLiteBackedJournal {
        let inner: SQLiteJournal
        let refusing = Atomic<Bool>(false)

        init() throws { inner = try SQLiteJournal(path: ":memory:") }

        func append(key: String, record: JournalRecord, snapshot: [UInt8]?) throws(JournalError) {
            if refusing.load(ordering: .relaxed) { throw .failed("injected append failure") }
            try inner.append(key: key, record: record, snapshot: snapshot)
        }
    }

    /// On a journal that appends at once, a refused append answers 503 while the stack's
    /// lock is still held: the stack is put back as the journal has it, the revision is not
    /// used, and the next write goes on from there (a plain insert, an animated one, a row
    /// replaced).
    func testAnAppendRefusedAtOnceAnswers503AndChangesNothing() throws {
        let backend = try RefusingJournal()
        let service = StackService(journal: StackJournal(backend: backend))
        XCTAssertEqual(call(service, "POST", "/v1/stacks", object(("id", "s"), ("rows", [row("a")]))).status, 201)
        XCTAssertEqual(call(service, "POST", "/v1/stacks/s/rows", object(("rows", [row("b")]))).status, 200)
        let before = call(service, "GET", "/v1/stacks/s")
        let layoutBefore = call(service, "GET", "/v1/stacks/s/layout").body

        backend.refusing.store(true, ordering: .relaxed)
        let writes: [(String, String, JSON)] = [
            ("POST", "/v1/stacks/s/rows", object(("rows", [row("c")]))),
            ("POST", "/v1/stacks/s/rows", object(("rows", [row("c")]), ("animation", true))),
            ("PUT", "/v1/stacks/s/rows/a", row("a", 90)),
        ]
        for (method, target, body) in writes {
            let refused = call(service, method, target, body)
            XCTAssertEqual(refused.status, 503, "\(method) \(target)")
            XCTAssertEqual(try JSON.parse(refused.body)["error"]?["code"], "storage_unavailable")
            let now = call(service, "GET", "/v1/stacks/s")
            XCTAssertEqual(String(decoding: now.body, as: UTF8.self), String(decoding: before.body, as: UTF8.self),
                           "memory is as it was after \(method) \(target)")
            XCTAssertEqual(now.header("etag"), "\"2\"")
            XCTAssertEqual(String(decoding: call(service, "GET", "/v1/stacks/s/layout").body, as: UTF8.self),
                           String(decoding: layoutBefore, as: UTF8.self))
        }

        backend.refusing.store(false, ordering: .relaxed)
        let next = call(service, "POST", "/v1/stacks/s/rows", object(("rows", [row("c")]), ("animation", true)))
        XCTAssertEqual(next.status, 200)
        XCTAssertEqual(next.header("etag"), "\"3\"", "the refused writes used no revision")
        XCTAssertEqual(try JSON.parse(next.body)["transition"]?["revision"], 3)
    }

    /// Every past revision reads back exactly as it was answered then, stack and layout; a
    /// revert makes a new revision equal to an old one, and survives a restart.
    func testPastRevisionsAndRevert() throws {
        let path = directory.appendingPathComponent("db.sqlite").path
        let service = StackService(journal: try StackJournal(path: path, snapshotInterval: 3))
        XCTAssertEqual(call(service, "POST", "/v1/stacks", object(("id", "s"), ("viewport", object(("width", 100), ("height", 100))), ("rows", [row("a")]))).status, 201)
        var stacks = [1: call(service, "GET", "/v1/stacks/s").body]
        var layouts = [1: call(service, "GET", "/v1/stacks/s/layout").body]
        let mutations: [(String, String, JSON)] = [
            ("POST", "/v1/stacks/s/rows", object(("rows", [row("b"), row("c", 10)]))),
            ("PATCH", "/v1/stacks/s/rows/a", object(("hidden", true))),
            ("PATCH", "/v1/stacks/s", object(("spacing", 5))),
            ("POST", "/v1/stacks/s/scroll", object(("offset", object(("x", 0), ("y", 30))))),
            ("POST", "/v1/stacks/s/rows/c/move", object(("to", 0))),
            ("POST", "/v1/stacks/s/rows", object(("rows", [row("d")]), ("at", "top"))),
            ("POST", "/v1/stacks/s/rows/batch", object(("op", "remove"), ("rows", ["b"]))),
        ]
        for (i, (method, path, body)) in mutations.enumerated() {
            XCTAssertEqual(call(service, method, path, body).status, 200, path)
            stacks[i + 2] = call(service, "GET", "/v1/stacks/s").body
            layouts[i + 2] = call(service, "GET", "/v1/stacks/s/layout").body
        }
        for revision in 1...8 {
            XCTAssertEqual(call(service, "GET", "/v1/stacks/s?revision=\(revision)").body, stacks[revision], "stack at \(revision)")
            XCTAssertEqual(call(service, "GET", "/v1/stacks/s/layout?revision=\(revision)").body, layouts[revision], "layout at \(revision)")
        }
        XCTAssertEqual(call(service, "GET", "/v1/stacks/s?revision=9").status, 404)
        XCTAssertEqual(call(service, "GET", "/v1/stacks/s?revision=0").status, 404)
        XCTAssertEqual(call(service, "GET", "/v1/stacks/s?revision=x").status, 400)

        let reverted = call(service, "POST", "/v1/stacks/s/revert", object(("to", 3)))
        XCTAssertEqual(reverted.status, 200)
        XCTAssertEqual(reverted.header("etag"), "\"9\"")
        func withoutRevision(_ body: [UInt8]?) -> JSON? {
            guard case .object(var o)? = body.flatMap({ try? JSON.parse($0) }) else { return nil }
            o["revision"] = nil
            return .object(o)
        }
        XCTAssertEqual(withoutRevision(call(service, "GET", "/v1/stacks/s").body), withoutRevision(stacks[3]), "revision 9 equals revision 3")
        let events = (try JSON.parse(reverted.body))["events"]?.arrayValue?.compactMap { $0["type"]?.stringValue } ?? []
        XCTAssertTrue(events.contains("didScroll") && events.contains("contentSizeChanged"), "\(events)")
        XCTAssertEqual(call(service, "POST", "/v1/stacks/s/revert", object(("to", 10))).status, 422)

        let restarted = StackService(journal: try StackJournal(path: path, snapshotInterval: 3))
        XCTAssertEqual(try restarted.restore(), 1)
        XCTAssertEqual(call(restarted, "GET", "/v1/stacks/s").body, call(service, "GET", "/v1/stacks/s").body)
        XCTAssertEqual(call(restarted, "GET", "/v1/stacks/s?revision=6").body, stacks[6])
    }

    func testHistoryPagesThroughEventsWithTheirRevisions() throws {
        let service = StackService()
        XCTAssertEqual(call(service, "POST", "/v1/stacks", object(("id", "s"))).status, 201)
        for i in 0..<5 { XCTAssertEqual(call(service, "POST", "/v1/stacks/s/rows", object(("rows", [row("r\(i)")]))).status, 200) }
        let page = try JSON.parse(call(service, "GET", "/v1/stacks/s/events?after=2&limit=2").body)
        let events = page["events"]?.arrayValue ?? []
        XCTAssertEqual(Set(events.compactMap { $0["revision"]?.int64Value }), [3, 4])
        XCTAssertEqual(untimed(page["events"])?.arrayValue?.first, object(("type", "rowAdded"), ("id", "r1"), ("index", 1), ("revision", 3)))
        XCTAssertEqual(page["revision"], 6)
        // The same events the mutation answered with.
        let answer = try JSON.parse(call(service, "POST", "/v1/stacks/s/rows", object(("rows", [row("x")]))).body)
        let logged = try JSON.parse(call(service, "GET", "/v1/stacks/s/events?after=6").body)
        XCTAssertEqual(untimed(logged["events"])?.arrayValue?.map { event -> JSON in
            guard case .object(var o) = event else { return event }
            o["revision"] = nil
            return .object(o)
        }, answer["events"]?.arrayValue, "the history adds each event's time and revision")
        XCTAssertEqual(call(service, "GET", "/v1/stacks/s/events?limit=0").status, 400)
    }

    /// 30 times: several clients write; the daemon is killed with SIGKILL at a random moment;
    /// on restart every acknowledged mutation is there, and none is half-applied (each one
    /// inserts a pair of rows: both or neither).
    func testSIGKILLLosesNoAcknowledgedMutation() throws {
        let dataDir = directory.appendingPathComponent("data").path
        var acknowledged: [String: Int] = [:]  // pair id → revision
        // The kills' moments are the test's only random input: seeded and printed, so a
        // failure can be replayed (SCROLLSTACK_SEED).
        let seed = TestSeed.seed("DurabilityTests.testSIGKILLLosesNoAcknowledgedMutation")
        var generator = SplitMix64(seed: seed)
        var port = 0
        for cycle in 0..<30 {
            let daemon = try Daemon.start(["--data-dir", dataDir, "--log-level", "notice"])
            let process = daemon.process
            port = daemon.port
            // Everything acknowledged so far is there, and pairs are whole.
            try check(port: port, acknowledged: acknowledged, cycle: cycle)
            if cycle == 0 {
                XCTAssertEqual(try httpRequest(port: port, method: "POST", path: "/v1/stacks", headers: [("Content-Type", "application/json")],
                                               body: object(("id", "crash")).serialized()).status, 201)
            }
            // Clients write until the kill.
            let acks = Mutex<[(String, Int)]>([])
            let stop = Atomic<Bool>(false)
            let serverPort = port
            let clients = startThreads(3) { client in
                guard let connection = try? TestHTTPConnection(port: serverPort) else { return }
                var n = 0
                while !stop.load(ordering: .relaxed) {
                    let pair = "c\(cycle)-\(client)-\(n)"
                    n += 1
                    let body = object(("rows", [row(pair + "a"), row(pair + "b")]))
                    guard let response = try? connection.send(method: "POST", path: "/v1/stacks/crash/rows",
                                                               headers: [("Content-Type", "application/json")], body: body.serialized()) else { return }
                    if response.status == 200, let revision = Reply(response)["revision"]?.int64Value {
                        acks.withLock { $0.append((pair, Int(revision))) }
                    }
                }
            }
            // A random moment to kill at, not a synchronization: whatever the clients got
            // acknowledged by then must survive.
            let delay = UInt32.random(in: 20_000...150_000, using: &generator)
            print("cycle \(cycle): SIGKILL after \(delay / 1000) ms")
            usleep(delay)
            kill(process.processIdentifier, SIGKILL)
            process.waitForExit(within: 30)
            stop.store(true, ordering: .relaxed)
            // The clients' reads fail once the server is gone, so they finish; the deadline only bounds a bug.
            XCTAssertEqual(clients.wait(timeout: .now() + 60), .success, "cycle \(cycle): clients still running 60 s after the kill")
            for (pair, revision) in acks.withLock({ $0 }) { acknowledged[pair] = revision }
        }
        XCTAssertGreaterThan(acknowledged.count, 30, "too few writes acknowledged to mean anything")
        // A last restart to check the final cycle's writes.
        let last = try Daemon.start(["--data-dir", dataDir, "--log-level", "notice"])
        try check(port: last.port, acknowledged: acknowledged, cycle: 30)
        last.process.terminate()
        last.process.waitForExit(within: 30)
    }

    private func check(port: Int, acknowledged: [String: Int], cycle: Int) throws {
        let response = try httpRequest(port: port, method: "GET", path: "/v1/stacks/crash")
        guard response.status == 200 else {
            XCTAssertTrue(acknowledged.isEmpty && cycle == 0, "cycle \(cycle): the stack is missing (\(response.status))")
            return
        }
        let reply = Reply(response)
        let ids = Set((reply["rows"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue })
        let revision = Int(reply["revision"]?.int64Value ?? 0)
        for (pair, acked) in acknowledged {
            XCTAssertTrue(ids.contains(pair + "a") && ids.contains(pair + "b"), "cycle \(cycle): acknowledged \(pair) (revision \(acked)) is missing")
            XCTAssertLessThanOrEqual(acked, revision, "cycle \(cycle)")
        }
        for id in ids where id.hasSuffix("a") {
            XCTAssertTrue(ids.contains(String(id.dropLast()) + "b"), "cycle \(cycle): \(id) is half of a pair")
        }
        XCTAssertEqual(ids.count, 2 * (revision - 1), "cycle \(cycle): every revision after the first added one pair")
    }
}
