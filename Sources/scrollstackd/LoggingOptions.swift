import ArgumentParser
import Logging

/// `scrollstackd`'s options for what it tells operators: the log level and the Prometheus
/// metrics endpoint.
struct LoggingOptions: ParsableArguments {
    @Option(help: "The lowest level logged: trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    @Flag(help: "Serve GET /metrics: request counts and latencies by route, connections, event streams, stacks, rows, journal commits and restore time, in Prometheus's text format (behind the tokens when tokens are configured).")
    var metrics = false

    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }
}
