import CMicroHTTPD
import Synchronization

/// A response body written a piece at a time (for Server-Sent Events): the server sends it
/// chunked as pieces arrive. While there is nothing to send, its connection is suspended,
/// so a waiting client holds no thread; `write` resumes it.
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
    }

    private let state = Mutex(State())

    /// An open stream with nothing written yet; return it in `HTTPResponse.stream`.
    public init() {}

    /// Called once when the stream ends: closed by the application, by the server's stop, or
    /// because the client went away.
    public func onClose(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.onClose = handler }
    }

    /// Queues bytes to send. Does nothing once closed.
    public func write(_ bytes: [UInt8]) {
        state.withLock { state in
            guard !state.closed else { return }
            state.pending += bytes
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

    func attach(to connection: OpaquePointer) {
        let handle = Connection(pointer: connection)
        state.withLock { $0.connection = handle }
    }

    /// libmicrohttpd asks for up to `capacity` bytes: give what is pending, end the stream
    /// if closed, or suspend the connection until `write` or `close`.
    func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        state.withLock { state in
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
