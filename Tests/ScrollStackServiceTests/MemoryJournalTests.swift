import Foundation
@testable import ScrollStackCore
@testable import ScrollStackStore
import Synchronization
import TestSeeds
import XCTest

/// `MemoryJournal` (`--in-memory`'s backend) answers every `JournalBackend` call as
/// `SQLiteJournal` on `:memory:` does: seeded random sequences of creations, appends (in
/// order, out of order, to missing keys, with plans and snapshots), deletions, snapshot
/// writes (current and stale incarnations), loads, history reads and plan reads, on keys
/// of every kind the service makes, each compared call by call.
final class MemoryJournalTests: XCTestCase {
    func testAnswersAsSQLiteDoes() throws {
        let seed = TestSeed.seed("MemoryJournalTests.testAnswersAsSQLiteDoes")
        var rng = SplitMix64(seed: seed)
        func below(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        func bytes() -> [UInt8] { (0..<below(6)).map { _ in UInt8(truncatingIfNeeded: rng.next()) } + [UInt8(below(256))] }

        let sqlite = try SQLiteJournal(path: ":memory:")
        let memory = MemoryJournal()
        // Keys as the service makes them: stack ids (ASCII letters, digits, . _ ~ -) and piles' prefixed ones.
        let keys = ["a", "Z", "a2", "_x", "~y", "stack-1", "pile:a", "pile:Z"]
        var latest: [String: Int] = [:]
        var incarnation: [String: Int64] = [:]
        var tally: [String: Int] = [:]
        func same<T: Equatable>(_ what: String, _ step: Int, _ call: (any JournalBackend) throws(JournalError) -> T) {
            let a = Result<T, JournalError> { () throws(JournalError) -> T in try call(sqlite) }
            let b = Result<T, JournalError> { () throws(JournalError) -> T in try call(memory) }
            XCTAssertEqual(a, b, "seed \(seed) step \(step): \(what)")
            tally[what, default: 0] += 1
        }

        for step in 0..<2_000 {
            let key = keys[below(keys.count)]
            switch below(10) {
            case 0:
                let snapshot = bytes()
                same("create", step) { backend throws(JournalError) in try backend.create(key: key, snapshot: snapshot) }
                latest[key] = 1
                incarnation[key] = try memory.load(key: key, upTo: 1).first?.incarnation
            case 1, 2, 3:
                // Mostly the next revision; sometimes one too far, a repeated one, or a key with no journal.
                let next = (latest[key] ?? 0) + 1
                let revision = below(5) == 0 ? next + below(3) - 1 : next
                let record = JournalRecord(revision: revision, operation: bytes(), events: bytes(), plan: below(3) == 0 ? bytes() : nil)
                let snapshot = below(4) == 0 ? bytes() : nil
                same("append", step) { backend throws(JournalError) in try backend.append(key: key, record: record, snapshot: snapshot); return true }
                if latest[key] == revision - 1 { latest[key] = revision }
            case 4:
                if below(3) == 0 {
                    same("delete", step) { backend throws(JournalError) in try backend.delete(key: key); return true }
                    latest[key] = nil
                }
            case 5:
                guard let top = latest[key], let current = incarnation[key] else { continue }
                let revision = 1 + below(top)
                let snapshot = bytes()
                let stale = below(4) == 0
                same("writeSnapshot", step) { backend throws(JournalError) in
                    try backend.writeSnapshot(key: key, revision: revision, snapshot: snapshot, incarnation: stale ? current + 1000 : current)
                }
            case 6:
                let upTo = below(4) == 0 ? Int(Int64.max) : below(40)
                let one = below(2) == 0
                same("load", step) { backend throws(JournalError) in try backend.load(key: one ? key : nil, upTo: upTo) }
            case 7, 8:
                let after = below(40) - 5
                let limit = below(5) == 0 ? Int(Int64.max) : below(14) - 2
                same("records", step) { backend throws(JournalError) in try backend.records(key: key, after: after, limit: limit) }
            default:
                let revision = below(40) - 2
                same("plan", step) { backend throws(JournalError) in try backend.plan(key: key, revision: revision) }
            }
        }
        // A fixed tail, whatever the seed drew (some seeds end with every journal's records
        // behind its latest snapshot): a journal with records after its snapshot, loaded by both.
        let tail = "tail"
        same("create", 2_000) { backend throws(JournalError) in try backend.create(key: tail, snapshot: [1]) }
        for revision in 2...3 {
            let record = JournalRecord(revision: revision, operation: [UInt8(revision)], events: [], plan: revision == 3 ? [9] : nil)
            same("append", 2_000) { backend throws(JournalError) in try backend.append(key: tail, record: record, snapshot: nil); return true }
        }
        same("load", 2_001) { backend throws(JournalError) in try backend.load(key: tail, upTo: Int(Int64.max)) }
        same("load", 2_002) { backend throws(JournalError) in try backend.load(key: nil, upTo: Int(Int64.max)) }
        print("MemoryJournalTests: \(tally.sorted { $0.key < $1.key })")
        let loaded = try memory.load(key: tail, upTo: Int(Int64.max))
        XCTAssertEqual(loaded.first?.records.map(\.revision), [2, 3], "seed \(seed): the tail's records are loaded")
    }

    /// Each append is reported to the commit observer as a transaction of one write, and a
    /// conflict too (as SQLite's group commit reports a transaction that left a write out).
    func testReportsEachAppend() throws {
        let memory = MemoryJournal()
        let reports = Mutex<[Int]>([])
        memory.observeCommits { writes, _ in reports.withLock { $0.append(writes) } }
        _ = try memory.create(key: "s", snapshot: [1])
        try memory.append(key: "s", record: JournalRecord(revision: 2, operation: [2], events: [3]), snapshot: nil)
        XCTAssertThrowsError(try memory.append(key: "s", record: JournalRecord(revision: 2, operation: [2], events: [3]), snapshot: nil))
        XCTAssertEqual(reports.withLock { $0 }, [1, 1])
        XCTAssertNotNil(memory.appendLater(key: "s", record: JournalRecord(revision: 3, operation: [], events: []), snapshot: nil).outcome,
                        "an in-memory write is complete when queued")
    }
}
