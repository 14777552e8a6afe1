import Glibc

/// How many requests that lay a stack out anew may run at once: stateless layouts (whose
/// text is measured from scratch), layouts for `devices` and drawings. Each may take a large
/// part of a second of CPU within its budgets; bounding how many run together keeps a worker
/// thread free for everything else (`/healthz`, cached reads, writes), however many of them
/// arrive.
///
/// A request that finds every slot taken waits up to `patience` for one, so that a page
/// loading two pictures at once gets both (the second waits for the first, usually a few
/// milliseconds). At most `limit` requests wait at once; one more, or one whose wait runs
/// out, is refused: 503 `busy` with `Retry-After: 1`, having done nothing. A worker thread
/// is thus held by a wait for at most `patience`.
final class LayoutGate: @unchecked Sendable {
    /// The most such requests at once (at least 1).
    let limit: Int
    /// The longest a request waits for a slot.
    let patience: Duration

    // `running` and `waiting` are guarded by `mutex`; `condition` is signalled when a slot
    // is given back or a waiter arrives.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var running = 0
    private var waiting = 0

    init(limit: Int, patience: Duration = .milliseconds(200)) {
        self.limit = max(1, limit)
        self.patience = patience
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// How many run now.
    var count: Int { locked { running } }

    /// How many wait for a slot now.
    var waiters: Int { locked { waiting } }

    /// Runs `work` in a slot, waiting up to `patience` for one, or throws 503 `busy`.
    /// O(1) besides `work` and the wait.
    func withSlot<T>(_ work: () throws(APIError) -> T) throws(APIError) -> T {
        guard enter(waiting: patience) else {
            throw APIError(.busy,
                           message: "\(limit) layouts of whole stacks (stateless, for devices or drawn) are being computed; retry in a second "
                               + "(--concurrent-layouts)",
                           headers: [("Retry-After", "1")])
        }
        defer { leave() }
        return try work()
    }

    /// Takes a slot if one is free now.
    func enter() -> Bool { enter(waiting: .zero) }

    /// Takes a slot, waiting up to `patience` for one unless `limit` requests wait already.
    func enter(waiting patience: Duration) -> Bool {
        locked {
            if running < limit {
                running += 1
                return true
            }
            guard patience > .zero, waiting < limit else { return false }
            waiting += 1
            pthread_cond_broadcast(condition)
            var deadline = Self.monotonicNow(plus: patience)
            while running >= limit {
                if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { break }
            }
            waiting -= 1
            guard running < limit else { return false }
            running += 1
            return true
        }
    }

    /// Gives a slot back, waking a waiter.
    func leave() {
        locked {
            running -= 1
            pthread_cond_broadcast(condition)
        }
    }

    /// Waits up to `timeout` until at least `count` requests wait for a slot (for tests).
    func awaitWaiters(_ count: Int, timeout: Duration) -> Bool {
        locked {
            var deadline = Self.monotonicNow(plus: timeout)
            while waiting < count {
                if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { break }
            }
            return waiting >= count
        }
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    private static func monotonicNow(plus duration: Duration) -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let (seconds, attoseconds) = duration.components
        var nanoseconds = Int(now.tv_nsec) + Int(attoseconds / 1_000_000_000)
        var wholeSeconds = Int(now.tv_sec) + Int(seconds)
        if nanoseconds >= 1_000_000_000 {
            wholeSeconds += nanoseconds / 1_000_000_000
            nanoseconds %= 1_000_000_000
        }
        return timespec(tv_sec: wholeSeconds, tv_nsec: nanoseconds)
    }
}
