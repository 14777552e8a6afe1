@testable import MicroHTTP
import XCTest

/// `HTTPBodySource.record(upTo:_:)`: the whole body when produced to its end within the limit,
/// nil past the limit or when the source goes before its end; called exactly once.
final class BodySourceRecordingTests: XCTestCase {
    /// A source of `pieces` pieces of 100 bytes (piece i filled with i).
    func source(pieces: Int) -> HTTPBodySource {
        var next = 0
        return HTTPBodySource { out in
            out += [UInt8](repeating: UInt8(next), count: 100)
            next += 1
            return next < pieces
        }
    }

    /// Reads the source the way libmicrohttpd does, `capacity` bytes at a time, up to `limit`
    /// bytes; returns what was read.
    func drain(_ source: HTTPBodySource, capacity: Int = 64, limit: Int = .max) -> [UInt8] {
        var read: [UInt8] = []
        var buffer = [CChar](repeating: 0, count: capacity)
        while read.count < limit {
            let n = buffer.withUnsafeMutableBufferPointer { source.read(into: $0.baseAddress!, capacity: capacity) }
            if n < 0 { break }
            read += buffer[..<n].map { UInt8(bitPattern: $0) }
        }
        return read
    }

    func testTheWholeBodyWithinTheLimit() {
        let calls = Calls()
        let body = source(pieces: 10)
        body.record(upTo: 1000) { calls.add($0) }
        let sent = drain(body)
        XCTAssertEqual(sent.count, 1000)
        XCTAssertEqual(calls.all.count, 1)
        XCTAssertEqual(calls.all.first ?? nil, sent, "the recording is the body sent")
        _ = consume body
        XCTAssertEqual(calls.all.count, 1, "called once")
    }

    func testNothingPastTheLimit() {
        let calls = Calls()
        let body = source(pieces: 10)
        body.record(upTo: 999) { calls.add($0) }
        XCTAssertEqual(drain(body).count, 1000, "the body is sent whole all the same")
        XCTAssertEqual(calls.all.count, 1)
        XCTAssertEqual(calls.all.first ?? [1], nil)
    }

    func testNothingWhenTheSourceGoesBeforeItsEnd() {
        let calls = Calls()
        var body: HTTPBodySource? = source(pieces: 10)
        body?.record(upTo: 1000) { calls.add($0) }
        XCTAssertLessThan(drain(body!, limit: 350).count, 1000, "read in part")
        XCTAssertEqual(calls.all.count, 0)
        body = nil
        XCTAssertEqual(calls.all.count, 1)
        XCTAssertEqual(calls.all.first ?? [1], nil, "a client that went away leaves nothing kept")
    }
}

/// What a recording handed over, in order.
private final class Calls: @unchecked Sendable {
    private(set) var all: [[UInt8]?] = []
    func add(_ bytes: [UInt8]?) { all.append(bytes) }
}
