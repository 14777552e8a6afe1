import Foundation
import JSONCodec
import MicroHTTP
@testable import ScrollStackService
import ScrollStackStore
import Synchronization
import XCTest

/// Pipelined writes (Semantics.md, "Pipelined writes"), over a backend whose commits the test
/// holds and then completes or fails (`HeldJournal`): one stack's writes are in flight
/// together; nothing is answered, read or streamed before it is durable; a failed commit
/// loses every write in flight behind it and nothing of them is ever seen.
final class PipelinedWriteTests: XCTestCase {
    var held: HeldJournal!
    var service: StackService!

    override func setUpWithError() throws {
        held = try HeldJournal()
        service = StackService(journal: StackJournal(backend: held))
    }

    @discardableResult
    func send(_ method: String, _ path: String, _ body: JSON? = nil, headers: [(String, String)] = []) -> HTTPResponse {
        Self.send(service, method, path, body, headers: headers, query: [])
    }

    static func send(_ service: StackService, _ method: String, _ path: String, _ body: JSON?, headers: [(String, String)],
                     query: [(name: String, value: String)]) -> HTTPResponse {
        service.handle(HTTPRequest(method: method, path: path, query: query, headers: [("Content-Type", "application/json")] + headers,
                                   body: body?.serialized() ?? []))
    }

    /// Responses by name, recorded by the threads that got them.
    final class Answers: Sendable {
        private let map = Mutex<[String: HTTPResponse]>([:])
        func withLock<T>(_ body: (inout [String: HTTPResponse]) -> T) -> T { map.withLock { body(&$0) } }
    }

    /// Runs `send` on a thread of its own, recording the response under `name`.
    func spawn(_ group: DispatchGroup, _ answers: Answers, _ name: String,
               _ method: String, _ path: String, _ body: JSON? = nil, headers: [(String, String)] = [],
               query: [(name: String, value: String)] = []) {
        group.enter()
        let service = service!
        Thread {
            let response = Self.send(service, method, path, body, headers: headers, query: query)
            answers.withLock { $0[name] = response }
            group.leave()
        }.start()
    }

    /// Waits (30 s at most) until `count` threads wait for the newest held append.
    func waitUntilWaiting(_ count: Int) -> Bool {
        let deadline = Date().addingTimeInterval(30)
        while (held.waiting.last?.pending.waiting ?? 0) < count, Date() < deadline { sched_yield() }
        return (held.waiting.last?.pending.waiting ?? 0) >= count
    }

    func rowIDs(_ response: HTTPResponse?) -> [String] {
        guard let body = response?.body, let rows = (try? JSON.parse(body))?["rows"]?.arrayValue else { return [] }
        return rows.compactMap { $0["id"]?.stringValue }
    }

    /// The journal read back by a fresh service gives the same stack as memory.
    func assertJournalMatchesMemory(_ id: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let restarted = StackService(journal: StackJournal(backend: held.inner))
        XCTAssertEqual(try restarted.restore(), 1, file: file, line: line)
        XCTAssertEqual(restarted.handle(HTTPRequest(method: "GET", path: "/v1/stacks/\(id)")).body,
                       service.handle(HTTPRequest(method: "GET", path: "/v1/stacks/\(id)")).body, "disk matches memory", file: file, line: line)
    }

