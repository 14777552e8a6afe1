#if canImport(Glibc)
import Glibc
#endif

/// A response read by `TestHTTPConnection`.
public struct TestHTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// Header fields in order; names lower case.
    public var headers: [(String, String)]
    /// The body (de-chunked if it was chunked).
    public var body: [UInt8]

    /// A response.
    public init(status: Int, headers: [(String, String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first header field named `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.0 == lower }?.1
    }

    /// The body as UTF-8 text.
    public var bodyString: String { String(decoding: body, as: UTF8.self) }
}

/// Why a test request failed: connecting, sending, a timeout, a closed connection, or a
/// malformed response.
public struct TestHTTPError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String
    /// An error.
    public init(description: String) { self.description = description }
}

/// A blocking HTTP/1.1 client over one TCP connection, reused across requests (keep-alive).
///
/// Reads and writes time out after `timeout` seconds (`SO_RCVTIMEO`, `SO_SNDTIMEO`), so a
/// test can never hang; a connection the server closed makes reads throw.
public final class TestHTTPConnection {
    private var fd: Int32
    private var buffer: [UInt8] = []
    private var scratch = [UInt8](repeating: 0, count: 65536)

    /// Connects to `host` (an IPv4 or IPv6 literal) on `port`, from the IPv4 address `source`
    /// when one is given (any of 127.0.0.0/8 works on loopback: a second client address).
    public init(port: Int, host: String = "127.0.0.1", timeout: Int = 10, source: String? = nil) throws {
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        let family: Int32
        if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
            family = AF_INET
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = UInt16(port).bigEndian
        } else if inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 {
            family = AF_INET6
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = UInt16(port).bigEndian
        } else {
            throw TestHTTPError(description: "\(host) is not an IP address")
        }
        fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestHTTPError(description: "socket failed: \(String(cString: strerror(errno)))") }
        var tv = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var on: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            guard inet_pton(AF_INET, source, &local.sin_addr) == 1,
                  withUnsafePointer(to: &local, { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }) == 0 else {
                let reason = String(cString: strerror(errno))
                Glibc.close(fd)
                throw TestHTTPError(description: "cannot connect from \(source): \(reason)")
            }
        }
        let connected = family == AF_INET
            ? withUnsafePointer(to: &v4) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
            : withUnsafePointer(to: &v6) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) } }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw TestHTTPError(description: "connect to \(host) port \(port) failed: \(reason)")
        }
    }

    deinit { close() }

    /// Sends a request and reads its response (headers only for `HEAD`). Adds `Host` (unless
    /// `headers` has one) and, when there is a body, `Content-Length`. If the server closes the connection before the
    /// whole request is sent (it may answer early, a 413 say), the response it sent is still
    /// read and returned.
    public func send(method: String, path: String, headers: [(String, String)] = [], body: [UInt8]? = nil) throws -> TestHTTPResponse {
        var head = "\(method) \(path) HTTP/1.1\r\n"
        if !headers.contains(where: { $0.0.lowercased() == "host" }) { head += "Host: 127.0.0.1\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        do {
            try sendRaw(Array(head.utf8) + (body ?? []))
        } catch {
            guard let early = try? readResponse(bodyless: method == "HEAD") else { throw error }
            return early
        }
        return try readResponse(bodyless: method == "HEAD")
    }

    /// Writes bytes as they are (for partial or malformed requests).
    public func sendRaw(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw TestHTTPError(description: "send failed: \(String(cString: strerror(errno)))") }
            sent += n
        }
    }

    /// Reads one response: status line, headers, then a body delimited by `Content-Length`,
    /// chunked encoding, or (with neither) the end of the connection. Interim `1xx` responses
    /// are skipped. `bodyless`: the response to a `HEAD` request, which has no body.
    public func readResponse(bodyless: Bool = false) throws -> TestHTTPResponse {
        var (status, headers) = try readHead()
        while (100...199).contains(status) && status != 101 {
            (status, headers) = try readHead()
        }
        let response = TestHTTPResponse(status: status, headers: headers, body: [])
        var body: [UInt8] = []
        if bodyless || status == 204 || status == 304 || (100...199).contains(status) {
            // No body.
        } else if response.header("transfer-encoding")?.lowercased().contains("chunked") == true {
            while let chunk = try readChunk() { body += chunk }
        } else if let field = response.header("content-length") {
            guard let length = Int(field), length >= 0 else { throw TestHTTPError(description: "bad Content-Length: \(field)") }
            body = try readBytes(length)
        } else {
            body = try readToEnd()
        }
        return TestHTTPResponse(status: status, headers: headers, body: body)
    }

    /// Reads a response's status line and headers only (for a streamed body: see `readChunk`).
    public func readHead() throws -> (status: Int, headers: [(String, String)]) {
        let statusLine = try readLine()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw TestHTTPError(description: "bad status line: \(statusLine)")
        }
        var headers: [(String, String)] = []
        while true {
            let line = try readLine()
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { throw TestHTTPError(description: "bad header line: \(line)") }
            headers.append((line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingSpaces()))
        }
        return (status, headers)
    }

    /// Reads the next chunk of a chunked body; nil at the last (empty) chunk, after its trailer.
    public func readChunk() throws -> [UInt8]? {
        let sizeLine = try readLine()
        guard let size = Int(sizeLine.split(separator: ";").first.map(String.init)?.trimmingSpaces() ?? "", radix: 16), size >= 0 else {
            throw TestHTTPError(description: "bad chunk size: \(sizeLine)")
        }
        if size == 0 {
            while try !readLine().isEmpty {}
            return nil
        }
        let chunk = try readBytes(size)
        guard try readLine().isEmpty else { throw TestHTTPError(description: "no CRLF after a chunk") }
        return chunk
    }

    /// Whether the server has closed the connection, waiting up to `timeout` seconds for it
    /// (bytes that arrive meanwhile are kept for the next read).
    public func isClosedByServer(within timeout: Double) -> Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(timeout * 1000)) > 0 else { return false }
        var byte: UInt8 = 0
        let n = recv(fd, &byte, 1, Int32(MSG_PEEK))
        return n == 0 || (n < 0 && errno == ECONNRESET)
    }

    /// Whether bytes (or the end of the connection) arrive within `timeout` seconds, without
    /// reading them.
    public func isReadable(within timeout: Double) -> Bool {
        guard buffer.isEmpty else { return true }
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, Int32(timeout * 1000)) > 0
    }

    /// Closes the connection (idempotent).
    public func close() {
        if fd >= 0 {
            Glibc.close(fd)
            fd = -1
        }
    }

    private func fill() throws {
        guard try fillUnlessClosed() else { throw TestHTTPError(description: "connection closed by the server") }
    }

    /// Reads what arrives into `buffer`; false if the server closed the connection.
    private func fillUnlessClosed() throws -> Bool {
        guard fd >= 0 else { throw TestHTTPError(description: "the connection is closed") }
        let n = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n == 0 { return false }
        if n < 0 {
            let timedOut = errno == EAGAIN || errno == EWOULDBLOCK
            throw TestHTTPError(description: timedOut ? "timed out waiting for the server" : "recv failed: \(String(cString: strerror(errno)))")
        }
        buffer += scratch[..<n]
        return true
    }

    private func readLine() throws -> String {
        var searched = 0
        while true {
            if let index = buffer[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                var line = Array(buffer[..<index])
                buffer.removeFirst(index + 1)
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            searched = buffer.count
            try fill()
        }
    }

    private func readBytes(_ count: Int) throws -> [UInt8] {
        while buffer.count < count { try fill() }
        let bytes = Array(buffer[..<count])
        buffer.removeFirst(count)
        return bytes
    }

    private func readToEnd() throws -> [UInt8] {
        while try fillUnlessClosed() {}
        defer { buffer = [] }
        return buffer
    }
}

/// One request on a fresh connection to 127.0.0.1, closed afterwards.
public func httpRequest(port: Int, method: String, path: String, headers: [(String, String)] = [], body: [UInt8]? = nil) throws -> TestHTTPResponse {
    let connection = try TestHTTPConnection(port: port)
    defer { connection.close() }
    return try connection.send(method: method, path: path, headers: headers, body: body)
}

extension StringProtocol {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" { s.removeFirst() }
        while s.last == " " || s.last == "\t" { s.removeLast() }
        return String(s)
    }
}
