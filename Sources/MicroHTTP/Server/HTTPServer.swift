import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server on libmicrohttpd.
///
/// A pool of `configuration.threads` polling threads reads whole requests and calls
/// `handler` for each on one of them, so `handler` must be thread-safe and should not block
/// for long (a blocked handler holds up every connection of its thread).
///
/// - Bodies are accumulated up to `maxBodyBytes`. A body declared larger (`Content-Length`)
///   is answered at once with the error responder's 413 and `Connection: close`, without
///   reading it; a chunked body that grows larger is answered the same way as soon as it
///   does (written to the socket directly: libmicrohttpd cannot answer in the middle of a
///   body), then drained for up to one more limit's worth, and the connection closed.
/// - Streams (`HTTPResponse.stream`) end when their client hangs up (noticed at once), get
///   their heartbeat when quiet for `streamHeartbeat`, and are closed after
///   `streamIdleTimeout` without a write (see `StreamMonitor`).
/// - Every other response is queued on a later libmicrohttpd call than the first, which keeps
///   keep-alive connections open.
/// - A handler that would wait may answer later (`HTTPResponse.deferred`, `DeferredResponse`):
///   the connection is suspended, holding no thread, until the answer is completed.
/// - A request whose head holds a NUL byte where libmicrohttpd's C strings would hide it, a
///   control byte, a folded line or a non-token method or header name is answered 400
///   `bad_request` (see `RequestHead`) and the connection closed; one whose path holds `%00`
///   is answered 400 once read. Neither reaches `handler`.
/// - Paths and query arguments are percent-decoded, except `%00`, which stays as it is.
/// - libmicrohttpd sets `Content-Length` (or chunked encoding for streams) and `Date`, and
///   sends no body in answer to `HEAD`.
public final class HTTPServer: @unchecked Sendable {
    /// The configuration given at creation.
    public let configuration: Configuration
    let handler: @Sendable (HTTPRequest) -> HTTPResponse
    let errorResponder: @Sendable (HTTPRequest, HTTPError) -> HTTPResponse

    /// Called after each response is queued, on the thread that produced it, with the
    /// request, the response and the microseconds since the request line was parsed
    /// (reading the body included). For access logs. Set it before `start()`.
    public var requestObserver: (@Sendable (HTTPRequest, HTTPResponse, _ microseconds: Int) -> Void)?

    /// Called once the head of a request that announces a body (`Content-Length` other than 0,
    /// `Transfer-Encoding` or `Expect`) is read and checked, before any of its body is read,
    /// with the request (its body empty). A response it returns is sent at once, with
    /// `Connection: close`, instead of reading the body and calling `handler`: no `100 Continue`
    /// is sent and the body is never read (for authorization, say). It must return a plain
    /// response (not deferred, no stream or source), and is called concurrently from the
    /// server's threads. nil (the default) lets every request through. Set it before `start()`.
    public var headGate: (@Sendable (HTTPRequest) -> HTTPResponse?)?

    /// The body limit of one request, by its method and path (as decoded): a route that takes
    /// larger bodies than `Configuration.maxBodyBytes` answers its own (uploads). nil, or nil
    /// answered, means `maxBodyBytes`. Called once per request, concurrently from the server's
    /// threads. Set it before `start()`.
    public var bodyLimit: (@Sendable (_ method: String, _ path: String) -> Int?)?

    /// libmicrohttpd's daemon; its functions used here are thread-safe.
    private struct Daemon: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private struct State {
        var daemon: Daemon?
        var port = 0
        var started = false
    }

    private let state = Mutex(State())
    /// Requests between their request line and their completion.
    let inFlight = Atomic<Int>(0)
    /// Connections between libmicrohttpd's start and close notifications.
    let connections = Atomic<Int>(0)
    /// Set once `stop()` begins: responses then carry `Connection: close`.
    let stopping = Atomic<Bool>(false)
    /// Streams being served, closed on stop (libmicrohttpd must not stop with a connection
    /// suspended).
    private let streams = Mutex<[ObjectIdentifier: HTTPStream]>([:])
    /// Deferred answers not yet sent, cancelled on stop (after the grace period); `closed`
    /// once that sweep began: an answer deferred later is cancelled at once.
    private let deferreds = SleepingLock<(open: [ObjectIdentifier: DeferredResponse], closed: Bool)>(([:], false))
    /// Notices streams whose client went away, writes heartbeats, ends idle streams. Set by
    /// `start()` before libmicrohttpd's threads exist.
    private(set) var monitor: StreamMonitor?
    /// Cuts connections whose request does not arrive whole in time, and sheds unfinished
    /// requests when the connection table fills. Set by `start()`.
    private(set) var deadlines: RequestDeadlines?

