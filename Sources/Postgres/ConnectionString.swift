/// A libpq connection string, as logs may show it: the password masked in either form libpq
/// reads, the URL (`postgres://user:password@host/db?password=…`) and the keywords
/// (`host=db password='it''s' dbname=x`).
public enum ConnectionString {
    /// What a password is replaced with.
    public static let mask = "***"

    /// `text` with every password masked. O(length).
    public static func redacted(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var result: [UInt8] = []
        var last = 0
        for range in passwordRanges(bytes) {
            result += bytes[last..<range.lowerBound]
            result += Array(mask.utf8)
            last = range.upperBound
        }
        result += bytes[last...]
        return String(decoding: result, as: UTF8.self)
    }

    /// `text` (an error message, say) with the connection string `connection` and each of its
    /// passwords, as written and percent-decoded, masked wherever they appear.
    /// O(length × passwords).
    public static func redacting(_ connection: String?, in text: String) -> String {
        guard let connection else { return text }
        let bytes = Array(connection.utf8)
        var result = text.replacingAll(connection, with: redacted(connection))
        for range in passwordRanges(bytes) {
            let raw = String(decoding: bytes[range], as: UTF8.self)
            for secret in [raw, percentDecoded(raw)] where !secret.isEmpty {
                result = result.replacingAll(secret, with: mask)
            }
        }
        return result
    }

    /// The byte ranges of the passwords in `bytes`: a URL's user-info password and `password=`
    /// query parameters, or the value of every `password` keyword.
    static func passwordRanges(_ bytes: [UInt8]) -> [Range<Int>] {
        let text = String(decoding: bytes, as: UTF8.self)
        if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            return urlPasswordRanges(bytes)
        }
        return keywordPasswordRanges(bytes)
    }

    private static func urlPasswordRanges(_ bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        let start = bytes.firstRange(of: Array("://".utf8))!.upperBound
        let authorityEnd = bytes[start...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? bytes.count
        if let at = bytes[start..<authorityEnd].lastIndex(of: UInt8(ascii: "@")),
           let colon = bytes[start..<at].firstIndex(of: UInt8(ascii: ":")) {
            ranges.append(colon + 1..<at)
        }
        guard let question = bytes[authorityEnd...].firstIndex(of: UInt8(ascii: "?")) else { return ranges }
        var i = question + 1
        while i < bytes.count {
            let end = bytes[i...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.count
            let name = Array("password=".utf8)
            if bytes[i..<end].starts(with: name) { ranges.append(i + name.count..<end) }
            i = end + 1
        }
        return ranges
    }

    private static func keywordPasswordRanges(_ bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var i = 0
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }
        while i < bytes.count {
            while i < bytes.count && isSpace(bytes[i]) { i += 1 }
            let nameStart = i
            while i < bytes.count && bytes[i] != UInt8(ascii: "=") && !isSpace(bytes[i]) { i += 1 }
            let name = String(decoding: bytes[nameStart..<i], as: UTF8.self)
            while i < bytes.count && isSpace(bytes[i]) { i += 1 }
            guard i < bytes.count, bytes[i] == UInt8(ascii: "=") else { continue }
            i += 1
            while i < bytes.count && isSpace(bytes[i]) { i += 1 }
            let valueStart = i
            if i < bytes.count && bytes[i] == UInt8(ascii: "'") {
                i += 1
                while i < bytes.count && bytes[i] != UInt8(ascii: "'") { i += bytes[i] == UInt8(ascii: "\\") ? 2 : 1 }
                i = min(i + 1, bytes.count)
            } else {
                while i < bytes.count && !isSpace(bytes[i]) { i += bytes[i] == UInt8(ascii: "\\") ? 2 : 1 }
                i = min(i, bytes.count)
            }
            if name == "password" && i > valueStart { ranges.append(valueStart..<i) }
        }
        return ranges
    }

    private static func percentDecoded(_ text: String) -> String {
        var bytes: [UInt8] = []
        let source = Array(text.utf8)
        var i = 0
        while i < source.count {
            if source[i] == UInt8(ascii: "%"), i + 2 < source.count, let value = UInt8(String(decoding: source[i + 1...i + 2], as: UTF8.self), radix: 16) {
                bytes.append(value)
                i += 3
            } else {
                bytes.append(source[i])
                i += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension String {
    /// `self` with every occurrence of `target` replaced by `replacement`. O(length × target length).
    fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        let bytes = Array(utf8), pattern = Array(target.utf8)
        var result: [UInt8] = []
        var i = 0
        while i < bytes.count {
            if bytes[i...].starts(with: pattern) {
                result += Array(replacement.utf8)
                i += pattern.count
            } else {
                result.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
