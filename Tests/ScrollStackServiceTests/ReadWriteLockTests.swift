import Foundation
import Synchronization
@testable import ScrollStackService
import XCTest

/// `ReadWriteLock`: writers exclude each other and readers, whether they got the lock at once,
/// after trying for a while, or after sleeping on it.
final class ReadWriteLockTests: XCTestCase {
    /// Two fields written together: a reader that ever saw them differ, or a total short of
    /// every increment, would mean two holders at once.
    private final class Pair: @unchecked Sendable {
        var a = 0
        var b = 0
    }

    func testWritersAndReadersNeverOverlapUnderContention() {
        let lock = ReadWriteLock()
        let pair = Pair()
        let writers = 4, increments = 20_000
        let torn = Mutex(0)
        let group = DispatchGroup()
        for index in 0..<(writers + 2) {
            group.enter()
            Thread {
                if index < writers {
                    for i in 0..<increments {
                        lock.withWriteLock {
                            pair.a += 1
                            // Now and then a long hold, so that waiters also sleep on the lock.
                            if i % 1000 == 0 { for _ in 0..<20_000 { pair.b = pair.b &+ 0 } }
                            pair.b += 1
                        }
                    }
                } else {
                    for _ in 0..<increments where lock.withReadLock({ pair.a != pair.b }) { torn.withLock { $0 += 1 } }
                }
                group.leave()
            }.start()
        }
        XCTAssertEqual(group.wait(timeout: .now() + 120), .success, "the threads did not finish within 120 s")
        XCTAssertEqual(torn.withLock { $0 }, 0, "a reader saw a write half done")
        XCTAssertEqual(lock.withReadLock { pair.a }, writers * increments)
        XCTAssertEqual(lock.withReadLock { pair.b }, writers * increments)
    }
}
