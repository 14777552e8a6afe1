import Foundation
import JSONCodec
import TestHTTPClient
import TestSeeds
import XCTest
@testable import ScrollStackCore
@testable import ScrollStackService

/// `events` (an array of a history or stream) without each event's `time`, which the answer
/// to the write itself does not carry; nil when an event has none.
func untimed(_ events: JSON?) -> JSON? {
    guard let list = events?.arrayValue else { return events }
    var stripped: [JSON] = []
    for case .object(var event) in list {
        guard event["time"]?.stringValue != nil else { return nil }
        event["time"] = nil
        stripped.append(.object(event))
    }
    return .array(stripped)
}

/// Events carry the time their revision was made (ISO 8601, UTC, milliseconds): in the
/// history, in the live stream, and the same after a restart.
final class EventTimeTests: XCTestCase {
    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.date(from: text)
    }

    func testTheTextIsISO8601InUTCWithMilliseconds() {
        XCTAssertEqual(EventTime.text(milliseconds: 0), "1970-01-01T00:00:00.000Z")
        XCTAssertEqual(EventTime.text(milliseconds: 951_782_400_000), "2000-02-29T00:00:00.000Z")
        XCTAssertEqual(EventTime.text(milliseconds: 1_796_447_347_123), "2026-12-05T05:09:07.123Z")
        XCTAssertEqual(EventTime.text(milliseconds: -1), "1969-12-31T23:59:59.999Z")
        XCTAssertEqual(EventTime.text(milliseconds: 253_402_300_799_999), "9999-12-31T23:59:59.999Z")
        // Against Foundation's formatter, at random instants over four centuries.
        let seed = TestSeed.seed("EventTimeTests.testTheTextIsISO8601InUTCWithMilliseconds")
        var generator = SplitMix64(seed: seed)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        for _ in 0..<2000 {
            let milliseconds = Int64.random(in: -2_208_988_800_000...10_413_792_000_000, using: &generator)
            let expected = formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
            XCTAssertEqual(EventTime.text(milliseconds: milliseconds), expected, "\(milliseconds) ms")
        }
        let now = Date().timeIntervalSince1970 * 1000
        XCTAssertLessThan(abs(Double(EventTime.nowMilliseconds()) - now), 5000)
    }

    /// Every event of `reply` (a history) with its revision and time.
    func times(_ reply: Reply) -> [(revision: Int, time: String?)] {
        (reply["events"]?.arrayValue ?? []).map { (Int($0["revision"]?.doubleValue ?? -1), $0["time"]?.stringValue) }
    }

    func testHistoryAndStreamCarryTheRevisionsTime() throws {
        let server = try ServerHarness()
        defer { server.stop() }
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: object(("id", "s"))).status, 201)
        let reader = try LiveEventsTests.EventReader(port: server.port, stack: "s")
        var windows: [ClosedRange<Date>] = []
        for i in 0..<3 {
            // A millisecond's slack on each side: the server's clock is read to the millisecond.
            let before = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 * 1000).rounded(.down) / 1000 - 0.001)
            XCTAssertEqual(try server.request("POST", "/v1/stacks/s/rows", json: object(("rows", [row("r\(i)")]))).status, 200)
            windows.append(before...Date().addingTimeInterval(0.001))
        }
        let history = times(try server.request("GET", "/v1/stacks/s/events"))
        XCTAssertGreaterThan(history.count, 3)
        var byRevision: [Int: String] = [:]
        for (revision, time) in history {
            let text = try XCTUnwrap(time, "revision \(revision) has a time")
            XCTAssertNotNil(text.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$"#, options: .regularExpression), text)
            let date = try XCTUnwrap(Self.date(text), text)
            XCTAssertTrue(windows[revision - 2].contains(date), "revision \(revision) at \(text), made within \(windows[revision - 2])")
            if let seen = byRevision[revision] { XCTAssertEqual(seen, text, "one time per revision") }
            byRevision[revision] = text
        }
        XCTAssertEqual(byRevision.keys.sorted(), [2, 3, 4])
        // The live stream says the same.
        for revision in 2...4 {
            let message = try XCTUnwrap(try reader.next())
            XCTAssertEqual(message.revision, revision)
            for event in message.data["events"]?.arrayValue ?? [] {
                XCTAssertEqual(event["time"]?.stringValue, byRevision[revision], "revision \(revision)")
            }
        }
        reader.connection.close()
    }

    func testTheTimeIsTheSameAfterARestart() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sseventtime-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let arguments = ["--data-dir", directory.appendingPathComponent("data").path, "--log-level", "notice"]
        let json = [("Content-Type", "application/json")]
        let daemon = try Daemon.start(arguments)
        XCTAssertEqual(try httpRequest(port: daemon.port, method: "POST", path: "/v1/stacks", headers: json, body: object(("id", "s")).serialized()).status, 201)
        for i in 0..<2 {
            XCTAssertEqual(try httpRequest(port: daemon.port, method: "POST", path: "/v1/stacks/s/rows", headers: json,
                                           body: object(("rows", [row("r\(i)")])).serialized()).status, 200)
        }
        let before = Reply(try httpRequest(port: daemon.port, method: "GET", path: "/v1/stacks/s/events"))
        XCTAssertTrue(times(before).allSatisfy { $0.time != nil })
        XCTAssertEqual(try daemon.stop(), 0)
        let again = try Daemon.start(arguments)
        defer { _ = try? again.stop() }
        let after = Reply(try httpRequest(port: again.port, method: "GET", path: "/v1/stacks/s/events"))
        XCTAssertEqual(after.status, 200)
        XCTAssertTrue(after.body == before.body, "the history, times included, reads back the same")
    }
}
