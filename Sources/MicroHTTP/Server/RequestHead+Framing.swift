extension RequestHead {
    /// Checks how the body is delimited (RFC 9112 §6), where a mistake would let the server
    /// and a proxy in front of it disagree on where the request ends, and the rest run as a
    /// second request (request smuggling). libmicrohttpd itself refuses a malformed
    /// `Content-Length` value or chunk size, but reads only the first `Content-Length` and the
    /// first `Transfer-Encoding` field, and reads an unknown coding until the connection
    /// closes. So, per §6.3, a request is refused when it has:
    ///
    /// - more than one `Content-Length` field (even with equal values; RFC 9110 §8.6 allows
    ///   refusing them): 400;
    /// - both `Transfer-Encoding` and `Content-Length`: 400;
    /// - `Transfer-Encoding` in an HTTP/1.0 request (§6.1): 400;
    /// - a `Transfer-Encoding` whose final coding is not `chunked`, or that applies `chunked`
    ///   twice: 400;
    /// - a coding other than `chunked` before it (`gzip, chunked`): 501 (§6.1, not
    ///   implemented);
    /// - any other `Transfer-Encoding` than one field saying exactly `chunked` (which is all
    ///   libmicrohttpd reads as chunked): 400.
    ///
    /// - Parameter http10: The request line said `HTTP/1.0`.
    func checkFraming(http10: Bool) throws(HTTPError) {
        var lengths = 0
        var encodings: [String] = []
        for (name, value) in headers {
            if Self.named(name, "content-length") { lengths += 1 }
            if Self.named(name, "transfer-encoding") { encodings.append(value) }
        }
        if lengths > 1 {
            throw .badRequest("the request has \(lengths) Content-Length fields; send one", field: "Content-Length")
        }
        guard !encodings.isEmpty else { return }
        if lengths > 0 {
            throw .badRequest("the request has both Transfer-Encoding and Content-Length; send one", field: "Transfer-Encoding")
        }
        if http10 {
            throw .badRequest("an HTTP/1.0 request cannot use Transfer-Encoding", field: "Transfer-Encoding")
        }
        let codings = encodings.flatMap { $0.split(separator: ",") }
            .map { $0.split(separator: ";").first.map { String($0).trimmingSpaces.lowercased() } ?? "" }
            .filter { !$0.isEmpty }
        guard codings.last == "chunked" else {
            throw .badRequest("the final transfer coding must be chunked, or the body's end cannot be known", field: "Transfer-Encoding")
        }
        guard codings.filter({ $0 == "chunked" }).count == 1 else {
            throw .badRequest("chunked is applied more than once", field: "Transfer-Encoding")
        }
        if let other = codings.first(where: { $0 != "chunked" }) {
            throw HTTPError(status: 501, code: "not_implemented", message: "the transfer coding \(HTTPRequest.printable(other)) is not supported; send the body chunked only",
                            field: "Transfer-Encoding")
        }
        guard encodings.count == 1, encodings[0].lowercased() == "chunked" else {
            throw .badRequest("Transfer-Encoding must be one field saying exactly chunked", field: "Transfer-Encoding")
        }
    }

    /// Checks that the request names its host once (RFC 9112 §3.2): an HTTP/1.1 request
    /// without a `Host` field, or any request with more than one, is refused 400 (a proxy and
    /// the server could each take a different one). HTTP/1.0 may omit it.
    ///
    /// - Parameter http10: The request line said `HTTP/1.0`.
    func checkHost(http10: Bool) throws(HTTPError) {
        var hosts = 0
        for (name, _) in headers where Self.named(name, "host") { hosts += 1 }
        if hosts > 1 {
            throw .badRequest("the request has \(hosts) Host fields; send one", field: "Host")
        }
        if hosts == 0 && !http10 {
            throw .badRequest("an HTTP/1.1 request needs a Host field", field: "Host")
        }
    }

    /// Whether a field name (lowered by `RequestHead`) is `lowercased`.
    private static func named(_ name: String, _ lowercased: String) -> Bool {
        name == lowercased
    }
}
