#if canImport(Glibc)
import Glibc
#endif

extension HealthCheck {
    /// The status code `GET /healthz` gets from `host` (an IPv4 or IPv6 literal) and `port`,
    /// within `timeout` seconds in all (connecting, sending and reading each get what is left).
    static func statusOfHealthz(host: String, port: Int, timeout: Double) throws(HealthCheckError) -> Int {
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(host, String(port), &hints, &list)
        guard resolved == 0, let address = list?.pointee else {
            throw HealthCheckError(description: "\(host) is not an IP address literal (\(String(cString: gai_strerror(resolved))))")
        }
        defer { freeaddrinfo(list) }
        let descriptor = socket(address.ai_family, address.ai_socktype, address.ai_protocol)
        guard descriptor >= 0 else { throw systemError("socket") }
        defer { close(descriptor) }

        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let deadline = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 + timeout
        // Bounds the next blocking call (connect, send or recv) by what is left of the timeout.
        func bound() throws(HealthCheckError) {
            clock_gettime(CLOCK_MONOTONIC, &now)
            let left = deadline - Double(now.tv_sec) - Double(now.tv_nsec) / 1e9
            guard left > 0 else { throw HealthCheckError(description: "no answer within \(timeout) s") }
            var limit = timeval(tv_sec: Int(left), tv_usec: Int((left - left.rounded(.down)) * 1e6))
            setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        }

        try bound()
        guard connect(descriptor, address.ai_addr, address.ai_addrlen) == 0 else { throw systemError("connect") }
        let request = Array("GET /healthz HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n".utf8)
        var sent = 0
        while sent < request.count {
            try bound()
            let count = request[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw systemError("send") }
            sent += count
        }
        // Only the status line matters: read until it is complete.
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while !answer.contains(UInt8(ascii: "\n")) {
            try bound()
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { throw count == 0 ? HealthCheckError(description: "the connection closed before an answer") : systemError("recv") }
            answer += buffer[..<count]
        }
        let statusLine = String(decoding: answer.prefix { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let status = Int(parts[1]) else {
            throw HealthCheckError(description: "not an HTTP answer: \(statusLine)")
        }
        return status
    }

    private static func systemError(_ call: String) -> HealthCheckError {
        let reason = errno == EAGAIN || errno == EINPROGRESS ? "timed out" : String(cString: strerror(errno))
        return HealthCheckError(description: "\(call): \(reason)")
    }
}
