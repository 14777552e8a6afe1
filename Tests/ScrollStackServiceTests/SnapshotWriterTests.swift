import Dispatch
import Foundation
import JSONCodec
import MicroHTTP
@testable import ScrollStackService
@testable import ScrollStackStore
import SQLite
import XCTest

/// Snapshots due after mutations are encoded and written by the journal's snapshot thread,
/// from a copy of the state: writers never wait for them, and what they write reads back.
final class SnapshotWriterTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sssnap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Calls the service directly; `target` may carry one `name=value` query parameter.
    func call(_ service: StackService, _ method: String, _ target: String, _ body: JSON? = nil) -> HTTPResponse {
        let parts = target.split(separator: "?", maxSplits: 1)
        let query = parts.count > 1 ? parts[1].split(separator: "=", maxSplits: 1).map(String.init) : []
        return service.handle(HTTPRequest(method: method, path: String(parts[0]), query: query.isEmpty ? [] : [(query[0], query[1])],
                                          headers: body == nil ? [] : [("Content-Type", "application/json")], body: body?.serialized() ?? []))
    }

    func snapshotRevisions(_ journal: StackJournal, _ id: String) throws -> [Int64] {
        try journal.database.query("SELECT revision FROM snapshots WHERE stack = ? ORDER BY revision", [.text(id)])
            .compactMap { if case .integer(let r)? = $0.first { r } else { nil } }
    }

    /// Blocks the snapshot thread until the returned semaphore is signalled (60 s at most).
    func holdSnapshotThread(_ journal: StackJournal) -> DispatchSemaphore {
        let gate = DispatchSemaphore(value: 0)
        journal.snapshotQueue.async { _ = gate.wait(timeout: .now() + 60) }
        return gate
    }

    /// With the snapshot thread held, mutations that make snapshots due are all answered and
    /// no snapshot is written yet; once it runs, they are written at the due revisions, and a
    /// restart from them is byte for byte the live state.
    func testWritesDoNotWaitForSnapshots() throws {
        let path = directory.appendingPathComponent("db.sqlite").path
        // Snapshots by count only (a replay budget of 10 s is never reached here).
        let journal = try StackJournal(path: path, snapshotInterval: 5, snapshotReplayBudget: 10_000_000_000)
        let service = StackService(journal: journal)
        XCTAssertEqual(call(service, "POST", "/v1/stacks", object(("id", "s"), ("rows", [row("a")]))).status, 201)
        let gate = holdSnapshotThread(journal)
        for i in 0..<12 {
            XCTAssertEqual(call(service, "POST", "/v1/stacks/s/rows", object(("rows", [row("r\(i)", Double(10 + i))]), ("at", "top"))).status, 200)
        }
        XCTAssertEqual(try snapshotRevisions(journal, "s"), [1], "nothing written while the snapshot thread is held")
        gate.signal()
        journal.waitForSnapshots()
        // One snapshot of a stack at a time: revision 11 claims none while 6's waits.
        XCTAssertEqual(try snapshotRevisions(journal, "s"), [1, 6])
        XCTAssertEqual(call(service, "POST", "/v1/stacks/s/rows", object(("rows", [row("last", 9)]), ("at", "top"))).status, 200)
        journal.waitForSnapshots()
        XCTAssertEqual(try snapshotRevisions(journal, "s"), [1, 6, 14])

        let restarted = StackService(journal: try StackJournal(path: path, snapshotInterval: 5))
        XCTAssertEqual(try restarted.restore(), 1)
        for target in ["/v1/stacks/s", "/v1/stacks/s/layout", "/v1/stacks/s?revision=11", "/v1/stacks/s?revision=13", "/v1/stacks/s/events?limit=1000"] {
            XCTAssertEqual(call(restarted, "GET", target).status, 200, target)
            XCTAssertEqual(String(decoding: call(restarted, "GET", target).body, as: UTF8.self),
                           String(decoding: call(service, "GET", target).body, as: UTF8.self), target)
        }
    }

    /// A snapshot is due once the operations since the last one took `snapshotReplayBudget`
    /// to apply, however few they are; the revision count still makes them due as before.
    func testSnapshotsAreDueByReplayCostToo() throws {
        let journal = try StackJournal(path: ":memory:", snapshotInterval: 10, snapshotReplayBudget: 50)
        try journal.recordCreation(id: "s", model: [])
        func claim(_ revision: Int, _ cost: UInt64) -> Bool { journal.claimSnapshot(id: "s", revision: revision, rowCount: 1, replayCost: cost) }
        XCTAssertEqual((2...4).map { claim($0, 20) }, [false, false, true], "20 + 20 + 20 reaches 50")
        // Claimed and not yet written: nothing more is claimed, however much is due, and the
        // costs count on for the next one (at most one snapshot of a stack waits at a time).
        XCTAssertFalse(claim(5, 100))
        journal.dropSnapshotClaim(id: "s")  // what a failed write does (a written snapshot, the same)
        XCTAssertTrue(claim(6, 0), "the 100 counted while the claim was held")
        journal.dropSnapshotClaim(id: "s")
        XCTAssertEqual((7...15).map { claim($0, 0) }, Array(repeating: false, count: 9))
        XCTAssertTrue(claim(16, 0), "10 revisions after the last")
        journal.dropSnapshotClaim(id: "s")
        XCTAssertFalse(claim(17, 49), "the cost counts from the last snapshot")
    }

    /// The service passes each operation's apply time: with a budget of 1 ns every mutation
    /// brings a snapshot; with one of 10 s these cheap ones bring none (the default, 50 ms, is
    /// wall-clock time too, which a loaded machine's scheduler can spend). Past revisions read
    /// the same either way.
    func testTheServiceCountsWhatEachOperationCostToApply() throws {
        var answers: [[String]] = []
        for budget: UInt64 in [1, 10_000_000_000] {
            let journal = try StackJournal(path: directory.appendingPathComponent("db-\(budget).sqlite").path, snapshotInterval: 100, snapshotReplayBudget: budget)
            let service = StackService(journal: journal)
            XCTAssertEqual(call(service, "POST", "/v1/stacks", object(("id", "s"), ("rows", [row("a")]))).status, 201)
            for i in 0..<4 {
                XCTAssertEqual(call(service, "POST", "/v1/stacks/s/rows", object(("rows", [row("r\(i)", Double(10 + i))]))).status, 200)
                journal.waitForSnapshots()  // one snapshot of a stack at a time: each is written before the next write
            }
            XCTAssertEqual(try snapshotRevisions(journal, "s"), budget == 1 ? [1, 2, 3, 4, 5] : [1], "budget \(budget)")
            answers.append((1...5).map { String(decoding: call(service, "GET", "/v1/stacks/s/layout?revision=\($0)").body, as: UTF8.self) })
        }
        XCTAssertEqual(answers[0], answers[1])
    }

    /// A snapshot still pending when its stack is deleted and created again is dropped: the
    /// new stack's journal holds only its own states.
    func testAPendingSnapshotOfADeletedStackIsNotWritten() throws {
        let path = directory.appendingPathComponent("db.sqlite").path
        // Snapshots by count only (a replay budget of 10 s is never reached here).
        let journal = try StackJournal(path: path, snapshotInterval: 3, snapshotReplayBudget: 10_000_000_000)
        let service = StackService(journal: journal)
        XCTAssertEqual(call(service, "POST", "/v1/stacks", object(("id", "s"), ("rows", [row("old")]))).status, 201)
        let gate = holdSnapshotThread(journal)
        for i in 0..<3 { XCTAssertEqual(call(service, "POST", "/v1/stacks/s/rows", object(("rows", [row("o\(i)")]))).status, 200) }
        XCTAssertEqual(call(service, "DELETE", "/v1/stacks/s").status, 204)
        XCTAssertEqual(call(service, "POST", "/v1/stacks", object(("id", "s"), ("rows", [row("new")]))).status, 201)
        for i in 0..<2 { XCTAssertEqual(call(service, "POST", "/v1/stacks/s/rows", object(("rows", [row("n\(i)", 30)]))).status, 200) }
        gate.signal()
        journal.waitForSnapshots()
        XCTAssertEqual(try snapshotRevisions(journal, "s"), [1], "the old stack's snapshot at revision 4 is not written")
        XCTAssertEqual(call(service, "POST", "/v1/stacks/s/rows", object(("rows", [row("n2", 30)]))).status, 200)
        journal.waitForSnapshots()
        XCTAssertEqual(try snapshotRevisions(journal, "s"), [1, 4])

        let restarted = StackService(journal: try StackJournal(path: path, snapshotInterval: 3))
        XCTAssertEqual(try restarted.restore(), 1)
        XCTAssertEqual(String(decoding: call(restarted, "GET", "/v1/stacks/s").body, as: UTF8.self),
                       String(decoding: call(service, "GET", "/v1/stacks/s").body, as: UTF8.self))
        XCTAssertEqual(String(decoding: call(restarted, "GET", "/v1/stacks/s?revision=4").body, as: UTF8.self),
                       String(decoding: call(service, "GET", "/v1/stacks/s").body, as: UTF8.self))
    }
}
