#if canImport(Glibc)
import Glibc
#endif

/// Which names a request's `Host` may give, against DNS rebinding: a web page whose own name
/// an attacker re-points at 127.0.0.1 reaches a local server with its own name as `Host`.
///
/// Rules (Docs/Security.md, "Browsers"): an IP literal (v4, or v6 in brackets) is always
/// admitted (rebinding needs a name), and so are `localhost` and `*.localhost` (they resolve to
/// loopback only); other names only when listed with `--allowed-host`; `*` admits every name.
/// The port is not compared. A request without `Host` (HTTP/1.0) is admitted.
public struct HostPolicy: Sendable, Equatable {
    /// The listed names, lowercased; nil admits every name.
    public let names: [String]?

    /// `names` as given to `--allowed-host`: `["*"]` admits every name; `[]` admits only IP
    /// literals and loopback names.
    /// - Throws: `HostPolicy.ConfigurationError` for `*` mixed with names, or a name that is
    ///   not a host name (letters, digits, `-`, `.`).
    public init(names: [String]) throws {
        if names == ["*"] {
            self.names = nil
            return
        }
        for name in names {
            if name == "*" { throw ConfigurationError(message: "--allowed-host '*' cannot be combined with listed names") }
            guard !name.isEmpty, name.utf8.allSatisfy({ Self.isNameByte($0) }) else {
                throw ConfigurationError(message: "--allowed-host \"\(name)\" is not a host name (letters, digits, '-' and '.'; no port)")
            }
        }
        self.names = names.map { $0.lowercased() }
    }

    /// Every name: the policy of a server with tokens when `--allowed-host` is not given.
    public static let any = HostPolicy(unchecked: nil)

    private init(unchecked names: [String]?) { self.names = names }

    public struct ConfigurationError: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
        public init(message: String) { self.message = message }
    }

    /// Whether a request whose `Host` field is `host` may be served. O(listed names + length).
    func admits(_ host: String?) -> Bool {
        guard let names, let host else { return true }
        guard let name = Self.hostName(Substring(host)) else { return false }
        if Self.isIPLiteral(name) || Self.isLoopbackName(name) { return true }
        let lowered = name.lowercased()
        return names.contains(lowered)
    }

    /// The host of an authority (`host[:port]` or `[v6][:port]`), without the port or one
    /// trailing dot; nil when it is malformed (a port that is not digits, a stray bracket).
    static func hostName(_ authority: Substring) -> String? {
        var host: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[...close]
            let rest = authority[authority.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(\.isASCIIDigit)) else { return nil }
        } else {
            host = authority
            if let colon = authority.lastIndex(of: ":") {
                guard authority[authority.index(after: colon)...].allSatisfy(\.isASCIIDigit) else { return nil }
                host = authority[..<colon]
            }
            if host.hasSuffix(".") { host = host.dropLast() }
        }
        return host.isEmpty ? nil : String(host)
    }

    /// `localhost`, a name under `.localhost`, `127.0.0.0/8` or `[::1]`.
    static func isLoopbackName(_ host: String) -> Bool {
        let lowered = host.lowercased()
        if lowered == "localhost" || lowered.hasSuffix(".localhost") || lowered == "[::1]" { return true }
        var address = in_addr()
        return inet_pton(AF_INET, lowered, &address) == 1 && UInt32(bigEndian: address.s_addr) >> 24 == 127
    }

    /// An IPv4 literal, or an IPv6 literal in brackets.
    static func isIPLiteral(_ host: String) -> Bool {
        if host.hasPrefix("[") && host.hasSuffix("]") {
            var address = in6_addr()
            return inet_pton(AF_INET6, String(host.dropFirst().dropLast()), &address) == 1
        }
        var address = in_addr()
        return inet_pton(AF_INET, host, &address) == 1
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
