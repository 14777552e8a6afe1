#if canImport(Glibc)
import Glibc
#endif

/// A response read by `TestHTTPConnection`.
public struct TestHTTPResponse: Sendable {
    public var status: Int
    /// Header fields in order; names lower case.
    public var headers: [(String, String)]
    public var body: [UInt8]

    public func header(_ name: String) -> String? {
        headers.first { $0.0 == name.lowercased() }?.1
    }

    public var bodyString: String { String(decoding: body, as: UTF8.self) }
}

/// Why a test request failed.
public struct TestHTTPError: Error, CustomStringConvertible {
    public let description: String
    public init(description: String) { self.description = description }
}

/// A blocking HTTP/1.1 client over one TCP connection to 127.0.0.1, reused across requests
/// (keep-alive). Reads time out after `timeout` seconds so a test can never hang.
public final class TestHTTPConnection {
    private var fd: Int32
    private var buffer: [UInt8] = []

    public init(port: Int, timeout: Int = 10) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestHTTPError(description: "socket failed") }
        var tv = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            Glibc.close(fd)
            throw TestHTTPError(description: "connect to port \(port) failed: \(String(cString: strerror(errno)))")
        }
    }

    deinit { close() }

    /// Sends a request (adding `Host` and, with a body, `Content-Length`) and reads the response.
    public func send(method: String, path: String, headers: [(String, String)] = [], body: [UInt8]? = nil) throws -> TestHTTPResponse {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        try sendRaw(Array(head.utf8) + (body ?? []))
        if method == "HEAD" {
            // Headers only: a HEAD answer announces a length but carries no body.
            let (status, headers) = try readHead()
            return TestHTTPResponse(status: status, headers: headers, body: [])
        }
        return try readResponse()
    }

    /// Writes bytes as they are.
    public func sendRaw(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw TestHTTPError(description: "send failed: \(String(cString: strerror(errno)))") }
            sent += n
        }
    }

    /// Reads one response: status line, headers, then a Content-Length or chunked body.
    public func readResponse() throws -> TestHTTPResponse {
        let (status, headers) = try readHead()
        let response = TestHTTPResponse(status: status, headers: headers, body: [])
        var body: [UInt8] = []
        if response.header("transfer-encoding")?.lowercased() == "chunked" {
            while let chunk = try readChunk() { body += chunk }
        } else if let length = response.header("content-length").flatMap({ Int($0) }) {
            body = try readBytes(length)
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
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append((line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingSpaces()))
        }
        return (status, headers)
    }

    /// Reads the next chunk of a chunked body; nil at the final, empty chunk.
    public func readChunk() throws -> [UInt8]? {
        let sizeLine = try readLine()
        guard let size = Int(sizeLine.split(separator: ";").first.map(String.init)?.trimmingSpaces() ?? "", radix: 16) else {
            throw TestHTTPError(description: "bad chunk size: \(sizeLine)")
        }
        if size == 0 {
            while try !readLine().isEmpty {}
            return nil
        }
        let chunk = try readBytes(size)
        _ = try readLine()
        return chunk
    }

    public func close() {
        if fd >= 0 {
            Glibc.close(fd)
            fd = -1
        }
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n == 0 { throw TestHTTPError(description: "connection closed by the server") }
        if n < 0 { throw TestHTTPError(description: "recv failed: \(String(cString: strerror(errno)))") }
        buffer += chunk[..<n]
    }

    private func readLine() throws -> String {
        while true {
            if let index = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                var line = Array(buffer[..<index])
                buffer.removeFirst(index + 1)
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            try fill()
        }
    }

    private func readBytes(_ count: Int) throws -> [UInt8] {
        while buffer.count < count { try fill() }
        let bytes = Array(buffer[..<count])
        buffer.removeFirst(count)
        return bytes
    }
}

/// One request on a fresh connection.
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
