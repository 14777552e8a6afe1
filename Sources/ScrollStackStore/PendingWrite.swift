import Dispatch
import Synchronization

/// A journal write that is queued and not yet known durable (`JournalBackend.appendLater`):
/// its owner waits for it outside its locks, and anyone who saw its effect in memory can
/// wait for it too.
///
/// It completes once: durable (no error) or failed (nothing of it stored). Callbacks given
/// to `whenDone` run on the completing thread, in the order given, before any waiter is
/// released (also one that calls `wait` while they run: so a waiter never sees the write's
/// effects, such as its published events, half done); one given after completion runs at
/// once on the caller's thread, possibly while the earlier ones still run on the completing
/// thread. A callback must not `wait` for its own write.
public final class PendingWrite: Sendable {
    private struct State {
        /// nil while pending; then `.some(nil)` when durable, `.some(error)` when failed.
        var outcome: JournalError??
        var callbacks: [@Sendable (JournalError?) -> Void] = []
        /// Threads blocked in `wait` (tests watch it to know a reader is waiting).
        var waiters = 0
    }

    private let state: Mutex<State>
    private let done = DispatchGroup()

    /// A write still to be committed; its backend calls `complete` once, whether or not
    /// anyone waits for it.
    public init() {
        state = Mutex(State(outcome: nil))
        done.enter()
    }

    /// A write already committed (nil: durable) or failed.
    public init(completed error: JournalError?) {
        state = Mutex(State(outcome: .some(error)))
    }

    /// Records the outcome, runs the callbacks, then releases the waiters.
    public func complete(_ error: JournalError?) {
        let callbacks = state.withLock { state -> [@Sendable (JournalError?) -> Void] in
            precondition(state.outcome == nil, "a pending write completes once")
            state.outcome = .some(error)
            defer { state.callbacks = [] }
            return state.callbacks
        }
        for callback in callbacks { callback(error) }
        done.leave()
    }

    /// Calls `callback` with the outcome once there is one (at once if there is).
    public func whenDone(_ callback: @escaping @Sendable (JournalError?) -> Void) {
        let outcome = state.withLock { state -> JournalError?? in
            if state.outcome == nil { state.callbacks.append(callback) }
            return state.outcome
        }
        if let outcome { callback(outcome) }
    }

    /// The outcome: nil while pending, `.some(nil)` once durable, `.some(error)` once failed.
    public var outcome: JournalError?? { state.withLock { $0.outcome } }

    /// Blocks until the write is committed (returns nil) or failed (returns why).
    public func wait() -> JournalError? {
        let finished = state.withLock { state -> JournalError?? in
            if state.outcome == nil { state.waiters += 1 }
            return state.outcome
        }
        if let finished {
            // Its callbacks may still be running on the completing thread (the outcome is
            // recorded first): they come before any waiter, so wait for them too. A write
            // made completed never entered the group, so this does not block for it.
            done.wait()
            return finished
        }
        done.wait()
        return state.withLock { state in
            state.waiters -= 1
            return state.outcome ?? nil
        }
    }

    /// Threads blocked in `wait` now.
    public var waiting: Int { state.withLock { $0.waiters } }
}
