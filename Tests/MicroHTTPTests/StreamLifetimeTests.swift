import MicroHTTP
import Synchronization
import TestHTTPClient
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// Streams whose client is gone or quiet.
final class StreamLifetimeTests: XCTestCase {
    /// The streams the handler made.
    final class Streams: Sendable {
        let list = Mutex<[HTTPStream]>([])
    }

    func makeServer(limit: Int = 8, heartbeat: Double = 15, idle: Double = 300, streams: Streams) throws -> HTTPServer {
        let server = HTTPServer(
            configuration: .init(host: "127.0.0.1", port: 0, threads: 1, maxBodyBytes: 1000, connectionTimeout: 30,
                                 connectionLimit: limit, streamHeartbeat: heartbeat, streamIdleTimeout: idle),
            handler: { request in
                guard request.path == "/stream" else { return HTTPServerTests.echo(request) }
                let stream = HTTPStream(heartbeat: Array(":\n\n".utf8))
                streams.list.withLock { $0.append(stream) }
                return HTTPResponse(status: 200, headers: [("Content-Type", "text/event-stream")], stream: stream)
            },
            errorResponder: HTTPServerTests.errorResponder
        )
        try server.start()
        return server
    }

    func openStream(_ port: Int) throws -> TestHTTPConnection {
        let connection = try TestHTTPConnection(port: port, timeout: 5)
        try connection.sendRaw(Array("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        XCTAssertEqual(try connection.readHead().status, 200)
        return connection
    }

    /// With every slot held by a stream whose client left, a new client is served as soon as
    /// the hang-ups are noticed, long before any heartbeat (15 s; the wait allows 10).
    func testStreamsOfClientsThatLeftFreeTheirSlotsAtOnce() throws {
        let streams = Streams()
        let server = try makeServer(limit: 4, streams: streams)
        defer { server.stop() }
        for round in 0..<5 {
            let open = try (0..<4).map { _ in try openStream(server.port) }
            XCTAssertTrue(eventually { server.openStreams == 4 }, "round \(round)")
            open.forEach { $0.close() }
            XCTAssertTrue(eventually(10) { server.openStreams == 0 && server.requestsInFlight == 0 },
                          "round \(round): \(server.openStreams) streams still held")
            XCTAssertEqual(try httpRequest(port: server.port, method: "GET", path: "/after").status, 200)
        }
        XCTAssertTrue(streams.list.withLock { $0.allSatisfy(\.isClosed) }, "every stream ended")
    }

    func testQuietStreamsGetHeartbeatsAndIdleOnesEnd() throws {
        let streams = Streams()
        let server = try makeServer(heartbeat: 0.1, idle: 2, streams: streams)
        defer { server.stop() }
        let connection = try openStream(server.port)
        defer { connection.close() }
        let start = monotonicNanoseconds()
        XCTAssertEqual(try connection.readChunk(), Array(":\n\n".utf8), "a heartbeat while quiet")
        XCTAssertEqual(try connection.readChunk(), Array(":\n\n".utf8), "and another")
        streams.list.withLock { $0[0].write(Array("data: x\n\n".utf8)) }
        var chunks: [[UInt8]] = []
        // Heartbeats would go on forever without the idle timeout: 30 s bound the loop.
        while monotonicNanoseconds() - start < 30_000_000_000, let chunk = try connection.readChunk() { chunks.append(chunk) }
        let elapsed = Double(monotonicNanoseconds() - start) / 1e9
        XCTAssertTrue(chunks.contains(Array("data: x\n\n".utf8)))
        XCTAssertTrue(chunks.allSatisfy { $0 == Array(":\n\n".utf8) || $0 == Array("data: x\n\n".utf8) }, "\(chunks)")
        XCTAssertGreaterThan(chunks.count, 3, "heartbeats went on after the write")
        XCTAssertGreaterThan(elapsed, 2, "ended by the idle timeout, counted from the last write")
        XCTAssertLessThan(elapsed, 20, "ended by the idle timeout, not by the test's bound")
        XCTAssertTrue(eventually { server.openStreams == 0 })
        XCTAssertEqual(try connection.send(method: "GET", path: "/after").status, 200, "ended cleanly: the connection is reusable")
    }

    /// A client that never reads while events keep coming: once the stream's queue would pass
    /// its cap (1 MiB), the stream is dropped and its connection closed, so the server's memory
    /// stays bounded (without the cap, every event written would stay queued: 64 MiB here).
    func testAStreamWhoseClientNeverReadsIsDroppedAtItsCap() throws {
        let streams = Streams()
        let server = try makeServer(limit: 4, streams: streams)
        defer { server.stop(gracePeriod: 0) }
        let connection = try TestHTTPConnection(port: server.port, timeout: 5)
        defer { connection.close() }
        try connection.sendRaw(Array("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        XCTAssertTrue(eventually { streams.list.withLock { $0.count } == 1 })
        let stream = try XCTUnwrap(streams.list.withLock { $0.first })
        XCTAssertEqual(stream.maxQueuedBytes, HTTPStream.defaultMaxQueuedBytes)
        let event = Array("data: \(String(repeating: "x", count: 16 << 10))\n\n".utf8)
        let before = residentBytes()
        var written = 0
        while !stream.isClosed && written < 64 << 20 {
            stream.write(event)
            written += event.count
        }
        let grown = residentBytes() - before
        print("stream dropped after \(written) bytes written; resident memory grew \(grown >> 20) MiB")
        XCTAssertTrue(stream.isClosed, "dropped")
        XCTAssertLessThan(written, 16 << 20, "dropped once the socket buffers and the 1 MiB queue were full")
        XCTAssertLessThan(grown, 32 << 20)
        XCTAssertTrue(eventually { server.openStreams == 0 && server.openConnections == 0 }, "its connection is closed")
    }

    /// This process's resident memory, in bytes (`/proc/self/statm`).
    func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let pages = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

/// Monotonic clock, in nanoseconds.
func monotonicNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}
