import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server on libmicrohttpd: an epoll thread pool reads whole requests and calls
/// `handler` for each on one of its threads; `handler` must be thread-safe.
///
/// Bodies are accumulated up to `maxBodyBytes`; a body over it is answered at once with the
/// error responder's 413 and the connection closed, unread. Every response is queued on a
/// later libmicrohttpd call than the first, which keeps keep-alive connections open.
public final class HTTPServer: @unchecked Sendable {
    public let configuration: Configuration
    let handler: @Sendable (HTTPRequest) -> HTTPResponse
    let errorResponder: @Sendable (HTTPRequest, HTTPError) -> HTTPResponse

    /// Called after each response is queued, with the request, the response and the
    /// microseconds spent since the request's first byte was parsed. Set before `start()`.
    public var requestObserver: (@Sendable (HTTPRequest, HTTPResponse, _ microseconds: Int) -> Void)?

    /// libmicrohttpd's daemon; it is thread-safe, and this class serializes start and stop.
    private struct Daemon: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private struct State {
        var daemon: Daemon?
        var listenFD: Int32 = -1
        var port = 0
        var stopped = false
    }

    private let state = Mutex(State())
    /// Requests between their first call and their completion.
    let inFlight = Atomic<Int>(0)
    /// Streams being served, closed on stop (libmicrohttpd must not stop with a connection
    /// suspended).
    private let streams = Mutex<[ObjectIdentifier: HTTPStream]>([:])

    func track(_ stream: HTTPStream) {
        streams.withLock { $0[ObjectIdentifier(stream)] = stream }
        stream.onCloseInternal { [weak self] in
            self?.streams.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(stream)) }
        }
    }

    public init(
        configuration: Configuration,
        handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse,
        errorResponder: @escaping @Sendable (HTTPRequest, HTTPError) -> HTTPResponse
    ) {
        self.configuration = configuration
        self.handler = handler
        self.errorResponder = errorResponder
    }

    deinit {
        stop(gracePeriod: 0)
    }

    /// The bound port (useful with port 0); 0 before `start()`.
    public var port: Int { state.withLock { $0.port } }

    /// Binds and starts serving.
    ///
    /// - Throws: `HTTPServerError` if the address cannot be bound or libmicrohttpd refuses to start.
    public func start() throws(HTTPServerError) {
        let (fd, port) = try ListenSocket.open(host: configuration.host, port: configuration.port)
        // epoll with internal threads (a pool when threads > 1); ITC so the daemon can be
        // quiesced; suspend/resume for streamed responses.
        let flags = MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_USE_ITC.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        let completed: MHD_RequestCompletedCallback = requestCompleted
        let access: MHD_AccessHandlerCallback = accessHandler
        let context = Unmanaged.passUnretained(self).toOpaque()
        var options: [CVarArg] = [
            MHD_OPTION.LISTEN_SOCKET.rawValue, fd,
            MHD_OPTION.CONNECTION_TIMEOUT.rawValue, UInt32(max(1, configuration.connectionTimeout)),
            MHD_OPTION.CONNECTION_LIMIT.rawValue, UInt32(max(1, configuration.connectionLimit)),
            MHD_OPTION.NOTIFY_COMPLETED.rawValue, OpaquePointer(unsafeBitCast(completed, to: UnsafeRawPointer.self)), OpaquePointer(context),
            MHD_OPTION.UNESCAPE_CALLBACK.rawValue, OpaquePointer(unsafeBitCast(unescape, to: UnsafeRawPointer.self)), OpaquePointer(context),
        ]
        if configuration.threads > 1 {
            options += [MHD_OPTION.THREAD_POOL_SIZE.rawValue, UInt32(configuration.threads)]
        }
        options.append(MHD_OPTION.END.rawValue)
        let daemon = withVaList(options) { list in
            MHD_start_daemon_va(flags, 0, nil, nil, access, context, list)
        }
        guard let daemon else {
            close(fd)
            throw HTTPServerError(message: "libmicrohttpd refused to start on \(configuration.host):\(port)")
        }
        let handle = Daemon(pointer: daemon)
        state.withLock {
            $0.daemon = handle
            $0.listenFD = fd
            $0.port = port
        }
    }

    /// Stops gracefully: stops accepting connections, waits up to `gracePeriod` seconds for
    /// requests in flight to finish, then closes every connection. Idempotent.
    public func stop(gracePeriod: Double = 10) {
        let (handle, fd) = state.withLock { state -> (Daemon?, Int32) in
            defer {
                state.daemon = nil
                state.listenFD = -1
                state.stopped = true
            }
            return (state.daemon, state.listenFD)
        }
        guard let daemon = handle?.pointer else { return }
        let quiesced = MHD_quiesce_daemon(daemon)
        if quiesced >= 0 { close(quiesced) } else if fd >= 0 { close(fd) }
        // End every stream (resuming suspended connections) so their requests can complete.
        for stream in streams.withLock({ Array($0.values) }) { stream.close() }
        let deadline = monotonicNanoseconds() + UInt64(max(0, gracePeriod) * 1e9)
        while inFlight.load(ordering: .acquiring) > 0 && monotonicNanoseconds() < deadline {
            usleep(5_000)
        }
        MHD_stop_daemon(daemon)
    }
}

func monotonicNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}
