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

    // The options, grouped by purpose in `--help`. Each is also a `SCROLLSTACK_*` variable:
    // `EnvironmentOption.all` finds the options inside these groups too.
    @OptionGroup(title: "Network") var network: NetworkOptions
    @OptionGroup(title: "Storage") var storage: StorageOptions
    @OptionGroup(title: "Security") var security: SecurityOptions
    @OptionGroup(title: "Limits") var limits: LimitOptions
    @OptionGroup(title: "History and events") var events: EventOptions
    @OptionGroup(title: "Fonts and text") var text: TextOptions
    @OptionGroup(title: "Logging and metrics") var logging: LoggingOptions

    func run() throws {
        let level = Logger.Level(rawValue: logging.logLevel) ?? .info
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
            let loaded = try Self.loadTokens(file: security.tokenFile, inline: security.tokens)
            access = loaded.tokens
            for warning in loaded.warnings { logger.warning("\(warning)") }
        } catch {
            logger.critical("cannot start without the access tokens asked for: \(error)")
            throw ExitCode.failure
        }
        let cors = security.corsOrigin.isEmpty ? CORSPolicy.defaultPolicy(withTokens: !access.isEmpty) : try CORSPolicy(origins: security.corsOrigin)
        let hosts = security.allowedHost.isEmpty && !access.isEmpty ? HostPolicy.any : try HostPolicy(names: security.allowedHost)

        let journal: StackJournal
        do {
            if let store = storage.store {
                journal = StackJournal(backend: try PostgresJournal(url: store, connections: network.threads + 4))
            } else if storage.inMemory {
                journal = StackJournal(backend: MemoryJournal())
            } else {
                do {
                    try DataDirectory(path: storage.dataDir).prepare()
                } catch {
                    logger.critical("\(error)")
                    throw ExitCode.failure
                }
                journal = try StackJournal(path: storage.dataDir + "/scrollstack.sqlite")
            }
        } catch let error as ExitCode {
            throw error
        } catch {
            logger.critical("cannot open the database in \(storage.storeDescription): \(ConnectionString.redacting(storage.store, in: "\(error)"))")
            throw ExitCode.failure
        }
        let fonts = FontCatalog(directories: FontCatalog.defaultDirectories + text.fontDir)
        logger.info("fonts: \(fonts.allFamilies.map(\.family).joined(separator: ", "))")
        var serviceLimits = ServiceLimits(maxJSONDepth: limits.maxJSONDepth)
        serviceLimits.deviceLayoutRows = limits.deviceLayoutRows
        serviceLimits.deviceLayoutTextBytes = limits.deviceLayoutTextBytes
        serviceLimits.devicesDrawnRows = limits.drawnRows
        serviceLimits.eventsAnswerBytes = events.eventsAnswerBytes
        serviceLimits.textCacheBytes = text.textCacheBytes
        serviceLimits.fontCacheBytes = text.fontCacheBytes
        serviceLimits.concurrentLayouts = limits.concurrentLayouts ?? max(1, network.threads - 1)
        serviceLimits.maxFontBytes = limits.maxFontBytes
        serviceLimits.maxUploadedFonts = limits.maxUploadedFonts
        serviceLimits.maxUploadedFontBytes = limits.maxUploadedFontBytes
        let service = StackService(logger: logger, journal: journal, limits: serviceLimits, fonts: fonts)
        let serviceMetrics = logging.metrics ? ServiceMetrics(service: service) : nil
        let edge = ServiceEdge(service: service, cors: cors, tokens: access, hosts: hosts, metrics: serviceMetrics, maxBodyBytes: limits.maxBodyBytes)
        let host = network.listenHost
        let started = DispatchTime.now().uptimeNanoseconds
        do {
            let count = try service.restore()
            let nanoseconds = DispatchTime.now().uptimeNanoseconds - started
            serviceMetrics?.recordRestore(stacks: count, seconds: Double(nanoseconds) / 1e9)
            let milliseconds = nanoseconds / 1_000_000
            logger.notice("restored \(count) stacks from \(storage.storeDescription) in \(milliseconds) ms")
            if !service.unavailableStacks.isEmpty {
                logger.error("\(service.unavailableStacks.count) stacks could not be restored and answer 503 until deleted: \(service.unavailableStacks.joined(separator: ", "))")
            }
        } catch {
            logger.critical("cannot restore the stacks in \(storage.storeDescription): \(ConnectionString.redacting(storage.store, in: "\(error)"))")
            throw ExitCode.failure
        }
        // Replicas: from now on, changes other processes journal reach the streams here as announced.
        service.startReplication(address: storage.advertiseURL)
        let connections: Int
        if let connectionLimit = network.connectionLimit {
            connections = connectionLimit
            let fit = HTTPServer.Configuration.raiseDescriptorLimit(toFit: connectionLimit)
            if fit < connectionLimit {
                logger.warning("--connection-limit \(connectionLimit) is more than the open-descriptor limit leaves room for (\(fit)); connections past it will fail")
            }
        } else {
            connections = HTTPServer.Configuration.descriptorConnectionLimit()
        }
        let configuration = HTTPServer.Configuration(
            host: host, port: network.port, threads: network.threads, maxBodyBytes: limits.maxBodyBytes,
            connectionTimeout: network.connectionTimeout, connectionLimit: connections,
            streamHeartbeat: Double(events.streamHeartbeat), streamIdleTimeout: Double(events.streamIdleTimeout),
            requestDeadline: Double(limits.requestDeadline), connectionsPerAddress: network.connectionsPerAddress,
            connectionMemory: network.connectionMemory
        )
        let server = HTTPServer(
            configuration: configuration,
            handler: { edge.handle($0) },
            errorResponder: { edge.respond(to: $0, failure: $1) }
        )
        // Host, origin and token checks before a body is read (and before `100 Continue`).
        server.headGate = { edge.admission($0) }
        // Font uploads may be larger than --max-body-bytes (--max-font-bytes).
        server.bodyLimit = { edge.bodyLimit(method: $0, path: $1) }
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
        logger.info("connection limit: \(connections) (\(network.connectionsPerAddress) per address)")
        let address = "http://\(host.contains(":") ? "[\(host)]" : host):\(server.port)"
        if !access.isEmpty {
            logger.notice("listening on \(address) (access: \(access.count) tokens; every /v1 request needs Authorization: Bearer TOKEN)")
        } else if network.host == nil {
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
        server.stop(gracePeriod: Double(network.shutdownGrace))
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
