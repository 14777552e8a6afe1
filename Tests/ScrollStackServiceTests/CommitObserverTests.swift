import SQLite
@testable import ScrollStackStore
import Synchronization
import XCTest

/// The journal's commit observer (what `--metrics` records of every commit) costs the same
/// on the thousandth commit as on the first.
final class CommitObserverTests: XCTestCase {
    /// Each commit used to call the observer through a chain of reabstraction thunks two
    /// links longer than the commit before (a closure kept bare in a `Mutex`, rewrapped by
    /// every read): the stack depth at which the observer runs measures that chain.
    func testTheObserverRunsAtTheSameStackDepthOnEveryCommit() throws {
        let journal = try StackJournal(path: ":memory:")
        try journal.database.execute("CREATE TABLE t (k INTEGER)")
        let depths = Mutex<[Int32]>([])
        journal.observeCommits { writes, _ in
            var frames = [UnsafeMutableRawPointer?](repeating: nil, count: 16_384)
            let depth = callStack(&frames, Int32(frames.count))
            depths.withLock { $0.append(writes == 1 ? depth : -1) }
        }
        let commits = 1_000
        for i in 0..<commits {
            try journal.committer.commit { db throws(SQLiteError) in try db.query("INSERT INTO t VALUES (?)", [.integer(Int64(i))]) }
        }
        let seen = depths.withLock { $0 }
        XCTAssertEqual(seen.count, commits, "one report per commit")
        XCTAssertFalse(seen.contains(-1), "every commit held one write")
        XCTAssertEqual(Set(seen).count, 1, "stack depths at the observer: first \(seen.first ?? 0), last \(seen.last ?? 0)")
    }
}

/// glibc's `backtrace(3)` (execinfo.h is not in Swift's Glibc module): the return addresses
/// of the calling thread's stack, at most `size`; returns how many.
@_silgen_name("backtrace")
private func callStack(_ buffer: UnsafeMutablePointer<UnsafeMutableRawPointer?>, _ size: Int32) -> Int32
