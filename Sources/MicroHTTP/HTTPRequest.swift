/// One HTTP request, read whole (headers and body).
public struct HTTPRequest: Sendable {
    /// The method as sent: `GET`, `POST`, …
    public var method: String
    /// The percent-decoded path, without the query string: `/a b` for `/a%20b?x=1`.
    ///
    /// Decoded whole, so an encoded slash (`%2F`) looks like a separator: for display only.
    /// Route on `rawPath` (`Router` decodes each segment on its own). `%00` is never decoded
    /// (the server refuses a path holding it).
    public var path: String
    /// The path as received, not decoded, without the query string: `/a%20b`. What
    /// `Router.match` takes.
    public var rawPath: String
    /// Query parameters in order, percent-decoded (`+` too is a space); a parameter without
    /// `=` has the value "".
    public var query: [(name: String, value: String)]
    /// Header fields in order; names are lower case.
    public var headers: [(name: String, value: String)] {
        didSet { headerNamesAreASCII = Self.allASCII(headers) }
    }
    /// Whether every field name is ASCII (`header(_:)` then compares bytes only).
    private var headerNamesAreASCII: Bool
    /// The body, empty if there is none.
    public var body: [UInt8]
    /// The request target as received: `rawPath` and, if any, `?` and the query string.
    public var rawTarget: String
    /// Whether the caller can send a deferred answer (`HTTPResponse.deferred`): set by an
    /// `HTTPServer` whose configuration allows it; false for a request made in code.
    public var acceptsDeferredResponse = false

    /// A request; header names are lowered here. `rawPath` defaults to `path`, `rawTarget` to
    /// `rawPath` and the query.
    public init(method: String, path: String, rawPath: String? = nil, query: [(name: String, value: String)] = [],
                headers: [(name: String, value: String)] = [], body: [UInt8] = [], rawTarget: String? = nil) {
        self.method = method
        self.path = path
        self.rawPath = rawPath ?? path
        self.query = query
        self.headers = headers.map { ($0.name.lowercased(), $0.value) }
        headerNamesAreASCII = Self.allASCII(self.headers)
        self.body = body
        self.rawTarget = rawTarget ?? (query.isEmpty ? self.rawPath
            : self.rawPath + "?" + query.map { $0.value.isEmpty ? $0.name : "\($0.name)=\($0.value)" }.joined(separator: "&"))
    }

    /// A request whose header names are already lower case (the server's, lowered as they
    /// are read): nothing is copied or lowered again.
    init(method: String, path: String, rawPath: String, query: [(name: String, value: String)],
         loweredHeaders: [(name: String, value: String)], body: [UInt8], rawTarget: String) {
        self.method = method
        self.path = path
        self.rawPath = rawPath
        self.query = query
        self.headers = loweredHeaders
        headerNamesAreASCII = Self.allASCII(loweredHeaders)
        self.body = body
        self.rawTarget = rawTarget
    }

    /// The first header field named `name` (case-insensitive). Names are compared byte by
    /// byte, ASCII letters folded, with no `String` made; when either has other bytes (never
    /// a valid field name), as `lowercased()` strings, as they always were. Fields of another
    /// length are passed over unread: this runs several times per request. O(fields + name).
    public func header(_ name: String) -> String? {
        if headerNamesAreASCII, let found = name.utf8.withContiguousStorageIfAvailable({ wanted -> String?? in
            for byte in wanted where byte >= 0x80 { return nil }
            for index in headers.indices where headers[index].name.utf8.count == wanted.count {
                let same = headers[index].name.utf8.withContiguousStorageIfAvailable { stored -> Bool in
                    for i in 0..<stored.count {
                        let w = wanted[i]
                        if stored[i] != (w >= UInt8(ascii: "A") && w <= UInt8(ascii: "Z") ? w | 0x20 : w) { return false }
                    }
                    return true
                }
                guard let same else { return nil }
                if same { return .some(headers[index].value) }
            }
            return .some(nil)
        }), let found {
            return found
        }
        let lower = name.lowercased()
        return headers.first { $0.name == lower }?.value
    }

    /// Whether every field name is ASCII, read on the names' bytes. O(names).
    private static func allASCII(_ fields: [(name: String, value: String)]) -> Bool {
        for field in fields {
            var name = field.name
            if !name.withUTF8({ bytes in bytes.allSatisfy { $0 < 0x80 } }) { return false }
        }
        return true
    }

    /// The first query parameter named `name` (case-sensitive).
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// The method and the target as received, for access logs: still percent-encoded (an
    /// encoded newline stays `%0A`), and every byte outside printable ASCII, and `\`, written
    /// `\xHH`, so whatever a client sends stays on one line and cannot forge another. Bounded
    /// whatever the request: the method is cut to `summaryMethodBytes` and the target to
    /// `summaryTargetBytes` once escaped, each followed by `…(+N bytes)` (N bytes received
    /// and not shown) when cut. O(shown part).
    public var summary: String {
        Self.printable(method, limit: Self.summaryMethodBytes) + " " + Self.printable(rawTarget, limit: Self.summaryTargetBytes)
    }

    /// The most bytes of the escaped method `summary` shows.
    public static let summaryMethodBytes = 32
    /// The most bytes of the escaped target `summary` shows.
    public static let summaryTargetBytes = 512

    /// `text` with every byte outside printable ASCII, and `\`, written `\xHH`; cut before
    /// the escaped text would pass `limit` bytes, with `…(+N bytes)` for the N bytes of `text`
    /// left out.
    static func printable(_ text: String, limit: Int = .max) -> String {
        var result = ""
        var shown = 0
        let bytes = text.utf8
        for byte in bytes {
            let escaped = byte < 0x20 || byte > 0x7E || byte == UInt8(ascii: "\\")
            if result.utf8.count + (escaped ? 4 : 1) > limit {
                return result + "…(+\(bytes.count - shown) bytes)"
            }
            if escaped {
                result += "\\x" + RequestHead.hex(byte)
            } else {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            }
            shown += 1
        }
        return result
    }
}
