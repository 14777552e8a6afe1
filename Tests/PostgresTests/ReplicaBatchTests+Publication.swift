import Dispatch
import Foundation
@testable import MicroHTTP
@testable import ScrollStackPostgres
@testable import ScrollStackService
import Synchronization
import XCTest

/// The paths by which replica 0 learns of a stack's revisions, forced into the order that
/// would publish them out of order, with the hub's gate (`EventHub.offerGate`) holding one
/// path's offer and releasing it once another path has tried to go past it.
extension ReplicaBatchTests {
    /// The bytes queued on `stream` and not yet taken, as revision ids.
    private func sentIDs(_ stream: HTTPStream) -> [Int] {
        var bytes: [CChar] = []
        var buffer = [CChar](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBufferPointer { stream.read(into: $0.baseAddress!, capacity: $0.count) }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        let text = String(decoding: bytes.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.split(separator: "\n").compactMap { $0.hasPrefix("id: ") ? Int($0.dropFirst(4)) : nil }
    }

    /// Replica 0's own commit of revision 2 is held at the gate (on the committing thread,
    /// after it is durable) while replica 1 writes revision 3, which replica 0's listener
    /// hears: nothing passes the held revision; released, the stream on replica 0 gets 2
    /// then 3, and goes on with 4 (replica 1's) and 5 (its own), each once, in order.
    func testARevisionLearnedWhileAnOwnCommitsOfferIsHeldIsPublishedInOrderOnce() throws {
        XCTAssertEqual(send(0, "POST", "/v1/stacks", #"{"id": "o", "rows": []}"#).status, 201)
        XCTAssertEqual(send(1, "GET", "/v1/stacks/o").status, 200)
        let streamed = replicas[0].handle(HTTPRequest(method: "GET", path: "/v1/stacks/o/events", headers: [("Accept", "text/event-stream")], body: []))
        XCTAssertEqual(streamed.status, 200)
        let stream = try XCTUnwrap(streamed.stream, "an event stream")
        let hub = replicas[0].hub

        // The own commit's offer held.
        let holding = Mutex<Int?>(2)
        let held = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        hub.offerGate.withLock {
            $0 = { key, revision in
                guard key == "o", holding.withLock({ $0 }) == revision else { return }
                holding.withLock { $0 = nil }
                held.signal()
                _ = release.wait(timeout: .now() + 30)
            }
        }
        let requests = InFlight()
        requests.send(replicas[0], "own", "/v1/stacks/o/rows", Self.insert("own2"))
        XCTAssertEqual(held.wait(timeout: .now() + 30), .success, "replica 0's commit of revision 2 reached the gate")
        XCTAssertEqual(send(1, "POST", "/v1/stacks/o/rows", Self.insert("other3")).status, 200, "replica 1 wrote revision 3")
        // Replica 0's listener learns of revision 3 while its own revision 2 is not yet
        // published: applying 3 waits for the commit of 2 to be done, offer included.
        XCTAssertEqual(hub.published("o"), 1, "nothing is published past the held revision")
        release.signal()
        XCTAssertEqual(requests.answered()["own"]?.status, 200)
        waitUntil("revision 3 published on replica 0") { hub.published("o") == 3 }
        XCTAssertEqual(sentIDs(stream), [2, 3])

        hub.offerGate.withLock { $0 = nil }
        XCTAssertEqual(send(1, "POST", "/v1/stacks/o/rows", Self.insert("other4")).status, 200)
        XCTAssertEqual(send(0, "POST", "/v1/stacks/o/rows", Self.insert("own5")).status, 200)
        waitUntil("revision 5 published on replica 0") { hub.published("o") == 5 }
        XCTAssertEqual(sentIDs(stream), [4, 5], "every revision once, in order")
        XCTAssertFalse(stream.isClosed)
    }

    /// A revision whose announcement never comes (replica 1 appends it unannounced, as a
    /// replica killed between its commit and its announcement leaves it) still reaches a
    /// live stream on replica 0: the watcher's poll, about once a second, finds the stream's
    /// stack behind its journal and catches it up.
    func testARevisionNeverAnnouncedReachesALiveStreamThroughThePoll() throws {
        XCTAssertEqual(send(0, "POST", "/v1/stacks", #"{"id": "q", "rows": []}"#).status, 201)
        XCTAssertEqual(send(1, "GET", "/v1/stacks/q").status, 200)
        let streamed = replicas[0].handle(HTTPRequest(method: "GET", path: "/v1/stacks/q/events", headers: [("Accept", "text/event-stream")], body: []))
        let stream = try XCTUnwrap(streamed.stream, "an event stream")
        let hub = replicas[0].hub
        XCTAssertEqual(hub.published("q"), 1)

        journals[1].appends.announcing.store(false, ordering: .relaxed)
        XCTAssertEqual(send(1, "POST", "/v1/stacks/q/rows", Self.insert("unannounced2")).status, 200)
        XCTAssertEqual(send(1, "POST", "/v1/stacks/q/rows", Self.insert("unannounced3")).status, 200)
        journals[1].appends.announcing.store(true, ordering: .relaxed)
        waitUntil("revision 3 published on replica 0") { hub.published("q") == 3 }
        XCTAssertEqual(sentIDs(stream), [2, 3], "every revision once, in order")
        XCTAssertFalse(stream.isClosed)
    }
}