    /// Creates a server; nothing is bound until `start()`.
    ///
    /// - Parameters:
    ///   - handler: Answers each request. Called concurrently from the server's threads.
    ///   - errorResponder: Answers a request the server itself refuses (`HTTPError`), so that
    ///     error bodies keep the application's format.
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

    /// The bound port (the one chosen when `configuration.port` is 0); 0 before `start()`.
    public var port: Int { state.withLock { $0.port } }

    /// Requests received (request line parsed) and not yet complete (response sent, or the
    /// connection gone): for metrics and tests.
    public var requestsInFlight: Int { inFlight.load(ordering: .acquiring) }

    /// Deferred answers pending (each holds a suspended connection): for tests.
    public var pendingDeferredResponses: Int { deferreds.withLock { $0.open.count } }

    /// Deferred answers sent since the start: for tests.
    public var deferredResponsesSent: Int { deferredSent.load(ordering: .relaxed) }
    let deferredSent = Atomic<Int>(0)

    /// Streams being served (each holds a connection): for metrics and tests.
    public var openStreams: Int { streams.withLock { $0.count } }

    /// Connections open (accepted within the limits, not yet closed): for metrics and tests.
    public var openConnections: Int { connections.load(ordering: .relaxed) }

    /// Unfinished requests cut to make room for new connections since the start (see
    /// `RequestDeadlines`): for metrics and tests.
    public var shedConnections: Int { deadlines?.shed.load(ordering: .relaxed) ?? 0 }

    /// Binds `configuration.host`:`configuration.port` and starts serving. Call once.
    ///
    /// The listening socket is made here (then handed to libmicrohttpd with
    /// `MHD_OPTION_LISTEN_SOCKET`) so that a failure says why (`EADDRINUSE`, …), where
    /// libmicrohttpd would only return NULL.
    ///
    /// - Throws: `HTTPServerError` if the host is not an IP literal, the address cannot be
    ///   bound, the server was already started, or libmicrohttpd refuses to start.
    public func start() throws(HTTPServerError) {
        let alreadyStarted = state.withLock { state -> Bool in
            defer { state.started = true }
            return state.started
        }
        if alreadyStarted { throw HTTPServerError(message: "the server was already started") }
        let (fd, port) = try ListenSocket.open(host: configuration.host, port: configuration.port)
        let threads = max(1, configuration.threads)
        // libmicrohttpd splits the limit between the pool's threads: each needs one.
        let connectionLimit = max(threads, configuration.connectionLimit)
        do {
            monitor = try StreamMonitor(heartbeat: configuration.streamHeartbeat, idleTimeout: configuration.streamIdleTimeout)
        } catch {
            close(fd)
            throw error
        }
        do {
            deadlines = try RequestDeadlines(seconds: configuration.requestDeadline, connectionLimit: connectionLimit)
        } catch {
            close(fd)
            monitor?.stop()
            throw error
        }
        // poll() with internal threads (a pool when threads > 1); ITC so the daemon can be
        // quiesced; suspend/resume for streamed responses. Its error log goes to `libraryLogged`
        // (which answers the heads libmicrohttpd refuses itself; nothing goes to stderr).
        // Not epoll: in libmicrohttpd 0.9.75 an epoll thread at its connection limit with 128 or
        // more connections ready at once stops answering until a connection times out (the
        // server freezes for `connectionTimeout`); poll() does not, and is as fast here.
        let flags = MHD_USE_POLL_INTERNAL_THREAD.rawValue | MHD_USE_ITC.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
            | MHD_USE_ERROR_LOG.rawValue
        let completed: MHD_RequestCompletedCallback = requestCompleted
        let uriLog: URILogCallback = uriReceived
        let decode: UnescapeCallback = unescape
        let access: MHD_AccessHandlerCallback = accessHandler
        let connectionEvent: MHD_NotifyConnectionCallback = connectionNotified
        let logged: MHD_LogCallback = libraryLogged
        let context = Unmanaged.passUnretained(self).toOpaque()
        var options: [CVarArg] = [
            MHD_OPTION.LISTEN_SOCKET.rawValue, fd,
            MHD_OPTION.CONNECTION_TIMEOUT.rawValue, UInt32(clamping: max(1, configuration.connectionTimeout)),
            MHD_OPTION.CONNECTION_LIMIT.rawValue, UInt32(clamping: connectionLimit),
            MHD_OPTION.PER_IP_CONNECTION_LIMIT.rawValue, UInt32(clamping: max(1, configuration.connectionsPerAddress)),
            MHD_OPTION.CONNECTION_MEMORY_LIMIT.rawValue, UInt(max(4096, configuration.connectionMemory)),
            MHD_OPTION.NOTIFY_CONNECTION.rawValue, OpaquePointer(unsafeBitCast(connectionEvent, to: UnsafeRawPointer.self)), OpaquePointer(context),
            MHD_OPTION.NOTIFY_COMPLETED.rawValue, OpaquePointer(unsafeBitCast(completed, to: UnsafeRawPointer.self)), OpaquePointer(context),
            MHD_OPTION.URI_LOG_CALLBACK.rawValue, OpaquePointer(unsafeBitCast(uriLog, to: UnsafeRawPointer.self)), OpaquePointer(context),
            MHD_OPTION.UNESCAPE_CALLBACK.rawValue, OpaquePointer(unsafeBitCast(decode, to: UnsafeRawPointer.self)), OpaquePointer(context),
            MHD_OPTION.EXTERNAL_LOGGER.rawValue, OpaquePointer(unsafeBitCast(logged, to: UnsafeRawPointer.self)), OpaquePointer(context),
        ]
        if threads > 1 {
            options += [MHD_OPTION.THREAD_POOL_SIZE.rawValue, UInt32(clamping: threads)]
        }
        options.append(MHD_OPTION.END.rawValue)
        let daemon = withVaList(options) { list in
            MHD_start_daemon_va(flags, 0, nil, nil, access, context, list)
        }
        guard let daemon else {
            close(fd)
            monitor?.stop()
            deadlines?.stop()
            throw HTTPServerError(message: "libmicrohttpd refused to start on \(configuration.host):\(port)")
        }
        let handle = Daemon(pointer: daemon)
        state.withLock {
            $0.daemon = handle
            $0.port = port
        }
    }

