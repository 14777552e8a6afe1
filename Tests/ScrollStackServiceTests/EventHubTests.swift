import Foundation
import JSONCodec
@testable import MicroHTTP
@testable import ScrollStackService
import Synchronization
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
        let events = { () -> [UInt8] in made += 1; return Array("[]".utf8) }
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
        hub.publish(revision: 5, events: { Array("[]".utf8) }, to: "s")
        XCTAssertTrue(behind.isClosed)
        XCTAssertEqual(ids(drained(behind)), [])
        XCTAssertFalse(current.isClosed)
        XCTAssertEqual(ids(drained(current)), [5])
        // Another stack's publications do not reach either.
        hub.publish(revision: 6, events: { Array("[]".utf8) }, to: "other")
        XCTAssertEqual(ids(drained(current)), [])
    }

    /// Revisions offered ahead of the point are kept, their gap is fetched from the journal
    /// on the offering thread, and every revision reaches the stream once, in order; a late
    /// offer of one already published is dropped.
    func testAnOfferAheadIsKeptAndItsGapFetched() {
        let hub = EventHub()
        let fetched = Mutex<[(Int, Int)]>([])
        hub.fillGaps { key, after, upTo in
            fetched.withLock { $0.append((after, upTo)) }
            return (after + 1...upTo).map { ($0, Array("[\($0)]".utf8)) }
        }
        let stream = HTTPStream(heartbeat: [])
        hub.subscribe(stream, to: "s", after: 5)
        // A commit of revision 8 is offered before anyone offered 6 and 7.
        hub.publish(revision: 8, events: { Array("[]".utf8) }, to: "s")
        XCTAssertEqual(fetched.withLock { $0.map { [$0.0, $0.1] } }, [[5, 7]], "the gap 6…7 was fetched, once")
        // The catching-up path offers 6 and 7 late: already published, dropped.
        var made = 0
        hub.publish(revision: 6, events: { made += 1; return Array("[]".utf8) }, to: "s")
        hub.publish(revision: 7, events: { made += 1; return Array("[]".utf8) }, to: "s")
        hub.publish(revision: 9, events: { Array("[]".utf8) }, to: "s")
        XCTAssertEqual(ids(drained(stream)), [6, 7, 8, 9])
        XCTAssertEqual(made, 0, "a revision already published is not even encoded")
        XCTAssertEqual(hub.published("s"), 9)
        XCTAssertFalse(stream.isClosed)
    }

    /// A gap the journal cannot fill (unreachable) ends the stack's streams rather than
    /// leave them waiting: their clients resume from their Last-Event-ID.
    func testAGapTheJournalCannotFillEndsTheStreams() {
        let hub = EventHub()
        hub.fillGaps { _, _, _ in nil }
        let stream = HTTPStream(heartbeat: [])
        hub.subscribe(stream, to: "s", after: 2)
        hub.publish(revision: 3, events: { Array("[]".utf8) }, to: "s")
        hub.publish(revision: 5, events: { Array("[]".utf8) }, to: "s")
        XCTAssertEqual(ids(drained(stream)), [3])
        XCTAssertTrue(stream.isClosed)
        XCTAssertNil(hub.published("s"), "the point went with its streams")
    }

    /// Three paths offer one stack's revisions on three threads, forced into the worst order
    /// by the hub's gate: the catching-up path (6) is held at the gate while a commit (7) and
    /// the listener (8) go through, then released. The stream gets 6, 7, 8 once each, in
    /// order: the commit's offer fetched 6 itself, and the late 6 is dropped.
    func testOffersFromThreePathsInTheWorstOrderArePublishedInOrderOnce() {
        let hub = EventHub()
        hub.fillGaps { _, after, upTo in (after + 1...upTo).map { ($0, Array("[]".utf8)) } }
        let stream = HTTPStream(heartbeat: [])
        hub.subscribe(stream, to: "s", after: 5)
        let held = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        hub.offerGate.withLock {
            $0 = { _, revision in
                guard revision == 6 else { return }
                held.signal()
                _ = release.wait(timeout: .now() + 30)
            }
        }
        let done = DispatchGroup()
        func offer(_ revision: Int) {
            done.enter()
            Thread {
                hub.publish(revision: revision, events: { Array("[]".utf8) }, to: "s")
                done.leave()
            }.start()
        }
        offer(6)
        XCTAssertEqual(held.wait(timeout: .now() + 30), .success, "the catching-up path reached the gate")
        offer(7)
        offer(8)
        let sent = Date().addingTimeInterval(30)
        while hub.published("s") != 8, Date() < sent { sched_yield() }
        XCTAssertEqual(hub.published("s"), 8, "7 and 8 were published while 6's offer was held")
        release.signal()
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(ids(drained(stream)), [6, 7, 8])
        XCTAssertFalse(stream.isClosed)
    }

    /// A stream subscribing ahead of the point (its stack was loaded anew past revisions
    /// nobody published here) moves the point on; streams left behind end.
    func testASubscriptionAheadMovesThePointOn() {
        let hub = EventHub()
        let old = HTTPStream(heartbeat: [])
        hub.subscribe(old, to: "s", after: 3)
        let fresh = HTTPStream(heartbeat: [])
        hub.subscribe(fresh, to: "s", after: 9)
        XCTAssertTrue(old.isClosed)
        XCTAssertEqual(hub.published("s"), 9)
        hub.publish(revision: 10, events: { Array("[]".utf8) }, to: "s")
        XCTAssertEqual(ids(drained(fresh)), [10])
    }
}
