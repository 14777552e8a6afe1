import Dispatch
import Foundation
import Synchronization

public struct ScriptedServerError: Error {
    public let message: String
}

/// A TCP server on loopback that runs `script` for each connection it accepts (on a thread of
/// its own) and closes the connection when the script returns.
public final class ScriptedServer: @unchecked Sendable {
    public final class Connection {
        let fd: Int32
        var buffer: [UInt8] = []

        init(fd: Int32) { self.fd = fd }

        /// The next request's head and body (by `Content-Length`), or nil at the connection's end.
        public func readRequest() -> (head: String, body: [UInt8])? {
            while true {
                if let end = find(Array("\r\n\r\n".utf8)) {
                    let head = String(decoding: buffer[..<end], as: UTF8.self) + "\r\n"
                    let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                        .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                    while buffer.count < end + 4 + length { guard more() else { return nil } }
                    let body = Array(buffer[(end + 4)..<(end + 4 + length)])
                    buffer.removeFirst(end + 4 + length)
                    return (head, body)
                }
                guard more() else { return nil }
            }
        }

        public func write(_ text: String) {
            let bytes = Array(text.utf8)
            var sent = 0
            while sent < bytes.count {
                let count = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
                guard count > 0 else { return }
                sent += count
            }
        }

        private func find(_ marker: [UInt8]) -> Int? {
            guard buffer.count >= marker.count else { return nil }
            return (0...(buffer.count - marker.count)).first { buffer[$0..<$0 + marker.count].elementsEqual(marker) }
        }

        private func more() -> Bool {
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return false }
            buffer += chunk[..<count]
            return true
        }
    }

    private let listener: Int32
    public let port: Int
    private let counts = Mutex<(accepted: Int, closed: Int)>((0, 0))
    private let stopped = Atomic<Bool>(false)

    public var address: String { "http://127.0.0.1:\(port)" }
    public var accepted: Int { counts.withLock { $0.accepted } }
    public var closed: Int { counts.withLock { $0.closed } }

    public init(_ script: @escaping @Sendable (Connection) -> Void) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        listener = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound, listen(fd, 16) == 0 else { throw ScriptedServerError(message: "cannot listen on loopback: \(String(cString: strerror(errno)))") }
        port = Int(UInt16(bigEndian: address.sin_port))
        DispatchQueue(label: "scripted-server-\(port)").async { [self] in
            while !stopped.load(ordering: .relaxed) {
                let connection = accept(fd, nil, nil)
                guard connection >= 0 else { return }
                counts.withLock { $0.accepted += 1 }
                DispatchQueue.global().async { [self] in
                    script(Connection(fd: connection))
                    close(connection)
                    counts.withLock { $0.closed += 1 }
                }
            }
        }
    }

    /// Stops accepting (connections in progress run their scripts to the end).
    public func stop() {
        stopped.store(true, ordering: .relaxed)
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
