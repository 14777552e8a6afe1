import Foundation
import ScrollStackStore
import Synchronization

/// A test backend whose queued appends wait until the test releases them, in order, each
/// either committed (to an in-memory SQLite journal) or failed as a commit that never
/// reached the disk: nothing of it is stored. Every other call goes straight through.
final class HeldJournal: SQLiteBackedJournal {
    struct Held {
        let key: String
        let record: JournalRecord
        let snapshot: [UInt8]?
        let pending: PendingWrite
    }

    let inner: SQLiteJournal
    private let held = Mutex<[Held]>([])

    init() throws {
        inner = try SQLiteJournal(path: ":memory:")
    }

    func appendLater(key: String, record: JournalRecord, snapshot: [UInt8]?) -> PendingWrite {
        let pending = PendingWrite()
        held.withLock { $0.append(Held(key: key, record: record, snapshot: snapshot, pending: pending)) }
        return pending
    }

    /// The appends waiting to be released, in queue order.
    var waiting: [Held] { held.withLock { $0 } }

    /// Waits (30 s at most) until `count` appends are held; false if they never were.
    @discardableResult
    func waitUntilHeld(_ count: Int) -> Bool {
        let deadline = Date().addingTimeInterval(30)
        while held.withLock({ $0.count }) < count, Date() < deadline { sched_yield() }
        return held.withLock { $0.count } >= count
    }

    /// Completes the first `count` held appends in order: committed one by one (each checked
    /// against the revision before it, as a real backend does), or all failed.
    func release(_ count: Int, failing: Bool) {
        let batch = held.withLock { held -> [Held] in
            let batch = Array(held.prefix(count))
            held.removeFirst(batch.count)
            return batch
        }
        for write in batch {
            if failing {
                write.pending.complete(.failed("injected commit failure"))
                continue
            }
            do throws(JournalError) {
                try inner.append(key: write.key, record: write.record, snapshot: write.snapshot)
                write.pending.complete(nil)
            } catch {
                write.pending.complete(error)
            }
        }
    }

    func append(key: String, record: JournalRecord, snapshot: [UInt8]?) throws(JournalError) {
        try inner.append(key: key, record: record, snapshot: snapshot)
    }
}

/// A test backend over an in-memory SQLite journal, `inner`, that every call but the
/// appends goes straight through to; the backend decides what its appends do.
protocol SQLiteBackedJournal: JournalBackend {
    var inner: SQLiteJournal { get }
}

extension SQLiteBackedJournal {
    func create(key: String, snapshot: [UInt8]) throws(JournalError) -> Int64 { try inner.create(key: key, snapshot: snapshot) }
    func createAll(_ journals: [(key: String, snapshot: [UInt8])]) throws(JournalError) -> [Int64] { try inner.createAll(journals) }
    func delete(key: String) throws(JournalError) { try inner.delete(key: key) }
    func writeSnapshot(key: String, revision: Int, snapshot: [UInt8], incarnation: Int64) throws(JournalError) -> Bool {
        try inner.writeSnapshot(key: key, revision: revision, snapshot: snapshot, incarnation: incarnation)
    }
    func load(key: String?, upTo revision: Int) throws(JournalError) -> [StoredJournal] { try inner.load(key: key, upTo: revision) }
    func records(key: String, after: Int, limit: Int) throws(JournalError) -> [JournalRecord] {
        try inner.records(key: key, after: after, limit: limit)
    }
    func plan(key: String, revision: Int) throws(JournalError) -> [UInt8]? { try inner.plan(key: key, revision: revision) }
}