    /// Stops gracefully, and returns when stopped.
    ///
    /// Stops accepting connections at once (later connection attempts are refused), closes
    /// every connection whose request is not yet read whole (a half-sent head or body) or
    /// that waits for its next request, answers requests already received with
    /// `Connection: close`, ends every stream, waits up to `gracePeriod` seconds for requests
    /// being answered to complete, then closes every connection. Idempotent; a server never
    /// started has nothing to stop.
    public func stop(gracePeriod: Double = 10) {
        let handle = state.withLock { state -> Daemon? in
            defer { state.daemon = nil }
            return state.daemon
        }
        guard let daemon = handle?.pointer else { return }
        // Under the streams' lock, so that a stream is either in the list closed below or
        // sees `stopping` when it is tracked (and closes itself).
        let open = streams.withLock { streams -> [HTTPStream] in
            stopping.store(true, ordering: .relaxed)
            return Array(streams.values)
        }
        // The listening socket comes back to us to close (a failure, -1, leaves it to
        // MHD_stop_daemon).
        let listening = MHD_quiesce_daemon(daemon)
        if listening >= 0 { close(listening) }
        // A request still arriving would hold the stop for the whole grace period.
        deadlines?.cutUnfinished()
        // End every stream (resuming suspended connections) so their requests can complete.
        for stream in open { stream.close() }
        monitor?.stop()
        let deadline = monotonicNanoseconds() + UInt64(max(0, gracePeriod) * 1e9)
        while inFlight.load(ordering: .acquiring) > 0 && monotonicNanoseconds() < deadline {
            usleep(2_000)
        }
        // Deferred answers still pending: cancelled, so their connections are resumed (and
        // closed); libmicrohttpd must not stop with a connection suspended.
        let pending = deferreds.withLock { deferreds -> [DeferredResponse] in
            deferreds.closed = true
            return Array(deferreds.open.values)
        }
        for deferred in pending { deferred.cancel() }
        MHD_stop_daemon(daemon)
        deadlines?.stop()
    }

    /// Tracks a deferred answer until it is sent or cancelled; false once `stop` has
    /// cancelled the pending ones (it must then be cancelled at once).
    func admit(_ deferred: DeferredResponse) -> Bool {
        deferreds.withLock { deferreds in
            guard !deferreds.closed else { return false }
            deferreds.open[ObjectIdentifier(deferred)] = deferred
            return true
        }
    }

    /// Stops tracking and watching a deferred answer (sent, cancelled, or its connection gone).
    func forget(_ deferred: DeferredResponse) {
        monitor?.forget(deferred)
        deferreds.withLock { _ = $0.open.removeValue(forKey: ObjectIdentifier(deferred)) }
    }

    /// Remembers a stream being served until it ends, so that `stop()` can end it; one that
    /// starts while stopping is ended at once (after what was already written).
    func track(_ stream: HTTPStream) {
        stream.onCloseInternal { [weak self] in
            self?.streams.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(stream)) }
            self?.monitor?.forget(stream)
        }
        let late = streams.withLock { streams -> Bool in
            if stopping.load(ordering: .relaxed) { return true }
            streams[ObjectIdentifier(stream)] = stream
            return false
        }
        if late { stream.close() }
    }
}
