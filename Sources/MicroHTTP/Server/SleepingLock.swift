#if canImport(Glibc)
import Glibc
#endif

/// A value behind a plain `pthread_mutex_t`, for state that many server threads touch briefly
/// on every deferred answer. A waiter sleeps at once (a futex wait) instead of spinning:
/// `Synchronization.Mutex` spins 1,000 `pause`s before it sleeps on Linux, and with dozens of
/// threads on two cores a spinner mostly waits for a holder that is not running (measured:
/// 8–13 % of a server's CPU spent spinning at `--threads 32`).
final class SleepingLock<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` on the value, holding the lock. O(1) besides `body`.
    func withLock<Result, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
