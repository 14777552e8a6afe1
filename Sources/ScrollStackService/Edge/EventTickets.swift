#if canImport(Glibc)
import Glibc
#endif

/// Short-lived tickets that let a browser's `EventSource`, which cannot send headers, open a
/// live event stream on a server with tokens: `POST /v1/event-tickets` with a token answers
/// one, and `GET …/events?ticket=…` is then authorized to read, without `Authorization`.
///
/// A ticket is `et1.EXPIRY.MAC`: the Unix second it expires at, and the base64url HMAC-SHA256
/// of `et1.EXPIRY` under a key derived from the configured tokens (so every replica with the
/// same tokens accepts it, and changing the tokens revokes every ticket). It grants nothing
/// but reading events, lasts `lifetime` seconds, and holds no token: a ticket in an access
/// log or a browser's history is worth a few minutes of one stream's events at most.
struct EventTickets: Sendable {
    /// Seconds a ticket is valid for.
    static let lifetime = 600
    private static let prefix = "et1."

    private let key: [UInt8]

    /// The Unix second now.
    static var now: Int { time(nil) }

    /// Tickets keyed by `tokens`' text (their canonical lines, sorted); with no tokens, a key
    /// drawn at random (tickets are then never needed, but still accepted).
    init(tokens: AccessTokens) {
        if tokens.isEmpty {
            var generator = SystemRandomNumberGenerator()
            key = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        } else {
            key = SHA256.digest(Array(("scrollstack event tickets\n" + tokens.canonicalText).utf8))
        }
    }

    /// A ticket valid until `now` + `lifetime` (Unix seconds). O(1).
    func mint(now: Int) -> String {
        let signed = Self.prefix + String(now + Self.lifetime)
        return signed + "." + Self.base64url(Self.hmac(key: key, Array(signed.utf8)))
    }

    /// Whether `ticket` is one of these tickets and has not expired at `now`. The MAC is
    /// compared in constant time. O(ticket length).
    func accepts(_ ticket: String, now: Int) -> Bool {
        let parts = ticket.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "et1", parts[1].count <= 12, let expiry = Int(parts[1]), expiry > now,
              expiry <= now + Self.lifetime else { return false }
        let expected = Array(Self.base64url(Self.hmac(key: key, Array((Self.prefix + parts[1]).utf8))).utf8)
        let given = Array(parts[2].utf8)
        guard given.count == expected.count else { return false }
        var difference: UInt8 = 0
        for i in 0..<given.count { difference |= given[i] ^ expected[i] }
        return difference == 0
    }

    /// HMAC-SHA256 (RFC 2104) of `message` under `key` (at most one block long). O(message).
    static func hmac(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        let block = (key.count > 64 ? SHA256.digest(key) : key) + [UInt8](repeating: 0, count: 64 - min(key.count, 64))
        let inner = SHA256.digest(block.map { $0 ^ 0x36 } + message)
        return SHA256.digest(block.map { $0 ^ 0x5C } + inner)
    }

    /// base64url without padding (RFC 4648, section 5).
    static func base64url(_ bytes: [UInt8]) -> String {
        String(SHA256.base64(bytes).compactMap { $0 == "=" ? nil : $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
    }
}