    func testOneStacksWritesAreInFlightTogetherAndAnsweredReadAndStreamedOnlyOnceDurable() throws {
        XCTAssertEqual(send("POST", "/v1/stacks", object(("id", "s"))).status, 201)
        let server = try ServerHarness(service: service)
        defer { server.stop() }
        let events = try LiveEventsTests.EventReader(port: server.port, stack: "s")
        let group = DispatchGroup(), answers = Answers()
        for i in 0..<8 { spawn(group, answers, "w\(i)", "POST", "/v1/stacks/s/rows", object(("rows", [row("r\(i)")]))) }
        XCTAssertTrue(held.waitUntilHeld(8), "the eight writes are in flight at once (the stack's lock is not held until durable)")
        spawn(group, answers, "read", "GET", "/v1/stacks/s")
        // A past revision in flight is not in the journal yet: read once it is.
        spawn(group, answers, "past", "GET", "/v1/stacks/s/layout", query: [("revision", "9")])
        XCTAssertTrue(waitUntilWaiting(3), "the newest write's writer and both readers wait for it")
        XCTAssertEqual(answers.withLock { $0.count }, 0, "nothing is answered before it is durable")

        held.release(8, failing: false)
        XCTAssertEqual(group.wait(timeout: .now() + 30), .success)
        let answered = answers.withLock { $0 }
        XCTAssertEqual(Set((0..<8).compactMap { answered["w\($0)"]?.status }), [200])
        XCTAssertEqual(Set((0..<8).compactMap { answered["w\($0)"]?.header("etag") }), Set((2...9).map { "\"\($0)\"" }))
        XCTAssertEqual(answered["read"]?.header("etag"), "\"9\"")
        XCTAssertEqual(answered["past"]?.status, 200)
        XCTAssertEqual(Set(rowIDs(answered["read"])), Set((0..<8).map { "r\($0)" }))
        var streamed: [Int] = []
        while streamed.count < 8, let message = try events.next() { streamed.append(message.revision) }
        XCTAssertEqual(streamed, Array(2...9), "every durable revision once, in order")
        try assertJournalMatchesMemory("s")
    }

