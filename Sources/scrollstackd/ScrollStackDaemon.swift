import ArgumentParser
import Logging
import MicroHTTP
import Postgres
import ScrollStackPostgres
import ScrollStackService
import ScrollStackText
import Dispatch

#if canImport(Glibc)
import Glibc
import ScrollStackStore
#endif

/// `scrollstackd`: serves the ScrollStack REST API until SIGINT or SIGTERM.
@main
struct ScrollStackDaemon: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scrollstackd",
        abstract: "Serve the ScrollStack layout API over HTTP.",
        usage: """
            scrollstackd [<options>]
            scrollstackd healthcheck [<options>] [--timeout <timeout>]
            scrollstackd migrate --data-dir <data-dir> --store <store> [--replace]
            """,
        discussion: """
            Keeps scroll stacks in memory, applies row operations to them and answers with \
            the computed layout as JSON. One log line per request goes to standard error. \
            SIGINT or SIGTERM stops it gracefully: it stops accepting connections, lets \
            requests in flight finish, and exits 0. Every option can also be set from the \
            environment as SCROLLSTACK_<OPTION> (SCROLLSTACK_PORT=9000, SCROLLSTACK_IN_MEMORY=1); \
            the command line wins.
            """,
        subcommands: [HealthCheck.self, Migrate.self]
    )

    @Option(help: "The address to listen on (IPv4 or IPv6 literal; 0.0.0.0 for every interface). Default: 127.0.0.1 (loopback only).")
    var host: String?

    @Option(help: "The TCP port to listen on (0 picks a free one, logged at start).")
    var port = 8080

    @Option(help: "Worker threads serving connections (1…64; default: the core count, at most 64; a durable write holds none while it waits for its commit; pile writes still do).")
    var threads = HTTPServer.Configuration().threads

    @Option(help: "The largest request body accepted, in bytes; larger ones get 413 unread.")
    var maxBodyBytes = 1 << 20

    @Option(help: "Seconds a connection may stay idle (or stall mid-request) before it is closed.")
    var connectionTimeout = 30

    @Option(help: "The most connections served at once; more wait until one closes. Default: what the open-descriptor limit allows (its soft limit, raised toward the hard one at start, less \(HTTPServer.Configuration.reservedDescriptors)), at most \(HTTPServer.Configuration.maxDescriptorConnectionLimit). Past nine tenths of it, each new connection closes the least advanced unfinished request.")
    var connectionLimit: Int?

    @Option(help: "Seconds a stop (SIGTERM, SIGINT) waits for requests being answered; requests still arriving are closed at once.")
    var shutdownGrace = 5

    @Option(help: "Seconds a request has to arrive whole (head and body), from the connection's opening or the previous answer; a trickle cannot extend it.")
    var requestDeadline = 60

    @Option(help: "The most connections one client address may have open (behind a reverse proxy, raise it to --connection-limit).")
    var connectionsPerAddress = 128

    @Option(help: "Bytes of memory per connection for its request head and answer chunks (4096 or more); a longer request head gets 431.")
    var connectionMemory = HTTPServer.Configuration.defaultConnectionMemory

    @Option(help: "How deeply a row's props and content may nest in arrays and objects (1…\(ServiceLimits.maxJSONDepthCeiling)); deeper ones get 422.")
    var maxJSONDepth = ServiceLimits.defaultMaxJSONDepth
    @Option(help: "The most row layouts one layout request with devices may compute (rows × devices whose viewport differs from the stack's); more get 422 work_budget_exceeded.")
    var deviceLayoutRows = ServiceLimits().deviceLayoutRows
    @Option(help: "The most text one layout request with devices may re-measure (UTF-8 bytes of the stack's text × devices whose viewport differs); more get 422 work_budget_exceeded.")
    var deviceLayoutTextBytes = ServiceLimits().deviceLayoutTextBytes
    @Option(help: "The most rows a layout drawing (SVG) may hold, all panels together; more get 422.")
    var drawnRows = ServiceLimits().devicesDrawnRows
    @Option(help: "The most bytes of events one history answer holds, and one live stream's catch-up sends before it ends (at least one revision each); the rest is linked by next, or sent after the client reconnects.")
    var eventsAnswerBytes = ServiceLimits().eventsAnswerBytes
    @Option(help: "The most requests that lay a stack out anew (stateless layouts, layouts for devices, drawings) served at once; more get 503 busy with Retry-After. Default: --threads less one, at least 1, so a thread stays free for everything else.")
    var concurrentLayouts: Int?
    @Option(help: "The most bytes the text engine's shaped paragraphs may take (estimated; the least used go first).")
    var textCacheBytes = ServiceLimits().textCacheBytes
    @Option(help: "The most bytes the text engine's sized fonts (a face at one size) may take (estimated; the least used go first).")
    var fontCacheBytes = ServiceLimits().fontCacheBytes

    @Option(help: "Seconds a live event stream may stay quiet before a heartbeat comment is sent (notices clients gone without closing).")
    var streamHeartbeat = 15

    @Option(help: "Seconds a live event stream may go without an event before the server ends it (EventSource clients reconnect).")
    var streamIdleTimeout = 300

    @Option(help: "The lowest level logged: trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    @Option(help: "The folder holding the database (scrollstack.sqlite); created if missing.")
    var dataDir = "./data"

    @Option(help: "Where stacks are kept: a PostgreSQL URL (postgres://user:password@host:port/database) that any number of replicas share; by default the SQLite file in --data-dir.")
    var store: String?

    @Option(help: "A folder whose font files (.ttf, .otf, .ttc, .otc) text nodes may use besides Inter and DejaVu; repeat for more.")
    var fontDir: [String] = []

    @Flag(help: "Keep stacks in memory only: nothing survives a restart (for tests and throwaway use).")
    var inMemory = false

    @Option(help: "An origin browsers may call the API from (repeatable): scheme://host[:port], null (sandboxed plug-in frames), loopback (http(s) on localhost, 127.0.0.0/8 or [::1], any port) or '*' (every origin). Default: null and loopback without tokens; '*' with tokens.")
    var corsOrigin: [String] = []

    @Option(help: "A host name the Host header may give besides IP addresses and localhost (repeatable; '*' for any). Refuses other names with 421 against DNS rebinding. Default: any name with tokens; only IP addresses and localhost without them.")
    var allowedHost: [String] = []

    @Option(help: "A file of access tokens, one 'TOKEN read' or 'TOKEN write' per line; then every /v1 request needs Authorization: Bearer TOKEN. Once given (even empty), the server starts only with at least one valid token.")
    var tokenFile: String?

    @Option(help: "An access token and its scope, 'TOKEN read' or 'TOKEN write' (repeatable; added to --token-file's). Meant for SCROLLSTACK_TOKENS='TOKEN write,TOKEN read' in containers: on a command line, other users of the machine can read it.")
    var tokens: [String] = []

    /// Where the stacks are, for log lines: the PostgreSQL database with any password masked
    /// (`ConnectionString.redacted`), memory, or the data folder.
    var storeDescription: String {
        if let store { return "PostgreSQL at " + ConnectionString.redacted(store) }
        return inMemory ? "memory" : dataDir
    }

    @Flag(help: "Serve GET /metrics: request counts and latencies by route, connections, event streams, stacks, rows, journal commits and restore time, in Prometheus's text format (behind the tokens when tokens are configured).")
    var metrics = false

    /// The address listened on: `--host`, or loopback.
    var listenHost: String { host ?? "127.0.0.1" }

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535") }
        guard threads >= 1 && threads <= 64 else { throw ValidationError("--threads must be 1…64") }
        guard maxBodyBytes >= 1 else { throw ValidationError("--max-body-bytes must be at least 1") }
        guard connectionTimeout >= 1 else { throw ValidationError("--connection-timeout must be at least 1 second") }
        guard connectionLimit.map({ $0 >= 1 }) ?? true else { throw ValidationError("--connection-limit must be at least 1") }
        guard shutdownGrace >= 0 else { throw ValidationError("--shutdown-grace must be at least 0 seconds") }
        guard requestDeadline >= 1 else { throw ValidationError("--request-deadline must be at least 1 second") }
        guard connectionsPerAddress >= 1 else { throw ValidationError("--connections-per-address must be at least 1") }
        guard connectionMemory >= 4096 else { throw ValidationError("--connection-memory must be at least 4096 bytes") }
        guard (1...ServiceLimits.maxJSONDepthCeiling).contains(maxJSONDepth) else {
            throw ValidationError("--max-json-depth must be 1…\(ServiceLimits.maxJSONDepthCeiling)")
        }
        for (name, value) in [("--device-layout-rows", deviceLayoutRows), ("--device-layout-text-bytes", deviceLayoutTextBytes), ("--drawn-rows", drawnRows),
                              ("--events-answer-bytes", eventsAnswerBytes), ("--text-cache-bytes", textCacheBytes), ("--font-cache-bytes", fontCacheBytes)] {
            guard value >= 1 else { throw ValidationError("\(name) must be at least 1") }
        }
        if let concurrentLayouts, concurrentLayouts < 1 { throw ValidationError("--concurrent-layouts must be at least 1") }
        guard streamHeartbeat >= 1 else { throw ValidationError("--stream-heartbeat must be at least 1 second") }
        guard streamIdleTimeout >= 1 else { throw ValidationError("--stream-idle-timeout must be at least 1 second") }
        if !corsOrigin.isEmpty { _ = try CORSPolicy(origins: corsOrigin) }
        _ = try HostPolicy(names: allowedHost)
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    func run() throws {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "scrollstackd")

        // Block the stop signals before any thread starts, so every server thread inherits
        // the mask and only `sigwait` below sees them.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)

        // Tokens first: a server asked for tokens never starts without them.
        let access: AccessTokens
        do {
            let loaded = try Self.loadTokens(file: tokenFile, inline: tokens)
            access = loaded.tokens
            for warning in loaded.warnings { logger.warning("\(warning)") }
        } catch {
            logger.critical("cannot start without the access tokens asked for: \(error)")
            throw ExitCode.failure
        }
        let cors = corsOrigin.isEmpty ? CORSPolicy.defaultPolicy(withTokens: !access.isEmpty) : try CORSPolicy(origins: corsOrigin)
        let hosts = allowedHost.isEmpty && !access.isEmpty ? HostPolicy.any : try HostPolicy(names: allowedHost)

        let journal: StackJournal
        do {
            if let store {
                journal = StackJournal(backend: try PostgresJournal(url: store, connections: threads + 4))
            } else if inMemory {
                journal = StackJournal(backend: MemoryJournal())
            } else {
                do {
                    try DataDirectory(path: dataDir).prepare()
                } catch {
                    logger.critical("\(error)")
                    throw ExitCode.failure
                }
                journal = try StackJournal(path: dataDir + "/scrollstack.sqlite")
            }
        } catch let error as ExitCode {
            throw error
        } catch {
            logger.critical("cannot open the database in \(storeDescription): \(ConnectionString.redacting(store, in: "\(error)"))")
            throw ExitCode.failure
        }
        let fonts = FontCatalog(directories: FontCatalog.defaultDirectories + fontDir)
        logger.info("fonts: \(fonts.allFamilies.map(\.family).joined(separator: ", "))")
        var limits = ServiceLimits(maxJSONDepth: maxJSONDepth)
        limits.deviceLayoutRows = deviceLayoutRows
        limits.deviceLayoutTextBytes = deviceLayoutTextBytes
        limits.devicesDrawnRows = drawnRows
        limits.eventsAnswerBytes = eventsAnswerBytes
        limits.textCacheBytes = textCacheBytes
        limits.fontCacheBytes = fontCacheBytes
        limits.concurrentLayouts = concurrentLayouts ?? max(1, threads - 1)
        let service = StackService(logger: logger, journal: journal, limits: limits, fonts: fonts)
        let serviceMetrics = metrics ? ServiceMetrics(service: service) : nil
        let edge = ServiceEdge(service: service, cors: cors, tokens: access, hosts: hosts, metrics: serviceMetrics, maxBodyBytes: maxBodyBytes)
        let host = listenHost
        let started = DispatchTime.now().uptimeNanoseconds
        do {
            let count = try service.restore()
            let nanoseconds = DispatchTime.now().uptimeNanoseconds - started
            serviceMetrics?.recordRestore(stacks: count, seconds: Double(nanoseconds) / 1e9)
            let milliseconds = nanoseconds / 1_000_000
            logger.notice("restored \(count) stacks from \(storeDescription) in \(milliseconds) ms")
            if !service.unavailableStacks.isEmpty {
                logger.error("\(service.unavailableStacks.count) stacks could not be restored and answer 503 until deleted: \(service.unavailableStacks.joined(separator: ", "))")
            }
        } catch {
            logger.critical("cannot restore the stacks in \(storeDescription): \(ConnectionString.redacting(store, in: "\(error)"))")
            throw ExitCode.failure
        }
        // Replicas: from now on, changes other processes journal are applied here as announced.
        service.startReplication()
        let connections: Int
        if let connectionLimit {
            connections = connectionLimit
            let fit = HTTPServer.Configuration.raiseDescriptorLimit(toFit: connectionLimit)
            if fit < connectionLimit {
                logger.warning("--connection-limit \(connectionLimit) is more than the open-descriptor limit leaves room for (\(fit)); connections past it will fail")
            }
        } else {
            connections = HTTPServer.Configuration.descriptorConnectionLimit()
        }
        let configuration = HTTPServer.Configuration(
            host: host, port: port, threads: threads, maxBodyBytes: maxBodyBytes,
            connectionTimeout: connectionTimeout, connectionLimit: connections,
            streamHeartbeat: Double(streamHeartbeat), streamIdleTimeout: Double(streamIdleTimeout),
            requestDeadline: Double(requestDeadline), connectionsPerAddress: connectionsPerAddress,
            connectionMemory: connectionMemory
        )
        let server = HTTPServer(
            configuration: configuration,
            handler: { edge.handle($0) },
            errorResponder: { edge.respond(to: $0, failure: $1) }
        )
        // Host, origin and token checks before a body is read (and before `100 Continue`).
        server.headGate = { edge.admission($0) }
        // One line per request at `info`; an answer that took a second or more (its body read
        // included) at `notice`, so that it shows at the levels operators run with.
        server.requestObserver = { request, response, microseconds in
            if microseconds >= 1_000_000 {
                logger.notice("slow: \(request.summary) \(response.status) \(microseconds)µs")
            } else {
                logger.info("\(request.summary) \(response.status) \(microseconds)µs")
            }
        }
        serviceMetrics?.observe(server)
        do {
            try server.start()
        } catch {
            logger.critical("cannot start: \(error)")
            throw ExitCode.failure
        }
        logger.info("connection limit: \(connections) (\(connectionsPerAddress) per address)")
        let address = "http://\(host.contains(":") ? "[\(host)]" : host):\(server.port)"
        if !access.isEmpty {
            logger.notice("listening on \(address) (access: \(access.count) tokens; every /v1 request needs Authorization: Bearer TOKEN)")
        } else if self.host == nil {
            logger.notice("listening on \(address) (access: no tokens, so loopback only; anyone on this machine can read and change every stack; give --token-file, or --host to listen elsewhere)")
        } else {
            logger.notice("listening on \(address)")
            logger.warning("access: no tokens; anyone who can reach \(address) can read and change every stack")
        }
        if serviceMetrics != nil {
            logger.notice("metrics at \(address)/metrics\(access.isEmpty ? "" : " (a read token suffices)")")
        }

        var received: Int32 = 0
        sigwait(&signals, &received)
        logger.notice("signal \(received): stopping; requests in flight finish first")
        server.stop(gracePeriod: Double(shutdownGrace))
        service.stopReplication()
        logger.notice("stopped")
    }

    /// The tokens of `--token-file` and of `--tokens` (`SCROLLSTACK_TOKEN_FILE`,
    /// `SCROLLSTACK_TOKENS`), and a warning for a token file other users may read.
    ///
    /// Fails closed: a source that is given at all (even empty, even from the environment) must
    /// yield at least one valid token, from a readable regular file (not a directory, device or
    /// FIFO) of at most 1 MiB or from the list; otherwise this throws, naming the source and why,
    /// and the server does not start. Errors never quote a token.
    static func loadTokens(file: String?, inline: [String]) throws -> (tokens: AccessTokens, warnings: [String]) {
        var tokens = AccessTokens()
        var warnings: [String] = []
        if let file {
            let source = "--token-file (SCROLLSTACK_TOKEN_FILE)"
            guard !file.isEmpty else {
                throw AccessTokens.ConfigurationError(message: "\(source) is empty: name a file of tokens, or leave the option unset for no tokens")
            }
            let (text, mode) = try readTokenFile(file, source: source)
            tokens = try AccessTokens(lines: text, source: file)
            if mode & 0o044 != 0 {
                warnings.append("the token file \(file) is readable by \(mode & 0o004 != 0 ? "every user" : "its group") (mode \(String(mode & 0o777, radix: 8))): chmod 600 it")
            }
        }
        if !inline.isEmpty {
            let listed = try AccessTokens(lines: inline.joined(separator: ","), source: "--tokens (SCROLLSTACK_TOKENS)", comments: false)
            tokens = tokens.merging(listed)
        }
        return (tokens, warnings)
    }

    /// The text and permission bits of the token file at `path`: a regular file of at most
    /// 1 MiB, read whole (every read error reported). O(file size).
    private static func readTokenFile(_ path: String, source: String) throws -> (text: String, mode: mode_t) {
        func failure(_ why: String) -> AccessTokens.ConfigurationError {
            AccessTokens.ConfigurationError(message: "cannot read \(source) \(path): \(why)")
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)  // O_NONBLOCK: a FIFO must not hang the start
        guard descriptor >= 0 else { throw failure(String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure(String(cString: strerror(errno))) }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw failure("it is a directory, not a file of tokens")
        default: throw failure("it is not a regular file (a device, FIFO or socket)")
        }
        let limit = 1 << 20
        guard status.st_size <= limit else { throw failure("it is larger than 1 MiB") }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(String(cString: strerror(errno)))
            }
            if count == 0 { break }
            bytes += buffer[0..<count]
            guard bytes.count <= limit else { throw failure("it is larger than 1 MiB") }
        }
        return (String(decoding: bytes, as: UTF8.self), status.st_mode)
    }
}
