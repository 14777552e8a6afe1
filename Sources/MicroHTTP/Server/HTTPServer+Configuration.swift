#if canImport(Glibc)
import Glibc
#endif

extension HTTPServer {
    /// How the server listens and what it accepts.
    public struct Configuration: Sendable {
        /// An IPv4 or IPv6 literal; `0.0.0.0` or `::` for every interface.
        public var host: String
        /// 0 picks a free port; `HTTPServer.port` tells which.
        public var port: Int
        /// Threads polling connections (an epoll thread pool); no more than the cores help.
        public var threads: Int
        /// The largest body read; a larger one is answered 413 without reading the rest.
        public var maxBodyBytes: Int
        /// Seconds a connection may stay idle, or stall mid-request, before it is closed.
        public var connectionTimeout: Int
        /// The most connections open at once; more are closed on arrival.
        public var connectionLimit: Int

        public init(host: String = "127.0.0.1", port: Int = 8080, threads: Int = Configuration.defaultThreads,
                    maxBodyBytes: Int = 1 << 20, connectionTimeout: Int = 30, connectionLimit: Int = 512) {
            self.host = host
            self.port = port
            self.threads = threads
            self.maxBodyBytes = maxBodyBytes
            self.connectionTimeout = connectionTimeout
            self.connectionLimit = connectionLimit
        }

        /// The core count, at most 2: measured here, more threads than cores only add switching.
        public static var defaultThreads: Int {
            max(1, min(2, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
        }
    }
}

/// Why the server could not start.
public struct HTTPServerError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
