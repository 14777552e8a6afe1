import ArgumentParser

/// An option of a command as the environment sets it: `--max-body-bytes` is
/// `SCROLLSTACK_MAX_BODY_BYTES`, `--in-memory` is `SCROLLSTACK_IN_MEMORY`.
///
/// The list comes from the command's own declarations (reflection on its `@Option` and `@Flag`
/// properties, and on theirs in its `@OptionGroup`s), so an option added to the command or to
/// one of its groups is settable from the environment with no further code. Names follow
/// ArgumentParser's default long names (camelCase to kebab-case); an option given a custom
/// name must keep a property name that converts to it.
struct EnvironmentOption: Equatable {
    /// What follows the option on a command line.
    enum Kind: Equatable {
        /// One value (`--port 9000`).
        case value
        /// A repeatable option (an array): the variable holds the values separated by commas.
        case values
        /// No value (`--in-memory`): the variable holds true or false.
        case flag
    }

    static let prefix = "SCROLLSTACK_"

    /// Variables with the prefix that this project's clients and tools read, never the server:
    /// the clients' address and tokens, the test suite's seed, workers, caches and recorders,
    /// and the container check's image. The server ignores them, so a shell set up for a
    /// client or a seeded test run can start it; every other unknown name is refused.
    static let otherTools: Set<String> = [
        "SCROLLSTACK_URL", "SCROLLSTACK_READ_TOKEN", "SCROLLSTACK_WRITE_TOKEN",
        "SCROLLSTACK_SEED", "SCROLLSTACK_TEST_WORKERS", "SCROLLSTACK_CHECK_JOBS", "SCROLLSTACK_CACHE",
        "SCROLLSTACK_RECORD_ANSWERS", "SCROLLSTACK_WRITE_PICTURES", "SCROLLSTACK_IMAGE",
    ]

    /// The long name, without the dashes (`max-body-bytes`).
    let name: String
    let kind: Kind

    var flag: String { "--" + name }
    var variable: String { Self.prefix + String(name.uppercased().map { $0 == "-" ? "_" : $0 }) }

    /// The options `command` declares, in declaration order; an option group's options stand
    /// where the group is declared. O(properties, groups' included).
    static func all(of command: any ParsableArguments.Type) -> [EnvironmentOption] {
        Mirror(reflecting: command.init()).children.flatMap { child -> [EnvironmentOption] in
            guard let label = child.label, label.hasPrefix("_") else { return [] }
            if let group = child.value as? any OptionGroupContents {
                return all(of: Swift.type(of: group).contents)
            }
            let type = String(describing: Swift.type(of: child.value))
            let kind: Kind
            if type.hasPrefix("Option<Array<") {
                kind = .values
            } else if type.hasPrefix("Option<") {
                kind = .value
            } else if type.hasPrefix("Flag<") {
                kind = .flag
            } else {
                return []
            }
            return [EnvironmentOption(name: kebabCase(String(label.dropFirst())), kind: kind)]
        }
    }

    /// `maxBodyBytes` → `max-body-bytes`, `corsOrigin` → `cors-origin`, `URLPath` → `url-path`
    /// (ArgumentParser's conversion). O(length).
    static func kebabCase(_ name: String) -> String {
        let characters = Array(name)
        var result = ""
        for (i, character) in characters.enumerated() {
            if character.isUppercase, i > 0 {
                let previous = characters[i - 1]
                let next = i + 1 < characters.count ? characters[i + 1] : nil
                if !previous.isUppercase || next?.isLowercase == true { result.append("-") }
            }
            result.append(contentsOf: character.lowercased())
        }
        return result
    }
}

/// An `@OptionGroup` property as reflection sees it: the type whose options it brings in (its
/// value cannot be read before parsing).
private protocol OptionGroupContents {
    static var contents: any ParsableArguments.Type { get }
}

extension OptionGroup: OptionGroupContents {
    fileprivate static var contents: any ParsableArguments.Type { Value.self }
}
