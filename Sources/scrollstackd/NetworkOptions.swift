import ArgumentParser
import MicroHTTP

/// `scrollstackd`'s options for listening and connections: the address and port, the worker
/// threads, how many connections and for how long, and how a stop treats them.
struct NetworkOptions: ParsableArguments {
    @Option(help: "The address to listen on (IPv4 or IPv6 literal; 0.0.0.0 for every interface). Default: 127.0.0.1 (loopback only).")
    var host: String?

    @Option(help: "The TCP port to listen on (0 picks a free one, logged at start).")
    var port = 8080

    @Option(help: "Worker threads serving connections (1…64; default: the core count, at most 64; a durable write holds none while it waits for its commit; pile writes still do).")
    var threads = HTTPServer.Configuration().threads

    @Option(help: "Seconds a connection may stay idle (or stall mid-request) before it is closed.")
    var connectionTimeout = 30

    @Option(help: "The most connections served at once; more wait until one closes. Default: what the open-descriptor limit allows (its soft limit, raised toward the hard one at start, less \(HTTPServer.Configuration.reservedDescriptors)), at most \(HTTPServer.Configuration.maxDescriptorConnectionLimit). Past nine tenths of it, each new connection closes the least advanced unfinished request.")
    var connectionLimit: Int?

    @Option(help: "Seconds a stop (SIGTERM, SIGINT) waits for requests being answered; requests still arriving are closed at once.")
    var shutdownGrace = 5

    @Option(help: "The most connections one client address may have open (behind a reverse proxy, raise it to --connection-limit).")
    var connectionsPerAddress = 128

    @Option(help: "Bytes of memory per connection for its request head and answer chunks (4096 or more); a longer request head gets 431.")
    var connectionMemory = HTTPServer.Configuration.defaultConnectionMemory

    /// The address listened on: `--host`, or loopback.
    var listenHost: String { host ?? "127.0.0.1" }

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535") }
        guard threads >= 1 && threads <= 64 else { throw ValidationError("--threads must be 1…64") }
        guard connectionTimeout >= 1 else { throw ValidationError("--connection-timeout must be at least 1 second") }
        guard connectionLimit.map({ $0 >= 1 }) ?? true else { throw ValidationError("--connection-limit must be at least 1") }
        guard shutdownGrace >= 0 else { throw ValidationError("--shutdown-grace must be at least 0 seconds") }
        guard connectionsPerAddress >= 1 else { throw ValidationError("--connections-per-address must be at least 1") }
        guard connectionMemory >= 4096 else { throw ValidationError("--connection-memory must be at least 4096 bytes") }
    }
}
