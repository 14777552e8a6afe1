#if canImport(Glibc)
import Glibc
#endif

extension HTTPServer {
    /// How the server listens and what it accepts. The defaults replace libmicrohttpd's
    /// (no timeout, about 1,020 connections, no body limit).
    public struct Configuration: Sendable {
        /// An IPv4 or IPv6 literal to bind: `127.0.0.1`, `::1`, or `0.0.0.0` / `::` for every
        /// interface. Host names are not resolved.
        public var host: String
        /// The TCP port; 0 picks a free one (`HTTPServer.port` then tells which).
        public var port: Int
        /// Threads polling connections and running the handler (a thread pool). More than the
        /// core count only adds switching.
        public var threads: Int
        /// The largest request body accepted, in bytes; a larger one is answered 413.
        public var maxBodyBytes: Int
        /// Seconds a connection may stay idle, or stall in the middle of a request, before it
        /// is closed (at least 1).
        public var connectionTimeout: Int
        /// The most connections open at once (at least `threads`); while at the limit, new
        /// connections wait in the listen backlog until one closes. Each holds a descriptor
        /// (see `descriptorConnectionLimit()`). Past nine tenths of it, each new connection
        /// sheds the least advanced unfinished request, and past half of it a request has at
        /// most 10 s to arrive whole (see `RequestDeadlines`), so trickling clients cannot
        /// fill it.
        public var connectionLimit: Int
        /// Seconds a stream may stay quiet before its heartbeat is written (see `HTTPStream`).
        public var streamHeartbeat: Double
        /// Seconds a stream may go without a `write` (heartbeats do not count) before the
        /// server ends it; a Server-Sent Events client then reconnects.
        public var streamIdleTimeout: Double
        /// Seconds a connection's request has to arrive whole, head and body, counted from the
        /// connection's opening or the previous request's completion; a trickle cannot extend
        /// it (see `RequestDeadlines`). Past it the connection is closed unanswered.
        public var requestDeadline: Double
        /// The most connections one client address may have open; more from it are closed as
        /// soon as they are accepted. Behind a reverse proxy every connection comes from the
        /// proxy: raise it to `connectionLimit` there (and limit clients at the proxy).
        public var connectionsPerAddress: Int
        /// Bytes of memory each connection reads its request head into and builds its answer's
        /// head and chunks in (libmicrohttpd's `MHD_OPTION_CONNECTION_MEMORY_LIMIT`, at least
        /// 4,096). A request head must fit in it, less about 400 bytes, or is answered 431;
        /// bodies are read through it in pieces, whatever their size. libmicrohttpd zeroes the
        /// whole of it after every request, so it is a cost per request (Docs/Benchmarks.md).
        public var connectionMemory: Int
        /// Whether requests tell handlers they may answer later (`HTTPRequest.acceptsDeferredResponse`,
        /// `DeferredResponse`). A deferred answer is sent whatever this says.
        public var deferredResponses = true

        /// libmicrohttpd's own default, 32 KiB: request heads of up to 32.3 KB, and streamed
        /// answers sent in chunks of up to about 32 KB. 16 KiB halves the zeroing, but a
        /// streamed 100k-row layout then cost 21 % more CPU (twice the chunks and sends).
        public static let defaultConnectionMemory = 32 << 10

        /// A configuration; every parameter has a production-ready default.
        public init(host: String = "127.0.0.1", port: Int = 8080, threads: Int = Configuration.defaultThreads,
                    maxBodyBytes: Int = 1 << 20, connectionTimeout: Int = 30, connectionLimit: Int = 512,
                    streamHeartbeat: Double = 15, streamIdleTimeout: Double = 300,
                    requestDeadline: Double = 60, connectionsPerAddress: Int = 128,
                    connectionMemory: Int = Configuration.defaultConnectionMemory) {
            self.host = host
            self.port = port
            self.threads = threads
            self.maxBodyBytes = maxBodyBytes
            self.connectionTimeout = connectionTimeout
            self.connectionLimit = connectionLimit
            self.streamHeartbeat = streamHeartbeat
            self.streamIdleTimeout = streamIdleTimeout
            self.requestDeadline = requestDeadline
            self.connectionsPerAddress = connectionsPerAddress
            self.connectionMemory = connectionMemory
        }

        /// Descriptors left for everything but client connections: the listening socket,
        /// libmicrohttpd's and the stream monitor's, the database's, font files, logs.
        public static let reservedDescriptors = 256
        /// The most connections `descriptorConnectionLimit()` gives: each holds
        /// `connectionMemory` (32 KiB by default, so 128 MiB at most).
        public static let maxDescriptorConnectionLimit = 4096

        /// Raises the soft limit of open descriptors (`RLIMIT_NOFILE`) toward the hard limit, as
        /// far as `connections` connections and `reservedDescriptors` need (never lowering it),
        /// and returns how many connections the soft limit then leaves room for (at least 1).
        public static func raiseDescriptorLimit(toFit connections: Int) -> Int {
            var limit = rlimit()
            guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return max(1, connections) }
            let wanted = rlim_t(max(0, connections) + reservedDescriptors)
            if limit.rlim_cur < wanted {
                var raised = limit
                raised.rlim_cur = min(wanted, limit.rlim_max)
                if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
            }
            return max(1, Int(clamping: limit.rlim_cur) - reservedDescriptors)
        }

        /// The connection limit the descriptors allow, after raising their soft limit toward
        /// the hard one: the soft limit less `reservedDescriptors`, at most
        /// `maxDescriptorConnectionLimit`. What the daemon uses unless told otherwise.
        public static func descriptorConnectionLimit() -> Int {
            min(maxDescriptorConnectionLimit, raiseDescriptorLimit(toFit: maxDescriptorConnectionLimit))
        }

        /// One worker thread per online core, 1…64 (the range `--threads` accepts): the
        /// request path does not block (a durable write waits suspended, holding no thread),
        /// so more threads than cores only add switching (Docs/Benchmarks.md, "Worker threads
        /// per core").
        public static var defaultThreads: Int {
            max(1, min(64, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
        }
    }
}

/// Why the server could not start: the address could not be bound, or libmicrohttpd refused.
public struct HTTPServerError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for people: `cannot bind 127.0.0.1:8080: Address already in use`.
    public let message: String
    /// The message.
    public var description: String { message }
}
