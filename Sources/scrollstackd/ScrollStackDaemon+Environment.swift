import ArgumentParser

#if canImport(Glibc)
import Glibc
#endif

extension ScrollStackDaemon {
    /// The entry point: parses the command line with every option also settable from the
    /// environment as `SCROLLSTACK_<OPTION>` (`OptionLayers`; the command line wins), then runs.
    /// `scrollstackd healthcheck` takes the server's options the same way, with the running
    /// server's command line between its own and the environment (`HealthCheck`).
    static func main() {
        let options = EnvironmentOption.all(of: ScrollStackDaemon.self)
        var layers = OptionLayers(options: options)
        layers.failClosed = failClosedOptions
        var given = Array(CommandLine.arguments.dropFirst())
        var subcommand: [String] = []
        var sources = [given]
        if given.first == HealthCheck.configuration.commandName {
            subcommand = [given.removeFirst()]
            sources = [given, HealthCheck.serverArguments()]
        } else if given.first == Migrate.configuration.commandName {
            subcommand = [given.removeFirst()]
            sources = [given]
        }
        let failClosedVariables = Set(options.filter { failClosedOptions.contains($0.name) }.map(\.variable))
        let variables = environment().filter {
            $0.name.hasPrefix(EnvironmentOption.prefix) && (!$0.value.isEmpty || failClosedVariables.contains($0.name))
        }
        let fromEnvironment: [String]
        do {
            fromEnvironment = try layers.arguments(fromEnvironment: variables)
        } catch {
            exit(withError: ValidationError(error.description))
        }
        var command: ParsableCommand
        do {
            command = try parseAsRoot(subcommand + layers.merged(sources + [fromEnvironment]))
        } catch {
            // Name the other sources (never their values: they may be secrets).
            let fromServer = sources.dropFirst().contains { !$0.isEmpty }
            if exitCode(for: error) != .success, !variables.isEmpty || fromServer {
                let others = (fromServer ? ["the server's command line"] : []) + variables.map(\.name)
                printError("(options also came from \(others.joined(separator: ", ")))")
            }
            exit(withError: error)
        }
        do {
            try command.run()
        } catch {
            exit(withError: error)
        }
    }

    /// The options that, once given at all, must yield what they ask for: an empty
    /// `SCROLLSTACK_TOKEN_FILE=` or `SCROLLSTACK_TOKENS=` stops the start instead of counting as unset.
    static let failClosedOptions: Set<String> = ["token-file", "tokens"]

    /// The process's environment variables, in the order `environ` holds them. O(variables).
    static func environment() -> [(name: String, value: String)] {
        var result: [(name: String, value: String)] = []
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                result.append((String(text[..<equals]), String(text[text.index(after: equals)...])))
            }
            entry += 1
        }
        return result
    }

    /// Writes `message` and a newline to standard error.
    static func printError(_ message: String) {
        let bytes = Array((message + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
