import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Sends whole requests to other HTTP/1.1 servers (`http://host:port`) and reads their whole
/// answers, on threads of its own, over kept-alive connections: what a server does to hand a
/// request to another one and answer with what that one answered.
///
/// Rules:
/// - It tells apart a request that cannot have reached the other server
///   (`Failure.unreachable`: its connection could not be made, so nothing was sent) from one
///   that may have (`Failure.unanswered`: sent, perhaps in part, and no whole answer came):
///   only the first may be handled elsewhere without risk of acting twice.
/// - An idle connection is reused only if the other side has neither closed it nor sent
///   anything (checked just before), and for at most `idleSeconds`. A reused connection that
///   fails before one byte of the answer came is tried once more on a new connection: a
///   server closes an idle connection before reading a request, never after.
/// - Every wait is bounded: connecting by `connectSeconds`, each send and receive by
///   `timeoutSeconds`; an answer by `maxAnswerBytes` (head 64 KiB).
/// - At most `threads` requests are in flight at once; more wait for a thread, in order.
public final class HTTPForwarder: Sendable {
    /// A request to send: the method, the target (`/path?query`), header fields (sent as
    /// given, with `Content-Length` added), the body.
    public struct Request: Sendable {
        public var method: String
        public var target: String
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]

        public init(method: String, target: String, headers: [(name: String, value: String)], body: [UInt8]) {
            self.method = method
            self.target = target
            self.headers = headers
            self.body = body
        }
    }

    /// What the other server answered: its status, header fields in order (names as sent),
    /// the body (chunked bodies joined).
    public struct Answer: Sendable {
        public var status: Int
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]
    }

    /// Why no answer came.
    public enum Failure: Error, Sendable, Equatable {
        /// Nothing was sent: no connection could be made (the reason).
        case unreachable(String)
        /// The request was sent, or partly, and no whole answer came (the reason): the other
        /// server may have acted on it.
        case unanswered(String)
    }

    public let threads: Int
    public let connectSeconds: Double
    public let timeoutSeconds: Double
    public let idleSeconds: Double
    public let maxAnswerBytes: Int

    private struct Job: Sendable {
        let request: Request
        let address: Address
        let done: @Sendable (Result<Answer, Failure>) -> Void
    }

    private struct Idle {
        let fd: Int32
        let since: UInt64
    }

    private struct Workers {
        var queued: [Job] = []
        /// Threads started and not ended; of them, those waiting for a job.
        var started = 0
        var waiting = 0
        var stopped = false
    }

    private let workers = Mutex(Workers())
    /// Signalled once per waiting thread given a job (or told to end).
    private let wake = DispatchSemaphore(value: 0)
    /// Signalled by each thread as it ends.
    private let ended = DispatchSemaphore(value: 0)
    private let idle = Mutex<[String: [Idle]]>([:])

    /// A forwarder of at most `threads` threads, each started when a request finds every
    /// other one busy (none before the first request).
    public init(threads: Int = 32, connectSeconds: Double = 1, timeoutSeconds: Double = 30, idleSeconds: Double = 2,
                maxAnswerBytes: Int = 256 << 20) {
        self.threads = max(1, threads)
        self.connectSeconds = connectSeconds
        self.timeoutSeconds = timeoutSeconds
        self.idleSeconds = idleSeconds
        self.maxAnswerBytes = maxAnswerBytes
    }

    /// Sends `request` to `address` (`http://host:port`, `http://[v6]:port`; port 80 when
    /// none) and calls `done` with the answer or the failure, on one of this forwarder's
    /// threads. A malformed address, or a forwarder stopped, fails as unreachable.
    public func send(_ request: Request, to address: String, done: @escaping @Sendable (Result<Answer, Failure>) -> Void) {
        guard let parsed = Address(address) else { return done(.failure(.unreachable("\"\(address)\" is not http://host:port"))) }
        enum Next { case refuse, wakeOne, startOne, queue }
        let next = workers.withLock { state -> Next in
            guard !state.stopped else { return .refuse }
            state.queued.append(Job(request: request, address: parsed, done: done))
            if state.waiting > 0 {
                state.waiting -= 1
                return .wakeOne
            }
            guard state.started < threads else { return .queue }
            state.started += 1
            return .startOne
        }
        switch next {
        case .refuse: done(.failure(.unreachable("the forwarder has stopped")))
        case .wakeOne: wake.signal()
        case .startOne: startThread()
        case .queue: break  // the next thread to finish its job takes it
        }
    }

    /// Whether `text` is an address `send` takes: `http://host[:port]`, no path, no user.
    public static func isAddress(_ text: String) -> Bool { Address(text) != nil }

    /// Refuses new requests, lets those queued finish, waits for the threads to end and
    /// closes idle connections.
    public func stop() {
        let (running, sleeping) = workers.withLock { state -> (Int, Int) in
            state.stopped = true
            defer { state.waiting = 0 }
            return (state.started, state.waiting)
        }
        for _ in 0..<sleeping { wake.signal() }
        for _ in 0..<running { ended.wait() }
        for list in idle.withLock({ state in defer { state = [:] }; return state.values }) {
            for connection in list { close(connection.fd) }
        }
    }

    private func startThread() {
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { context in
            let forwarder = Unmanaged<HTTPForwarder>.fromOpaque(context!).takeRetainedValue()
            forwarder.work()
            forwarder.ended.signal()
            return nil
        }, context)
        if created == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<HTTPForwarder>.fromOpaque(context).release()
            // No thread: the jobs queued fail now rather than wait for one.
            let orphaned = workers.withLock { state -> [Job] in
                state.started -= 1
                guard state.started == 0 else { return [] }
                defer { state.queued = [] }
                return state.queued
            }
            for job in orphaned { job.done(.failure(.unreachable("cannot start a thread: error \(created)"))) }
        }
    }

    /// A thread's loop: the queued jobs, in order, until stopped with none left.
    private func work() {
        while true {
            enum Next { case run(Job), wait, end }
            let next = workers.withLock { state -> Next in
                if !state.queued.isEmpty { return .run(state.queued.removeFirst()) }
                if state.stopped {
                    state.started -= 1
                    return .end
                }
                state.waiting += 1
                return .wait
            }
            switch next {
            case .run(let job): job.done(exchange(job.request, with: job.address))
            case .wait: wake.wait()
            case .end: return
            }
        }
    }

    // MARK: One exchange

    /// Sends `request` on a kept connection or a new one and reads the answer.
    private func exchange(_ request: Request, with address: Address) -> Result<Answer, Failure> {
        var bytes = Array("\(request.method) \(request.target) HTTP/1.1\r\n".utf8)
        for (name, value) in request.headers { bytes += Array("\(name): \(value)\r\n".utf8) }
        bytes += Array("Content-Length: \(request.body.count)\r\n\r\n".utf8)
        bytes += request.body
        if let kept = takeIdle(address.key) {
            switch attempt(bytes, on: kept, address: address.key) {
            case .success(let answer): return .success(answer)
            // Nothing of an answer came on a kept connection: it was closed while idle.
            case .failure(let failure) where failure.nothingAnswered: break
            case .failure(let failure): return .failure(.unanswered(failure.reason))
            }
        }
        let fd: Int32
        switch connect(address) {
        case .success(let made): fd = made
        case .failure(let failure): return .failure(failure)
        }
        return attempt(bytes, on: fd, address: address.key).mapError { .unanswered($0.reason) }
    }

    private struct ExchangeFailure: Error {
        let reason: String
        /// No byte of an answer was received.
        let nothingAnswered: Bool
    }

    /// Sends `bytes` on `fd` and reads the answer; then keeps the connection idle for
    /// `address` if it may carry another request, else closes it (always, on a failure).
    private func attempt(_ bytes: [UInt8], on fd: Int32, address: String) -> Result<Answer, ExchangeFailure> {
        let outcome = exchangeBytes(bytes, on: fd)
        switch outcome {
        case .success(let (answer, reusable)):
            finish(fd, reusable: reusable, address: address)
            return .success(answer)
        case .failure(let failure):
            close(fd)
            return .failure(failure)
        }
    }

    private func exchangeBytes(_ bytes: [UInt8], on fd: Int32) -> Result<(Answer, Bool), ExchangeFailure> {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return .failure(ExchangeFailure(reason: "sending: \(Self.errorText())", nothingAnswered: true)) }
            sent += count
        }
        var reader = AnswerReader(fd: fd, maxBytes: maxAnswerBytes)
        do throws(ExchangeFailure) {
            return .success(try reader.read())
        } catch {
            return .failure(error)
        }
    }

    private func finish(_ fd: Int32, reusable: Bool, address: String) {
        guard reusable else { close(fd); return }
        let now = DispatchTime.now().uptimeNanoseconds
        let surplus = idle.withLock { state -> Int32? in
            var list = state[address, default: []]
            defer { state[address] = list }
            list.append(Idle(fd: fd, since: now))
            return list.count > threads ? list.removeFirst().fd : nil
        }
        if let surplus { close(surplus) }
    }

    /// The newest idle connection to `address` still fit to send on, or nil.
    private func takeIdle(_ address: String) -> Int32? {
        while let kept = idle.withLock({ $0[address]?.popLast() }) {
            // Another thread may have put it back after `now` was read: saturate.
            let now = DispatchTime.now().uptimeNanoseconds
            let idleFor = now > kept.since ? now - kept.since : 0
            var probe = pollfd(fd: kept.fd, events: Int16(POLLIN), revents: 0)
            // Readable while idle: closed by the other side (or sent something unasked).
            if Double(idleFor) / 1e9 < idleSeconds, poll(&probe, 1, 0) == 0 { return kept.fd }
            close(kept.fd)
        }
        return nil
    }

    private func connect(_ address: Address) -> Result<Int32, Failure> {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(address.host, String(address.port), &hints, &found)
        guard resolved == 0, let first = found else {
            return .failure(.unreachable("resolving \(address.host): \(String(cString: gai_strerror(resolved)))"))
        }
        defer { freeaddrinfo(found) }
        var reason = "no address"
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate {
            candidate = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            guard fd >= 0 else { reason = Self.errorText(); continue }
            if Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) != 0 && errno != EINPROGRESS {
                reason = Self.errorText()
                close(fd)
                continue
            }
            var probe = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            var failure: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard poll(&probe, 1, Int32(connectSeconds * 1000)) == 1,
                  getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length) == 0, failure == 0 else {
                reason = failure != 0 ? String(cString: strerror(failure)) : "connecting took over \(connectSeconds) s"
                close(fd)
                continue
            }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
            var on: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
            var limit = timeval(tv_sec: Int(timeoutSeconds), tv_usec: Int((timeoutSeconds - timeoutSeconds.rounded(.down)) * 1e6))
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            return .success(fd)
        }
        return .failure(.unreachable("connecting to \(address.host):\(address.port): \(reason)"))
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }

    // MARK: Addresses and answers

    /// `http://host[:port]` without a path (a trailing `/` allowed).
    struct Address: Sendable {
        let host: String
        let port: Int
        /// The address as given, the key of its idle connections.
        let key: String

        init?(_ text: String) {
            guard text.hasPrefix("http://") else { return nil }
            var rest = Substring(text.dropFirst(7))
            if rest.hasSuffix("/") { rest = rest.dropLast() }
            guard !rest.isEmpty, !rest.contains("/"), !rest.contains("@") else { return nil }
            var host = rest
            var port = 80
            if rest.hasPrefix("[") {
                guard let close = rest.firstIndex(of: "]") else { return nil }
                host = rest[rest.index(after: rest.startIndex)..<close]
                let after = rest[rest.index(after: close)...]
                if !after.isEmpty {
                    guard after.hasPrefix(":"), let number = Int(after.dropFirst()) else { return nil }
                    port = number
                }
            } else if let colon = rest.lastIndex(of: ":") {
                host = rest[..<colon]
                guard let number = Int(rest[rest.index(after: colon)...]) else { return nil }
                port = number
            }
            guard !host.isEmpty, (1...65535).contains(port) else { return nil }
            self.host = String(host)
            self.port = port
            key = text
        }
    }

    /// Reads one answer from a blocking socket: the head (at most 64 KiB), then a body framed
    /// by `Content-Length`, by chunks, or by the end of the connection.
    private struct AnswerReader {
        let fd: Int32
        let maxBytes: Int
        var buffer: [UInt8] = []
        var start = 0
        var received = 0

        init(fd: Int32, maxBytes: Int) {
            self.fd = fd
            self.maxBytes = maxBytes
        }

        /// The answer, and whether the connection may carry another request.
        mutating func read() throws(ExchangeFailure) -> (Answer, Bool) {
            let headEnd = try readUntil(Array("\r\n\r\n".utf8), limit: 64 << 10)
            guard let head = String(validating: buffer[start..<headEnd], as: UTF8.self) else { throw failure("the answer's head is not UTF-8") }
            start = headEnd + 4
            var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
            let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
            guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]), (100...599).contains(status) else {
                throw failure("the answer's status line is not HTTP/1.x")
            }
            var headers: [(name: String, value: String)] = []
            for line in lines {
                guard let colon = line.firstIndex(of: ":") else { throw failure("a header line has no colon") }
                headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingSpaces))
            }
            func field(_ name: String) -> String? { headers.first { $0.name.lowercased() == name }?.value }
            var reusable = statusLine[0] == "HTTP/1.1" && field("connection")?.lowercased() != "close"
            var body: [UInt8] = []
            if status == 204 || status == 304 || status < 200 {
            } else if field("transfer-encoding")?.lowercased().contains("chunked") == true {
                while true {
                    let lineEnd = try readUntil(Array("\r\n".utf8), limit: 1024)
                    let sizeText = String(decoding: buffer[start..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
                    guard let size = Int(sizeText.trimmingSpaces, radix: 16), size >= 0 else { throw failure("a chunk's size is not hexadecimal") }
                    start = lineEnd + 2
                    if size == 0 {
                        // Trailers, if any, end with an empty line.
                        while true {
                            let end = try readUntil(Array("\r\n".utf8), limit: 64 << 10)
                            defer { start = end + 2 }
                            if end == start { break }
                        }
                        break
                    }
                    guard body.count + size <= maxBytes else { throw failure("the answer is over \(maxBytes) bytes") }
                    try fill(size + 2)
                    body += buffer[start..<start + size]
                    start += size + 2
                }
            } else if let length = field("content-length") {
                guard let count = Int(length), count >= 0 else { throw failure("Content-Length is not a count") }
                guard count <= maxBytes else { throw failure("the answer is over \(maxBytes) bytes") }
                try fill(count)
                body = Array(buffer[start..<start + count])
                start += count
            } else {
                reusable = false
                while try more() {
                    guard buffer.count - start <= maxBytes else { throw failure("the answer is over \(maxBytes) bytes") }
                }
                body = Array(buffer[start...])
                start = buffer.count
            }
            // Bytes beyond the answer: not something to send another request after.
            if start != buffer.count { reusable = false }
            return (Answer(status: status, headers: headers, body: body), reusable)
        }

        private func failure(_ reason: String) -> ExchangeFailure {
            ExchangeFailure(reason: reason, nothingAnswered: received == 0)
        }

        /// Reads until `marker` is in the buffer after `start`; its index.
        private mutating func readUntil(_ marker: [UInt8], limit: Int) throws(ExchangeFailure) -> Int {
            // Offsets from `start`, which `more` may move when it compacts the buffer.
            var scanned = 0
            while true {
                var index = start + scanned
                while index + marker.count <= buffer.count {
                    if buffer[index] == marker[0] && buffer[index..<index + marker.count].elementsEqual(marker) { return index }
                    index += 1
                }
                scanned = max(0, buffer.count - start - marker.count + 1)
                guard buffer.count - start <= limit else { throw failure("a line of the answer is over \(limit) bytes") }
                guard try more() else { throw failure("the connection ended in the answer") }
            }
        }

        /// Reads until `count` bytes follow `start`.
        private mutating func fill(_ count: Int) throws(ExchangeFailure) {
            while buffer.count - start < count {
                guard try more() else { throw failure("the connection ended in the answer's body") }
            }
        }

        /// Reads what the socket has (waiting up to its timeout); false at its end.
        private mutating func more() throws(ExchangeFailure) -> Bool {
            if start > 1 << 16 && start * 2 > buffer.count {
                buffer.removeFirst(start)
                start = 0
            }
            while true {
                var count = 0
                let chunk = [UInt8](unsafeUninitializedCapacity: 64 << 10) { bytes, initialized in
                    count = recv(fd, bytes.baseAddress, bytes.count, 0)
                    initialized = max(0, count)
                }
                if count < 0 && errno == EINTR { continue }
                if count < 0 {
                    let reason = errno == EAGAIN || errno == EWOULDBLOCK ? "no answer within the timeout" : HTTPForwarder.errorText()
                    throw failure("receiving: \(reason)")
                }
                if count == 0 { return false }
                received += count
                if buffer.isEmpty { buffer = chunk } else { buffer += chunk }
                return true
            }
        }
    }
}

private extension StringProtocol {
    var trimmingSpaces: String {
        var text = Substring(self)
        while text.first == " " || text.first == "\t" { text = text.dropFirst() }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