    func testAFailedCommitLosesEveryWriteInFlightAndNoneOfItIsEverSeen() throws {
        XCTAssertEqual(send("POST", "/v1/stacks", object(("id", "s"), ("rows", [row("a")]))).status, 201)
        let server = try ServerHarness(service: service)
        defer { server.stop() }
        let events = try LiveEventsTests.EventReader(port: server.port, stack: "s")
        let group = DispatchGroup(), answers = Answers()
        for i in 0..<4 { spawn(group, answers, "w\(i)", "POST", "/v1/stacks/s/rows", object(("rows", [row("lost\(i)")]))) }
        XCTAssertTrue(held.waitUntilHeld(4))
        spawn(group, answers, "read", "GET", "/v1/stacks/s")
        XCTAssertTrue(waitUntilWaiting(2))

        held.release(4, failing: true)
        XCTAssertEqual(group.wait(timeout: .now() + 30), .success)
        let answered = answers.withLock { $0 }
        XCTAssertEqual((0..<4).compactMap { answered["w\($0)"]?.status }, [503, 503, 503, 503])
        XCTAssertEqual(answered["read"]?.status, 200)
        XCTAssertEqual(answered["read"]?.header("etag"), "\"1\"", "the reader saw the lost writes in memory, so it read again after the reload")
        XCTAssertEqual(rowIDs(answered["read"]), ["a"])

        let after = DispatchGroup()
        spawn(after, answers, "next", "POST", "/v1/stacks/s/rows", object(("rows", [row("kept")])))
        XCTAssertTrue(held.waitUntilHeld(1))
        XCTAssertEqual(held.waiting.first?.record.revision, 2, "the next write follows the journal's revision")
        held.release(1, failing: false)
        XCTAssertEqual(after.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(answers.withLock { $0["next"]?.header("etag") }, "\"2\"")
        let first = try XCTUnwrap(try events.next())
        XCTAssertEqual(first.revision, 2)
        XCTAssertEqual(untimed(first.data["events"]), (try? JSON.parse(answers.withLock { $0["next"]?.body } ?? []))?["events"],
                       "the stream's revision 2 is the durable write's, not a lost one's")
        XCTAssertEqual(rowIDs(send("GET", "/v1/stacks/s")), ["a", "kept"])
        try assertJournalMatchesMemory("s")
    }

    func testWritesQueuedBehindAFailedOneAreAppliedAgainOnTheJournalsState() throws {
        XCTAssertEqual(send("POST", "/v1/stacks", object(("id", "s"), ("rows", [row("a")]))).status, 201)
        let group = DispatchGroup(), answers = Answers()
        for i in 0..<3 { spawn(group, answers, "w\(i)", "POST", "/v1/stacks/s/rows", object(("rows", [row("r\(i)")]))) }
        XCTAssertTrue(held.waitUntilHeld(3))
        XCTAssertEqual(held.waiting.map(\.record.revision), [2, 3, 4])
        held.release(1, failing: true)
        // Revisions 3 and 4 were built on the lost 2: the journal refuses them (a conflict)
        // and their requests are applied again on the reloaded state.
        held.release(2, failing: false)
        XCTAssertTrue(held.waitUntilHeld(2))
        XCTAssertEqual(held.waiting.map(\.record.revision), [2, 3])
        held.release(2, failing: false)
        XCTAssertEqual(group.wait(timeout: .now() + 30), .success)
        let answered = answers.withLock { $0 }
        XCTAssertEqual((0..<3).compactMap { answered["w\($0)"]?.status }.sorted(), [200, 200, 503])
        XCTAssertEqual(Set((0..<3).compactMap { answered["w\($0)"]?.status == 200 ? answered["w\($0)"]?.header("etag") : nil }), ["\"2\"", "\"3\""])
        XCTAssertEqual(rowIDs(send("GET", "/v1/stacks/s")).count, 3)
        try assertJournalMatchesMemory("s")
    }

    func testAnIfMatchRefusalIsJudgedOnlyOnDurableState() throws {
        XCTAssertEqual(send("POST", "/v1/stacks", object(("id", "s"))).status, 201)
        for failing in [true, false] {
            let group = DispatchGroup(), answers = Answers()
            let revision = Int(try XCTUnwrap(send("GET", "/v1/stacks/s").header("etag")).dropFirst().dropLast())!
            spawn(group, answers, "first", "POST", "/v1/stacks/s/rows", object(("rows", [row("first\(failing)")])))
            XCTAssertTrue(held.waitUntilHeld(1))
            spawn(group, answers, "conditional", "POST", "/v1/stacks/s/rows", object(("rows", [row("second\(failing)")])),
                  headers: [("If-Match", "\"\(revision)\"")])
            XCTAssertTrue(waitUntilWaiting(2), "the refusal waits for the write it was judged on")
            XCTAssertEqual(answers.withLock { $0.count }, 0)
            held.release(1, failing: failing)
            if failing {
                // The first write is lost: the conditional one now matches and is applied.
                XCTAssertTrue(held.waitUntilHeld(1))
                held.release(1, failing: false)
            }
            XCTAssertEqual(group.wait(timeout: .now() + 30), .success)
            let answered = answers.withLock { $0 }
            XCTAssertEqual(answered["first"]?.status, failing ? 503 : 200)
            XCTAssertEqual(answered["conditional"]?.status, failing ? 200 : 412)
            XCTAssertEqual(send("GET", "/v1/stacks/s").header("etag"), "\"\(revision + 1)\"")
        }
        try assertJournalMatchesMemory("s")
    }

    func testADeleteWaitsForTheWritesInFlight() throws {
        XCTAssertEqual(send("POST", "/v1/stacks", object(("id", "s"))).status, 201)
        let group = DispatchGroup(), answers = Answers()
        spawn(group, answers, "write", "POST", "/v1/stacks/s/rows", object(("rows", [row("x")])))
        XCTAssertTrue(held.waitUntilHeld(1))
        spawn(group, answers, "delete", "DELETE", "/v1/stacks/s")
        XCTAssertTrue(waitUntilWaiting(2))
        held.release(1, failing: false)
        XCTAssertEqual(group.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(answers.withLock { [$0["write"]?.status, $0["delete"]?.status] }, [200, 204])
        XCTAssertEqual(try held.inner.load(key: "s", upTo: Int(Int64.max)).count, 0, "nothing of the stack is left in the journal")
    }
}
