/// The bearer tokens that may use the API, each with its scope: `read` (GET and HEAD, and the
/// stateless layout, which changes nothing) or `write` (everything).
///
/// Tokens are compared in constant time: every configured token is compared in full, so the
/// time taken depends only on the lengths involved, never on how many leading bytes match or
/// on which token matched.
public struct AccessTokens: Sendable {
    public enum Scope: String, Sendable { case read, write }

    private let tokens: [(token: [UInt8], scope: Scope)]

    /// No tokens: the API is open.
    public init() { tokens = [] }

    /// Parses token entries: `TOKEN read` or `TOKEN write`, one per line (`comments: true`, for
    /// a file) or separated by commas (`comments: false`, for an option or environment variable).
    /// A token is 16 to 512 visible ASCII characters without spaces or commas, and never starts
    /// with `#`. In a file, blank lines and comment lines (`#` first) are skipped, but a comment
    /// line that reads like a token line (`#… read`, `#… write`) is refused rather than skipped,
    /// so that a token starting with `#` cannot silently disappear. Entries that hold no token
    /// at all are an error too: asking for tokens and getting none must never leave the API open.
    /// `source` names where the entries come from in errors, which never quote a token.
    ///
    /// - Complexity: O(text length).
    public init(lines text: String, source: String, comments: Bool = true) throws {
        var tokens: [(token: [UInt8], scope: Scope)] = []
        let separator: (Character) -> Bool = comments ? { $0 == "\n" || $0 == "\r\n" } : { $0 == "," }
        for (number, line) in text.split(omittingEmptySubsequences: false, whereSeparator: separator).enumerated() {
            let words = line.split { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
            let place = "\(source), entry \(number + 1)"
            if words.isEmpty { continue }
            if words[0].hasPrefix("#") {
                guard comments else { throw ConfigurationError(message: "\(place): a token never starts with '#' (there are no comments here)") }
                if words.count == 2, Scope(rawValue: String(words[1])) != nil {
                    throw ConfigurationError(message: "\(place): reads like a token line but starts with '#': a token never starts with '#'; reword the comment if it is one")
                }
                continue
            }
            guard words.count == 2, let scope = Scope(rawValue: String(words[1])) else {
                throw ConfigurationError(message: "\(place): expected \"TOKEN read\" or \"TOKEN write\"")
            }
            let token = Array(words[0].utf8)
            guard (16...512).contains(token.count), token.allSatisfy({ $0 > 32 && $0 < 127 && $0 != UInt8(ascii: ",") }) else {
                throw ConfigurationError(message: "\(place): a token is 16 to 512 visible ASCII characters, without commas")
            }
            tokens.append((token, scope))
        }
        guard !tokens.isEmpty else { throw ConfigurationError(message: "\(source) holds no token") }
        self.tokens = tokens
    }

    /// These tokens and `other`'s.
    public func merging(_ other: AccessTokens) -> AccessTokens { AccessTokens(tokens: tokens + other.tokens) }

    private init(tokens: [(token: [UInt8], scope: Scope)]) { self.tokens = tokens }

    public struct ConfigurationError: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
        public init(message: String) { self.message = message }
    }

    /// Whether any token is configured (then every `/v1` request needs one).
    public var isEmpty: Bool { tokens.isEmpty }

    /// Every token and its scope, one `TOKEN scope` line each, sorted: the same text for the
    /// same tokens however they were given (the key of `EventTickets`).
    var canonicalText: String {
        tokens.map { String(decoding: $0.token, as: UTF8.self) + " " + $0.scope.rawValue }.sorted().joined(separator: "\n")
    }

    /// How many tokens are configured.
    public var count: Int { tokens.count }

    /// The scope of `candidate`, or nil when it is no configured token.
    ///
    /// - Complexity: O(tokens × token length), whatever the candidate; no early exit.
    func scope(of candidate: some Collection<UInt8>) -> Scope? {
        let candidate = Array(candidate)
        var found: Scope?
        for (token, scope) in tokens {
            var difference = UInt(bitPattern: token.count ^ candidate.count)
            for i in 0..<token.count {
                difference |= UInt(token[i] ^ (i < candidate.count ? candidate[i] : 0))
            }
            // Keep the widest scope among equal tokens, without branching on earlier results.
            if difference == 0 && (found == nil || scope == .write) { found = scope }
        }
        return found
    }
}
