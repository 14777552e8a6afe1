/// Which browser origins may call the API (CORS), and the headers that tell a browser so.
///
/// Rules (see Docs/Semantics.md, "Browser access"):
/// - `*` (the default) admits every origin, the `null` origin of sandboxed iframes included,
///   and answers `Access-Control-Allow-Origin: *` without credentials; the answer is the same
///   for every origin, so it carries no `Vary: Origin`.
/// - A list of origins echoes the request's `Origin` when it is listed (`null` may be listed),
///   with `Access-Control-Allow-Credentials: true` and `Vary: Origin`; an unlisted origin gets
///   no `Access-Control-*` headers (and 403 on a preflight). `*` is never combined with credentials.
public struct CORSPolicy: Sendable, Equatable {
    /// The listed origins, or nil for `*`.
    public let origins: [String]?
    /// How long a browser may cache a preflight's answer, in seconds.
    public let maxAge: Int

    /// The response headers a browser script may read besides the CORS-safelisted ones.
    static let exposedHeaders = "ETag, Location, WWW-Authenticate"

    /// `origins` as given to `--cors-origin`: `["*"]` (or empty) admits every origin.
    /// - Throws: `CORSPolicy.ConfigurationError` for `*` mixed with origins, or an origin that
    ///   is not `null` or `scheme://host[:port]`.
    public init(origins: [String] = ["*"], maxAge: Int = 600) throws {
        self.maxAge = maxAge
        if origins.isEmpty || origins == ["*"] {
            self.origins = nil
            return
        }
        for origin in origins {
            if origin == "*" { throw ConfigurationError(message: "--cors-origin '*' cannot be combined with listed origins") }
            guard origin == "null" || Self.isSerializedOrigin(origin) else {
                throw ConfigurationError(message: "--cors-origin \"\(origin)\" is not an origin (scheme://host[:port], or null)")
            }
        }
        self.origins = origins
    }

    public struct ConfigurationError: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
        public init(message: String) { self.message = message }
    }

    /// Whether the answer depends on the request's origin (then it carries `Vary: Origin`).
    var variesByOrigin: Bool { origins != nil }

    /// Whether `origin` may read answers.
    func admits(_ origin: String) -> Bool {
        guard let origins else { return true }
        return origins.contains(origin)
    }

    /// The headers that let the request's origin read an answer (empty for an unlisted one),
    /// plus `Vary: Origin` when the policy lists origins.
    func responseHeaders(origin: String?) -> [(String, String)] {
        var headers: [(String, String)] = variesByOrigin ? [("Vary", "Origin")] : []
        guard let origin, admits(origin) else { return headers }
        if origins == nil {
            headers.append(("Access-Control-Allow-Origin", "*"))
        } else {
            headers.append(("Access-Control-Allow-Origin", origin))
            headers.append(("Access-Control-Allow-Credentials", "true"))
        }
        headers.append(("Access-Control-Expose-Headers", Self.exposedHeaders))
        return headers
    }

    /// `scheme://host[:port]` with no path, query or fragment, as browsers send it.
    private static func isSerializedOrigin(_ text: String) -> Bool {
        let parts = text.split(separator: "://", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        let (scheme, authority) = (parts[0], parts[1])
        return !scheme.isEmpty && scheme.allSatisfy { $0.isLetter || $0.isNumber || "+-.".contains($0) }
            && !authority.isEmpty && !authority.contains { "/?#@ ".contains($0) }
    }
}
