/// A `SCROLLSTACK_*` environment variable the daemon cannot use.
struct EnvironmentError: Error, CustomStringConvertible {
    enum Problem {
        /// It names no option; `known` lists the variables that do.
        case unknown(known: [String])
        /// It sets a flag to something other than a boolean.
        case notBoolean
    }

    let variable: String
    let value: String
    let problem: Problem

    var description: String {
        switch problem {
        case .unknown(let known):
            "the environment variable \(variable) names no option; the options' variables are \(known.joined(separator: ", "))"
        case .notBoolean:
            "the environment variable \(variable) must be true or false (1/0, yes/no, on/off), not “\(value)”"
        }
    }
}
