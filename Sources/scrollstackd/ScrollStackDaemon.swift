import ArgumentParser
import Logging
import MicroHTTP
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

    @Option(help: "Worker threads serving connections (1…64; default: the core count, at most 2; a durable write holds none while it waits for its commit, unless --no-deferred-writes; pile writes still do).")
    var threads = HTTPServer.Configuration().threads

    @Option(help: "The largest request body accepted, in bytes; larger ones get 413 unread.")
    var maxBodyBytes = 1 << 20

    @Option(help: "Seconds a connection may stay idle (or stall mid-request) before it is closed.")
    var connectionTimeout = 30

    @Option(help: "The most connections served at once; more are refused.")
    var connectionLimit = 512

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

    @Flag(help: "Commit every durable write in a transaction of its own, instead of together with the writes (of any stack) that arrive while a commit is in progress (for comparison; each write is still answered only once durable).")
    var noGroupCommit = false

    @Flag(help: "Hold a stack's lock until each of its writes is durable, instead of queuing the write and waiting after releasing it, so that one stack's writes share commits (for comparison; each write is still answered only once durable).")
    var noPipelining = false

    @Flag(help: "Answer each durable write on the worker thread that waits for its commit, instead of suspending its connection and answering from the commits' own thread once durable (for comparison; each write is still answered only once durable).")
    var noDeferredWrites = false

    @Option(help: "An origin browsers may call the API from (repeatable): '*' (the default: every origin, 'null' included) or scheme://host[:port] or null.")
    var corsOrigin: [String] = []

    @Option(help: "A file of access tokens, one 'TOKEN read' or 'TOKEN write' per line; then every /v1 request needs Authorization: Bearer TOKEN.")
    var tokenFile: String?

    @Option(help: "An access token and its scope, 'TOKEN read' or 'TOKEN write' (repeatable; added to --token-file's). Meant for SCROLLSTACK_TOKENS='TOKEN write,TOKEN read' in containers: on a command line, other users of the machine can read it.")
    var tokens: [String] = []

    /// Where the stacks are, for log lines: the PostgreSQL server (never its password), memory, or the data folder.
    var storeDescription: String {
        if let store { return "PostgreSQL at " + (store.split(separator: "@").last.map(String.init) ?? "?") }
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
        guard connectionLimit >= 1 else { throw ValidationError("--connection-limit must be at least 1") }
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
        guard streamHeartbeat >= 1 else { throw ValidationError("--stream-heartbeat must be at least 1 second") }
        guard streamIdleTimeout >= 1 else { throw ValidationError("--stream-idle-timeout must be at least 1 second") }
        _ = try CORSPolicy(origins: corsOrigin)
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

        let journal: StackJournal
        do {
            if let store {
                journal = StackJournal(backend: try PostgresJournal(url: store, connections: threads + 4, batching: !noGroupCommit), pipelining: !noPipelining)
            } else if inMemory {
                journal = StackJournal(backend: MemoryJournal(), pipelining: !noPipelining)
            } else {
                do {
                    try DataDirectory(path: dataDir).prepare()
                } catch {
                    logger.critical("\(error)")
                    throw ExitCode.failure
                }
                journal = try StackJournal(path: dataDir + "/scrollstack.sqlite", groupCommit: !noGroupCommit, pipelining: !noPipelining,
                                           committerThread: !noDeferredWrites)
            }
        } catch let error as ExitCode {
            throw error
        } catch {
            logger.critical("cannot open the database in \(storeDescription): \(error)")
            throw ExitCode.failure
        }
        let access: AccessTokens
        do {
            access = try Self.loadTokens(file: tokenFile, inline: tokens)
        } catch {
            logger.critical("cannot read the access tokens: \(error)")
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
        let service = StackService(logger: logger, journal: journal, limits: limits, fonts: fonts)
        let serviceMetrics = metrics ? ServiceMetrics(service: service) : nil
        let edge = ServiceEdge(service: service, cors: try CORSPolicy(origins: corsOrigin), tokens: access, metrics: serviceMetrics)
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
            logger.critical("cannot restore the stacks in \(storeDescription): \(error)")
            throw ExitCode.failure
        }
        // Replicas: from now on, changes other processes journal are applied here as announced.
        service.startReplication()
        var configuration = HTTPServer.Configuration(
            host: host, port: port, threads: threads, maxBodyBytes: maxBodyBytes,
            connectionTimeout: connectionTimeout, connectionLimit: connectionLimit,
            streamHeartbeat: Double(streamHeartbeat), streamIdleTimeout: Double(streamIdleTimeout),
            requestDeadline: Double(requestDeadline), connectionsPerAddress: connectionsPerAddress,
            connectionMemory: connectionMemory
        )
        configuration.deferredResponses = !noDeferredWrites
        let server = HTTPServer(
            configuration: configuration,
            handler: { edge.handle($0) },
            errorResponder: { edge.respond(to: $0, failure: $1) }
        )
        server.requestObserver = { request, response, microseconds in
            logger.info("\(request.summary) \(response.status) \(microseconds)µs")
        }
        serviceMetrics?.observe(server)
        do {
            try server.start()
        } catch {
            logger.critical("cannot start: \(error)")
            throw ExitCode.failure
        }
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
        server.stop()
        service.stopReplication()
        logger.notice("stopped")
    }

    /// The tokens of `--token-file` and of `--tokens` (`SCROLLSTACK_TOKENS`). Errors name the
    /// file or option and the entry, never a token.
    static func loadTokens(file: String?, inline: [String]) throws -> AccessTokens {
        var tokens = AccessTokens()
        if let file {
            guard let handle = fopen(file, "r") else {
                throw AccessTokens.ConfigurationError(message: "cannot open --token-file \(file): \(String(cString: strerror(errno)))")
            }
            defer { fclose(handle) }
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = fread(&buffer, 1, buffer.count, handle)
                if count == 0 { break }
                bytes += buffer[0..<count]
            }
            tokens = try AccessTokens(lines: String(decoding: bytes, as: UTF8.self), source: file)
        }
        if !inline.isEmpty {
            tokens = tokens.merging(try AccessTokens(lines: inline.joined(separator: "\n"), source: "--tokens (SCROLLSTACK_TOKENS)"))
        }
        return tokens
    }
}
