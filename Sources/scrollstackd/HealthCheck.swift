import ArgumentParser

#if canImport(Glibc)
import Glibc
#endif

/// `scrollstackd healthcheck`: asks the server that the same options and environment configure
/// for `GET /healthz`; exits 0 when it answers 200, 1 otherwise (a container's HEALTHCHECK).
///
/// The server's options come, in this order of precedence, from the health check's own command
/// line, the running server's command line when the server is PID 1 (as in a container, so
/// `docker run … --port 9000` stays healthy with no change to the health check), the
/// `SCROLLSTACK_*` environment, and the defaults. A wildcard host (`0.0.0.0`, `::`) is asked
/// on the loopback address of its family.
struct HealthCheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "healthcheck",
        abstract: "Ask the configured server for GET /healthz; exit 0 when healthy, 1 when not.",
        discussion: """
            Takes every option of scrollstackd (only --host and --port matter) from its own \
            command line, then from the command line of the server when the server is PID 1 \
            (as in a container), then from the SCROLLSTACK_* environment.
            """
    )

    @OptionGroup(title: "Server options") var server: ScrollStackDaemon

    @Option(help: "Seconds to wait for the answer.")
    var timeout = 3.0

    func validate() throws {
        guard timeout > 0 && timeout <= 600 else { throw ValidationError("--timeout must be more than 0 and at most 600 seconds") }
    }

    func run() throws {
        let address = switch server.network.listenHost {
        case "0.0.0.0": "127.0.0.1"
        case "::": "::1"
        default: server.network.listenHost
        }
        let url = "http://\(address.contains(":") ? "[\(address)]" : address):\(server.network.port)/healthz"
        do {
            let status = try Self.statusOfHealthz(host: address, port: server.network.port, timeout: timeout)
            guard status == 200 else {
                print("unhealthy: \(url) answered \(status)")
                throw ExitCode.failure
            }
            print("healthy: \(url) answered 200")
        } catch let error as HealthCheckError {
            print("unhealthy: \(url): \(error)")
            throw ExitCode.failure
        }
    }

    /// The command line of PID 1 after its program name, when PID 1 is a `scrollstackd` server
    /// (not a health check); otherwise none.
    static func serverArguments() -> [String] {
        guard let file = fopen("/proc/1/cmdline", "r") else { return [] }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[..<count]
        }
        if bytes.last == 0 { bytes.removeLast() }
        let arguments = bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        guard let program = arguments.first, program.split(separator: "/").last == "scrollstackd",
              arguments.dropFirst().first != configuration.commandName else { return [] }
        return Array(arguments.dropFirst())
    }
}
