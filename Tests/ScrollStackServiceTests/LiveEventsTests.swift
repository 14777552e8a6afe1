import Foundation
import JSONCodec
import Synchronization
import TestHTTPClient
import XCTest

/// Server-Sent Events on GET /v1/stacks/{stack}/events with Accept: text/event-stream.
final class LiveEventsTests: XCTestCase {
    /// Reads SSE messages from a chunked stream: (revision, data JSON) pairs.
    final class EventReader {
        let connection: TestHTTPConnection
        private var buffer = ""

        init(port: Int, stack: String, lastEventID: Int? = nil) throws {
            connection = try TestHTTPConnection(port: port, timeout: 10)
            var headers = [("Accept", "text/event-stream")]
            if let lastEventID { headers.append(("Last-Event-ID", String(lastEventID))) }
            var request = "GET /v1/stacks/\(stack)/events HTTP/1.1\r\nHost: x\r\n"
            for (name, value) in headers { request += "\(name): \(value)\r\n" }
            try connection.sendRaw(Array((request + "\r\n").utf8))
            let (status, head) = try connection.readHead()
            guard status == 200, head.first(where: { $0.0 == "content-type" })?.1 == "text/event-stream" else {
                throw TestHTTPError(description: "not an event stream: \(status) \(head)")
            }
        }

        /// The next message, or nil when the server ends the stream.
        func next() throws -> (revision: Int, data: JSON)? {
            while true {
                if let end = buffer.range(of: "\n\n") {
                    let message = String(buffer[..<end.lowerBound])
                    buffer.removeSubrange(..<end.upperBound)
                    var id = -1
                    var data = ""
                    for line in message.split(separator: "\n") {
                        if line.hasPrefix("id: ") { id = Int(line.dropFirst(4)) ?? -1 }
                        if line.hasPrefix("data: ") { data += line.dropFirst(6) }
                    }
                    return (id, try JSON.parse(data))
                }
                guard let chunk = try connection.readChunk() else { return nil }
                buffer += String(decoding: chunk, as: UTF8.self)
            }
        }
    }

    func testEveryEventExactlyOnceInOrderAndResumeAfterLastEventID() throws {
        let server = try ServerHarness()
        defer { server.stop() }
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: object(("id", "s"))).status, 201)
        let reader = try EventReader(port: server.port, stack: "s")

        // A burst from two writers at once.
        let answers = Mutex<[Int: JSON]>([:])
        let port = server.port
        let group = DispatchGroup()
        for writer in 0..<2 {
            group.enter()
            Thread {
                defer { group.leave() }
                for i in 0..<25 {
                    let body = object(("rows", [row("w\(writer)-\(i)")])).serialized()
                    guard let response = try? httpRequest(port: port, method: "POST", path: "/v1/stacks/s/rows",
                                                          headers: [("Content-Type", "application/json")], body: body),
                          let revision = Reply(response)["revision"]?.int64Value else { continue }
                    answers.withLock { $0[Int(revision)] = Reply(response)["events"] }
                }
            }.start()
        }
        XCTAssertEqual(group.wait(timeout: .now() + 30), .success)
        let answered = answers.withLock { $0 }
        XCTAssertEqual(answered.count, 50)
        var received: [Int] = []
        while received.last != 51, let message = try reader.next() {
            received.append(message.revision)
            XCTAssertEqual(untimed(message.data["events"]), answered[message.revision], "revision \(message.revision): the events the mutation answered with")
        }
        XCTAssertEqual(received, Array(2...51), "every revision exactly once, in order")

        // Reconnecting after revision 25 gets the backlog, then live events.
        let resumed = try EventReader(port: server.port, stack: "s", lastEventID: 25)
        var backlog: [Int] = []
        while backlog.last != 51, let message = try resumed.next() { backlog.append(message.revision) }
        XCTAssertEqual(backlog, Array(26...51))
        XCTAssertEqual(try server.request("PATCH", "/v1/stacks/s/rows/at/0", json: object(("hidden", true))).status, 200)
        XCTAssertEqual(try resumed.next()?.revision, 52)
        XCTAssertEqual(try reader.next()?.revision, 52, "the first client still listens")

        // A client that goes away is cleaned up; writes go on.
        reader.connection.close()
        for i in 0..<3 { XCTAssertEqual(try server.request("POST", "/v1/stacks/s/rows", json: object(("rows", [row("after\(i)")]))).status, 200) }
        XCTAssertEqual(try resumed.next()?.revision, 53)
    }

    /// `Last-Event-ID` is a revision in decimal digits: a sign, a fraction or anything else is
    /// 400 `bad_header` naming the header, on stacks and on piles; spaces around the digits
    /// and leading zeros are accepted (the stream then opens).
    func testAMalformedLastEventIDIsABadHeader() throws {
        let server = try ServerHarness()
        defer { server.stop() }
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: object(("id", "s"))).status, 201)
        XCTAssertEqual(try server.request("POST", "/v1/piles", json: object(("id", "p"), ("bounds", object(("width", 320), ("height", 480))))).status, 201)
        for path in ["/v1/stacks/s/events", "/v1/piles/p/events"] {
            for bad in ["+3", "-0", "-1", "1.0", "abc", "1e2", "0x1", "99999999999999999999"] {
                let reply = try server.request("GET", path, headers: [("Accept", "text/event-stream"), ("Last-Event-ID", bad)])
                XCTAssertEqual(reply.status, 400, "\(path) \(bad): \(reply.text)")
                XCTAssertEqual(reply.errorCode, "bad_header", "\(path) \(bad)")
                XCTAssertEqual(reply.errorField, "Last-Event-ID", "\(path) \(bad)")
            }
        }
        for good in ["01", " 1 "] {
            let connection = try TestHTTPConnection(port: server.port, timeout: 10)
            defer { connection.close() }
            try connection.sendRaw(Array("GET /v1/stacks/s/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\nLast-Event-ID: \(good)\r\n\r\n".utf8))
            XCTAssertEqual(try connection.readHead().status, 200, good)
        }
    }

    func testStopEndsEveryStreamPromptly() throws {
        let server = try ServerHarness()
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: object(("id", "s"))).status, 201)
        let readers = try (0..<3).map { _ in try EventReader(port: server.port, stack: "s") }
        let started = Date()
        server.stop()
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "stop waited on suspended streams")
        for reader in readers {
            XCTAssertNil(try? reader.next(), "the stream ended")
        }
    }

    func testDeletingTheStackEndsItsStreams() throws {
        let server = try ServerHarness()
        defer { server.stop() }
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: object(("id", "s"))).status, 201)
        let reader = try EventReader(port: server.port, stack: "s")
        XCTAssertEqual(try server.request("DELETE", "/v1/stacks/s").status, 204)
        XCTAssertNil(try reader.next())
        XCTAssertEqual(try server.request("GET", "/v1/stacks/nope/events", headers: [("Accept", "text/event-stream")]).status, 404)
    }
}
