/// Which browser origins may call the API (CORS), and the headers that tell a browser so.
///
/// Rules (see Docs/Security.md, "Browsers"):
/// - `*` admits every origin, the `null` origin of sandboxed iframes included, and answers
///   `Access-Control-Allow-Origin: *` without credentials; the answer is the same for every
///   origin, so it carries no `Vary: Origin`. It is the default of a server with tokens.
/// - A list of origins echoes the request's `Origin` when it is listed, with
///   `Access-Control-Allow-Credentials: true` and `Vary: Origin`; `null` may be listed and is
///   echoed without credentials (any sandboxed page of any site is `null`); `loopback` stands for
///   every `http`/`https` origin on `localhost`, `*.localhost`, `127.0.0.0/8` or `[::1]`, any port.
///   An unlisted origin gets no `Access-Control-*` headers, 403 on a preflight, and 403 on any
///   request that would change a stack (a browser sends some without a preflight).
///   `["null", "loopback"]` is the default of a server without tokens.
/// - `*` is never combined with credentials.
public struct CORSPolicy: Sendable, Equatable {
    /// The listed origins (`loopback` included as written), or nil for `*`.
    public let origins: [String]?
    /// How long a browser may cache a preflight's answer, in seconds.
    public let maxAge: Int

    /// The response headers a browser script may read besides the CORS-safelisted ones.
    static let exposedHeaders = "ETag, Location, WWW-Authenticate, Preference-Applied"

    /// The keyword of `--cors-origin` for the loopback origins.
    public static let loopbackKeyword = "loopback"

    /// `origins` as given to `--cors-origin`: `["*"]` (or empty) admits every origin.
    /// - Throws: `CORSPolicy.ConfigurationError` for `*` mixed with origins, or an origin that
    ///   is not `null`, `loopback` or `scheme://host[:port]`.
    public init(origins: [String] = ["*"], maxAge: Int = 600) throws {
        self.maxAge = maxAge
        if origins.isEmpty || origins == ["*"] {
            self.origins = nil
            return
        }
        for origin in origins {
            if origin == "*" { throw ConfigurationError(message: "--cors-origin '*' cannot be combined with listed origins") }
            guard origin == "null" || origin == Self.loopbackKeyword || Self.isSerializedOrigin(origin) else {
                throw ConfigurationError(message: "--cors-origin \"\(origin)\" is not an origin (scheme://host[:port], null or loopback)")
            }
        }
        self.origins = origins
    }

    /// The policy when `--cors-origin` is not given: `*` with tokens (a caller needs a token
    /// anyway, and a token is never ambient), `null` and the loopback origins without them (so
    /// that a web site a designer visits cannot change their local stacks through their browser).
    public static func defaultPolicy(withTokens: Bool) -> CORSPolicy {
        withTokens ? CORSPolicy(unchecked: nil) : CORSPolicy(unchecked: ["null", loopbackKeyword])
    }

    private init(unchecked origins: [String]?) {
        self.origins = origins
        self.maxAge = 600
    }

    public struct ConfigurationError: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
        public init(message: String) { self.message = message }
    }

    /// Whether the answer depends on the request's origin (then it carries `Vary: Origin`).
    var variesByOrigin: Bool { origins != nil }

    /// Whether `origin` may read answers and send requests. O(listed origins).
    func admits(_ origin: String) -> Bool {
        guard let origins else { return true }
        return origins.contains(origin) || (origins.contains(Self.loopbackKeyword) && Self.isLoopbackOrigin(origin))
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
            // Never for `null`: it is every sandboxed document of every site.
            if origin != "null" { headers.append(("Access-Control-Allow-Credentials", "true")) }
        }
        headers.append(("Access-Control-Expose-Headers", Self.exposedHeaders))
        return headers
    }

    /// The CSP `frame-ancestors` sources matching this policy: `*` for `*`, else `'self'` and
    /// the listed `scheme://host[:port]` origins (loopback spelled out; `null` cannot be named).
    var frameAncestors: String {
        guard let origins else { return "*" }
        var sources = ["'self'"]
        for origin in origins where origin != "null" {
            if origin == Self.loopbackKeyword {
                sources += ["http://localhost:*", "https://localhost:*", "http://127.0.0.1:*", "https://127.0.0.1:*", "http://[::1]:*", "https://[::1]:*"]
            } else {
                sources.append(origin)
            }
        }
        return sources.joined(separator: " ")
    }

    /// `http://` or `https://` on a loopback host (`localhost`, `*.localhost`, `127.0.0.0/8`,
    /// `[::1]`), with any port and nothing after it.
    static func isLoopbackOrigin(_ origin: String) -> Bool {
        let authority: Substring
        if origin.hasPrefix("http://") {
            authority = origin.dropFirst(7)
        } else if origin.hasPrefix("https://") {
            authority = origin.dropFirst(8)
        } else {
            return false
        }
        guard let host = HostPolicy.hostName(authority) else { return false }
        return HostPolicy.isLoopbackName(host)
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
