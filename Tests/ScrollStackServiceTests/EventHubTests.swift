import Jansson
@testable import MicroHTTP
@testable import ScrollStackService
import XCTest

/// `EventHub`: each stream gets every revision after the one it started from once, in order,
/// whatever order revisions are published in (on replicas a replica's own commits and the
/// revisions it applies from others are published from different threads).
final class EventHubTests: XCTestCase {
    /// The bytes queued on `stream` and not yet taken (what libmicrohttpd would send next).
    private func drained(_ stream: HTTPStream) -> String {
        var bytes: [CChar] = []
        var buffer = [CChar](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBufferPointer { stream.read(into: $0.baseAddress!, capacity: $0.count) }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private func ids(_ text: String) -> [Int] {
        text.split(separator: "\n").compactMap { $0.hasPrefix("id: ") ? Int($0.dropFirst(4)) : nil }
    }

    func testRevisionsAreSentOnceInOrder() {
        let hub = EventHub()
        let stream = HTTPStream(heartbeat: [])
        hub.subscribe(stream, to: "s", after: 5)
        var made = 0
        let events = { () -> JSON in made += 1; return .array([]) }
        hub.publish(revision: 6, events: events, to: "s")
        hub.publish(revision: 7, events: events, to: "s")
        // A revision published again (a replica applying one it already published) or an
        // older one is not sent again, and its events are not even made.
        hub.publish(revision: 7, events: events, to: "s")
        hub.publish(revision: 5, events: events, to: "s")
        hub.publish(revision: 8, events: events, to: "s")
        XCTAssertEqual(ids(drained(stream)), [6, 7, 8])
        XCTAssertEqual(made, 3)
        XCTAssertFalse(stream.isClosed)
    }

    func testAGapEndsTheStreamItWouldBreak() {
        let hub = EventHub()
        let behind = HTTPStream(heartbeat: [])
        let current = HTTPStream(heartbeat: [])
        hub.subscribe(behind, to: "s", after: 3)
        hub.subscribe(current, to: "s", after: 4)
        // Revision 5 comes before 4 reached `behind`: `behind` ends (its client resumes from
        // its Last-Event-ID, 3, with the journal's 4 and 5); `current` takes 5.
        hub.publish(revision: 5, events: { .array([]) }, to: "s")
        XCTAssertTrue(behind.isClosed)
        XCTAssertEqual(ids(drained(behind)), [])
        XCTAssertFalse(current.isClosed)
        XCTAssertEqual(ids(drained(current)), [5])
        // Another stack's publications do not reach either.
        hub.publish(revision: 6, events: { .array([]) }, to: "other")
        XCTAssertEqual(ids(drained(current)), [])
    }
}
