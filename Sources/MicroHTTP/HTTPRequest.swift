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
    public var headers: [(name: String, value: String)]
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
        self.body = body
        self.rawTarget = rawTarget
    }

    /// The first header field named `name` (case-insensitive). Names are compared byte by
    /// byte, ASCII letters folded, with no `String` made; a name with other bytes (never a
    /// valid field name) is compared as `lowercased()` strings, as it always was.
    /// One pass over the fields' bytes with plain loops (no closures per byte): this runs
    /// several times per request.
    public func header(_ name: String) -> String? {
        var name = name
        let found = name.withUTF8 { wanted -> String?? in
            for byte in wanted where byte >= 0x80 { return nil }
            var asciiNames = true
            for field in headers {
                var stored = field.name
                let same = stored.withUTF8 { stored -> Bool in
                    var equal = stored.count == wanted.count
                    var i = 0
                    while i < stored.count {
                        let s = stored[i]
                        if s >= 0x80 {
                            asciiNames = false
                            return false
                        }
                        if equal {
                            let w = wanted[i]
                            equal = s == (w >= UInt8(ascii: "A") && w <= UInt8(ascii: "Z") ? w | 0x20 : w)
                        }
                        i += 1
                    }
                    return equal
                }
                if same { return .some(field.value) }
            }
            // Not found: certain only when every name is ASCII (else compared as strings).
            return asciiNames ? .some(nil) : nil
        }
        if let found { return found }
        let lower = name.lowercased()
        return headers.first { $0.name == lower }?.value
    }

    /// The first query parameter named `name` (case-sensitive).
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// The method and the target as received, for access logs: still percent-encoded (an
    /// encoded newline stays `%0A`), and every byte outside printable ASCII, and `\`, written
    /// `\xHH`, so whatever a client sends stays on one line and cannot forge another.
    public var summary: String {
        Self.printable(method) + " " + Self.printable(rawTarget)
    }

    /// `text` with every byte outside printable ASCII, and `\`, written `\xHH`.
    static func printable(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            if byte < 0x20 || byte > 0x7E || byte == UInt8(ascii: "\\") {
                let digits = String(byte, radix: 16, uppercase: true)
                result += "\\x" + (digits.count == 1 ? "0" + digits : digits)
            } else {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return result
    }
}
