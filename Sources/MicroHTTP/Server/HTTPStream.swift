import CMicroHTTPD
import Synchronization

/// A response body written a piece at a time (for Server-Sent Events): the server sends it
/// chunked as pieces arrive. While there is nothing to send, its connection is suspended,
/// so a waiting client holds no thread; `write` resumes it.
///
/// The server ends a stream whose client went away (`abandon`), writes the stream's
/// `heartbeat` bytes after `Configuration.streamHeartbeat` seconds without a write, and
/// closes a stream that has had no `write` for `Configuration.streamIdleTimeout` seconds.
///
/// What is written waits in the stream until the client's socket takes it. A client that
/// reads slower than the stream is written to (or not at all) would make that queue grow
/// without end, so past `maxQueuedBytes` the stream is dropped like one whose client went
/// away: the connection is closed, and a Server-Sent Events client reconnects (with
/// `Last-Event-ID`, to resume where it was).
public final class HTTPStream: @unchecked Sendable {
    /// A libmicrohttpd connection; its functions used here are thread-safe.
    private struct Connection: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private struct State {
        var pending: [UInt8] = []
        var closed = false
        /// The connection is suspended waiting for data (only the reader suspends it).
        var suspended = false
        var connection: Connection?
        var onClose: (@Sendable () -> Void)?
        var onCloseServer: (@Sendable () -> Void)?
        var finished = false
        /// The client went away: the connection is to be dropped, not ended cleanly.
        var gone = false
        /// Monotonic nanoseconds of the last `write`, and of the last write or heartbeat.
        var lastWrite = monotonicNanoseconds()
        var lastSent = monotonicNanoseconds()
    }

    private let state = Mutex(State())
    /// Written when the stream has been quiet for the server's heartbeat interval.
    let heartbeat: [UInt8]
    /// The most bytes waiting to be sent; a `write` that would queue more drops the stream.
    public let maxQueuedBytes: Int

    /// 1 MiB: thousands of events, seconds of a busy stream's output.
    public static let defaultMaxQueuedBytes = 1 << 20

    /// An open stream with nothing written yet; return it in `HTTPResponse.stream`.
    ///
    /// - Parameter heartbeat: Bytes the client ignores (`:\n\n`, a comment, for Server-Sent
    ///   Events), written when the stream has been quiet for a while: a client that went away
    ///   without closing its connection is then noticed when the write fails, and proxies see
    ///   traffic. Empty: no heartbeat.
    /// - Parameter maxQueuedBytes: The most bytes written and not yet taken by the client's
    ///   socket; a `write` that would queue more drops the stream (a write into an empty
    ///   queue is always taken, whatever its size).
    public init(heartbeat: [UInt8] = [], maxQueuedBytes: Int = HTTPStream.defaultMaxQueuedBytes) {
        self.heartbeat = heartbeat
        self.maxQueuedBytes = maxQueuedBytes
    }

    /// Called once when the stream ends: closed by the application, by the server's stop, or
    /// because the client went away.
    public func onClose(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.onClose = handler }
    }

    /// Queues bytes to send. Does nothing once closed. When the queue would grow past
    /// `maxQueuedBytes`, the client is not keeping up: the stream is dropped instead (closed,
    /// what is queued discarded, the connection closed). O(bytes).
    public func write(_ bytes: [UInt8]) {
        state.withLock { state in
            guard !state.closed else { return }
            if !state.pending.isEmpty && state.pending.count + bytes.count > maxQueuedBytes {
                drop(&state)
                return
            }
            state.pending += bytes
            state.lastWrite = monotonicNanoseconds()
            state.lastSent = state.lastWrite
            resumeIfSuspended(&state)
        }
    }

    /// Ends the stream once what was written is sent.
    public func close() {
        state.withLock { state in
            state.closed = true
            resumeIfSuspended(&state)
        }
    }

    /// Whether the stream has ended (closed by `close`, by the server's stop, or because the
    /// client went away): writes are then ignored.
    public var isClosed: Bool { state.withLock { $0.closed } }

    /// Whether the connection is suspended, waiting for a `write` (what tests wait for).
    var isSuspended: Bool { state.withLock { $0.suspended } }

    /// The server's own end-of-stream hook (it stops tracking the stream).
    func onCloseInternal(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.onCloseServer = handler }
    }

    /// Resumes under the lock, so it can never resume a connection that is not suspended
    /// (libmicrohttpd calls that undefined).
    private func resumeIfSuspended(_ state: inout State) {
        if state.suspended, let connection = state.connection {
            state.suspended = false
            MHD_resume_connection(connection.pointer)
        }
    }

    // MARK: Called by the server

    /// The client is gone (its side of the connection closed or failed): drop what is
    /// pending and make libmicrohttpd close the connection.
    func abandon() {
        state.withLock { drop(&$0) }
    }

    /// Drops what is pending and makes libmicrohttpd close the connection unfinished.
    private func drop(_ state: inout State) {
        state.gone = true
        state.closed = true
        state.pending = []
        resumeIfSuspended(&state)
    }

    /// At monotonic time `now`: closes the stream if it had no `write` for `idleTimeout`
    /// nanoseconds, else writes the heartbeat if nothing was sent for `interval`.
    func sweep(now: UInt64, interval: UInt64, idleTimeout: UInt64) {
        state.withLock { state in
            guard !state.closed else { return }
            if now &- state.lastWrite >= idleTimeout {
                state.closed = true
            } else if !heartbeat.isEmpty, state.pending.isEmpty, now &- state.lastSent >= interval {
                state.pending = heartbeat
                state.lastSent = now
            } else {
                return
            }
            resumeIfSuspended(&state)
        }
    }

    func attach(to connection: OpaquePointer) {
        let handle = Connection(pointer: connection)
        state.withLock { $0.connection = handle }
    }

    /// libmicrohttpd asks for up to `capacity` bytes: give what is pending, end the stream
    /// if closed, or suspend the connection until `write` or `close`.
    func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        state.withLock { state in
            if state.gone { return MHD_CONTENT_READER_END_WITH_ERROR }
            if !state.pending.isEmpty {
                let count = min(capacity, state.pending.count)
                state.pending.withUnsafeBufferPointer { source in
                    buffer.withMemoryRebound(to: UInt8.self, capacity: count) { $0.update(from: source.baseAddress!, count: count) }
                }
                state.pending.removeFirst(count)
                return count
            }
            if state.closed { return MHD_CONTENT_READER_END_OF_STREAM }
            if let connection = state.connection {
                state.suspended = true
                MHD_suspend_connection(connection.pointer)
            }
            return 0
        }
    }

    /// The response is gone (finished, or the client left): the stream is closed for good.
    func finish() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.finished else { return [] }
            state.finished = true
            state.closed = true
            state.connection = nil
            state.suspended = false
            return [state.onClose, state.onCloseServer].compactMap { $0 }
        }
        handlers.forEach { $0() }
    }
}

/// Gives libmicrohttpd the next piece of a stream.
let streamReader: MHD_ContentReaderCallback = { cls, _, buffer, capacity in
    guard let cls, let buffer else { return MHD_CONTENT_READER_END_WITH_ERROR }
    return Unmanaged<HTTPStream>.fromOpaque(cls).takeUnretainedValue().read(into: buffer, capacity: capacity)
}

/// libmicrohttpd no longer needs the stream: finish it and drop the server's reference.
let streamReleased: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    let stream = Unmanaged<HTTPStream>.fromOpaque(cls).takeRetainedValue()
    stream.finish()
}
