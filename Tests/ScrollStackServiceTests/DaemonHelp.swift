/// `scrollstackd`'s help (`--help`, or a subcommand's) read into its sections: each section's
/// title as printed (`NETWORK`, `OPTIONS`, `SUBCOMMANDS`) with the long names of the options
/// it lists, in order.
struct DaemonHelp {
    let text: String
    let sections: [(title: String, options: [String])]

    /// Runs the daemon with `arguments` (its help by default); throws unless it exits 0.
    init(_ arguments: [String] = ["--help"]) throws {
        let daemon = try DaemonProcess(arguments)
        let status = try daemon.finish()
        guard status == 0 else { throw DaemonError(message: "\(arguments.joined(separator: " ")) exited \(status): \(daemon.text)") }
        text = daemon.text
        var sections: [(title: String, options: [String])] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            // A title is a whole line of capitals ending in a colon; an option's line starts
            // with its names ("  -h, --help", "  --port <port>"), its help text follows them.
            if line.last == ":", line.dropLast().allSatisfy({ $0.isUppercase || $0 == " " }) {
                sections.append((String(line.dropLast()), []))
            } else if line.hasPrefix("  -"), !sections.isEmpty {
                let names = line.split(separator: " ").prefix { $0.hasPrefix("-") }.map { $0.trimmingSuffix(",") }
                if let long = names.first(where: { $0.hasPrefix("--") }) { sections[sections.count - 1].options.append(long) }
            }
        }
        self.sections = sections
    }

    /// Every option listed, in every section, except `--help`.
    var options: [String] { sections.flatMap(\.options).filter { $0 != "--help" } }
}

private extension Substring {
    func trimmingSuffix(_ suffix: String) -> String { String(hasSuffix(suffix) ? dropLast(suffix.count) : self) }
}
