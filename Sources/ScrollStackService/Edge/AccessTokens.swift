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

    /// Parses token lines: `TOKEN read` or `TOKEN write`, one per line (or separated by
    /// commas, for environment variables); blank lines and lines starting with `#` are
    /// ignored. A token is 16 to 512 visible ASCII characters without spaces or commas.
    /// `source` names where the lines come from in errors, which never quote a token.
    public init(lines text: String, source: String) throws {
        var tokens: [(token: [UInt8], scope: Scope)] = []
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "," || $0 == "\r\n" }
        for (number, line) in lines.enumerated() {
            let words = line.split { $0 == " " || $0 == "\t" || $0 == "\r" }
            if words.isEmpty || words[0].hasPrefix("#") { continue }
            let place = "\(source), entry \(number + 1)"
            guard words.count == 2, let scope = Scope(rawValue: String(words[1])) else {
                throw ConfigurationError(message: "\(place): expected \"TOKEN read\" or \"TOKEN write\"")
            }
            let token = Array(words[0].utf8)
            guard (16...512).contains(token.count), token.allSatisfy({ $0 > 32 && $0 < 127 }) else {
                throw ConfigurationError(message: "\(place): a token is 16 to 512 visible ASCII characters")
            }
            tokens.append((token, scope))
        }
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
