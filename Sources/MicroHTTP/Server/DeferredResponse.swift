import CMicroHTTPD
import Synchronization

/// An answer given later, from any thread: a handler that would otherwise block a server
/// thread waiting (for a disk, say) returns `HTTPResponse.deferred(_:)` holding one, and
/// calls `complete` once the answer is known. Meanwhile the request's connection is
/// suspended (`MHD_suspend_connection`): it holds no server thread. `complete` resumes it,
/// and the server's thread sends the answer; keep-alive goes on after it.
///
/// Rules:
/// - It is answered once: the first `complete` wins, later ones return false and do nothing.
/// - If the client goes away while the answer is pending (the server watches the socket for
///   hang-ups, as for streams), or the server stops before it is completed (after its grace
///   period), it is *cancelled*: its connection is closed unanswered and everything the
///   request held is freed; a `complete` after that returns false and does nothing.
/// - Steps given to `map` are applied in order to the answer when it is sent, on the
///   server's thread (a layer above the handler adds its headers or compresses this way).
/// - A handler should defer only when `HTTPRequest.acceptsDeferredResponse` says the caller
///   (an `HTTPServer`) can send a deferred answer.
public final class DeferredResponse: @unchecked Sendable {
    /// A libmicrohttpd connection; its functions used here are thread-safe.
    private struct Connection: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private enum Phase {
        case pending
        case completed(HTTPResponse)
        case delivered
        case cancelled
    }

    private struct State {
        var phase = Phase.pending
        /// Set while the connection is suspended waiting for the answer.
        var suspended: Connection?
        var steps: [@Sendable (HTTPResponse) -> HTTPResponse] = []
    }

    private let state = SleepingLock(State())

    /// A pending answer.
    public init() {}

    /// Gives the answer (it must not itself be deferred): resumes the connection if it waits.
    /// Returns false, doing nothing, when the answer was already given or cancelled.
    @discardableResult
    public func complete(_ response: HTTPResponse) -> Bool {
        state.withLock { state in
            guard case .pending = state.phase else { return false }
            state.phase = .completed(response)
            resumeIfSuspended(&state)
            return true
        }
    }

    /// Applies `step` to the answer when it is sent (after the steps given before).
    public func map(_ step: @escaping @Sendable (HTTPResponse) -> HTTPResponse) {
        state.withLock { $0.steps.append(step) }
    }

    /// Whether the connection is suspended waiting for the answer (what tests wait for).
    public var isSuspended: Bool { state.withLock { $0.suspended != nil } }

    /// Whether it was cancelled (the client went away, or the server stopped first).
    public var isCancelled: Bool {
        state.withLock { if case .cancelled = $0.phase { true } else { false } }
    }

    /// Resumes under the lock, so it can never resume a connection that is not suspended
    /// (libmicrohttpd calls that undefined).
    private func resumeIfSuspended(_ state: inout State) {
        if let connection = state.suspended {
            state.suspended = nil
            MHD_resume_connection(connection.pointer)
        }
    }

    // MARK: Called by the server

    /// What the server does with the request now.
    enum Turn {
        /// Send this answer (the steps applied).
        case answer(HTTPResponse)
        /// The connection is suspended until the answer comes.
        case wait
        /// Cancelled: close the connection unanswered.
        case close
    }

    /// On the connection's server thread: the answer if there is one, else suspends
    /// `connection` until `complete` or `cancel` resumes it.
    func take(suspending connection: OpaquePointer) -> Turn {
        let taken = state.withLock { state -> (Turn, [@Sendable (HTTPResponse) -> HTTPResponse]) in
            switch state.phase {
            case .completed(let response):
                state.phase = .delivered
                defer { state.steps = [] }
                return (.answer(response), state.steps)
            case .pending:
                state.suspended = Connection(pointer: connection)
                MHD_suspend_connection(connection)
                return (.wait, [])
            case .delivered, .cancelled:
                return (.close, [])
            }
        }
        guard case .answer(let response) = taken.0 else { return taken.0 }
        return .answer(taken.1.reduce(response) { $1($0) })
    }

    /// Cancels a pending answer (the client went away, or the server stops): its connection
    /// is resumed to be closed. Does nothing once completed.
    func cancel() {
        state.withLock { state in
            guard case .pending = state.phase else { return }
            state.phase = .cancelled
            state.steps = []
            resumeIfSuspended(&state)
        }
    }
}

extension DeferredResponse: HangUpWatched {
    func abandon() { cancel() }
    func sweep(now: UInt64, interval: UInt64, idleTimeout: UInt64) {}
}
