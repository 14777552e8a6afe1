/// The arguments a command is parsed from, put together from sources of decreasing precedence:
/// its own command line, then (for the health check) the running server's command line, then
/// the `SCROLLSTACK_*` environment. An option one source gives hides it in every later source,
/// so `--port 9000` wins over `SCROLLSTACK_PORT=8080` (for a repeatable option, all the values
/// of the first source that gives any).
struct OptionLayers {
    /// The options the environment and the later sources may give.
    let options: [EnvironmentOption]
    /// The options whose variable, once set, is given even when empty (`--token-file ""`): for
    /// these an empty value is a mistake to refuse, never the same as leaving them unset.
    var failClosed: Set<String> = []

    /// The arguments the `SCROLLSTACK_*` variables of `environment` stand for, in the order of
    /// `options`. An empty value leaves its option unset, except for the `failClosed` ones. Throws for a variable that names no
    /// option (a typo must not pass silently; `EnvironmentOption.otherTools` are skipped) and for a flag whose value is not a boolean.
    /// O(variables + options).
    func arguments(fromEnvironment environment: [(name: String, value: String)]) throws(EnvironmentError) -> [String] {
        var values: [String: String] = [:]
        for (name, value) in environment where name.hasPrefix(EnvironmentOption.prefix) && !EnvironmentOption.otherTools.contains(name) {
            guard options.contains(where: { $0.variable == name }) else {
                throw EnvironmentError(variable: name, value: value, problem: .unknown(known: options.map(\.variable)))
            }
            values[name] = value
        }
        var arguments: [String] = []
        for option in options {
            guard let value = values[option.variable] else { continue }
            if value.isEmpty {
                if failClosed.contains(option.name) { arguments += [option.flag, ""] }
                continue
            }
            switch option.kind {
            case .value:
                arguments += [option.flag, value]
            case .values:
                for part in value.split(separator: ",") { arguments += [option.flag, String(part)] }
            case .flag:
                switch value.lowercased() {
                case "1", "true", "yes", "on": arguments.append(option.flag)
                case "0", "false", "no", "off": break
                default: throw EnvironmentError(variable: option.variable, value: value, problem: .notBoolean)
                }
            }
        }
        return arguments
    }

    /// `layers` merged: the first whole, then from each later one the options that no layer
    /// before it gives. O(arguments × options).
    func merged(_ layers: [[String]]) -> [String] {
        var given = Set<String>()
        var result: [String] = []
        for layer in layers {
            let runs = self.runs(layer)
            result += runs.filter { $0.name.map { !given.contains($0) } ?? true }.flatMap(\.arguments)
            given.formUnion(runs.compactMap(\.name))
        }
        return result
    }

    /// `arguments` cut into runs: an option with its value (`--port 9000` or `--port=9000`),
    /// a flag, or any other single argument (with no option name).
    private func runs(_ arguments: [String]) -> [(name: String?, arguments: [String])] {
        var runs: [(name: String?, arguments: [String])] = []
        var i = 0
        while i < arguments.count {
            let argument = arguments[i]
            guard argument.hasPrefix("--"), argument.count > 2 else {
                runs.append((nil, [argument]))
                i += 1
                continue
            }
            let name = String(argument.dropFirst(2).prefix { $0 != "=" })
            let takesValue = options.first { $0.name == name }.map { $0.kind != .flag } ?? false
            let count = takesValue && !argument.contains("=") && i + 1 < arguments.count ? 2 : 1
            runs.append((name, Array(arguments[i..<i + count])))
            i += count
        }
        return runs
    }
}
