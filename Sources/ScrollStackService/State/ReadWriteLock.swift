import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A readers–writer lock over `pthread_rwlock_t`, kept at a stable heap address.
final class ReadWriteLock: @unchecked Sendable {
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>

    init() {
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_rwlock_t())
        precondition(pthread_rwlock_init(lock, nil) == 0, "pthread_rwlock_init failed")
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    func withReadLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }

    /// Runs `body` holding the lock for writing. A writer that finds the lock taken tries
    /// again for up to `spinNanoseconds` before sleeping on it: a mutation holds it for a few
    /// microseconds, and two workers inserting into one stack otherwise handed it over through
    /// `futex` sleeps and wake-ups about every second request, which cost more than the wait
    /// (measured: +20 % inserts per second at `-c32`).
    func withWriteLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        if pthread_rwlock_trywrlock(lock) != 0 { waitForWriteLock() }
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }

    /// How long a writer tries before sleeping: longer than a mutation's hold on the lock,
    /// short next to a durable write that holds it (an `fsync`).
    static let spinNanoseconds: UInt64 = 20_000

    /// Tries the write lock (64 tries between two readings of the clock) until it is taken
    /// or `spinNanoseconds` have passed, then sleeps on it.
    private func waitForWriteLock() {
        let deadline = DispatchTime.now().uptimeNanoseconds + Self.spinNanoseconds
        while true {
            for _ in 0..<64 where pthread_rwlock_trywrlock(lock) == 0 { return }
            if DispatchTime.now().uptimeNanoseconds >= deadline { break }
        }
        pthread_rwlock_wrlock(lock)
    }
}
