import Dispatch
import Foundation
import Jansson
@testable import ScrollStackService
import Synchronization
import TestHTTPClient
import XCTest

/// Issue 7, item 4: generated row ids cost O(1) each, stay deterministic (a replay makes the
/// same) and unique, and a huge id-less insert does not stall the server.
final class RowIDTests: XCTestCase {
    /// A row without an id.
    static func idless(_ k: Int) -> JSON {
        object(("view", object(("type", "V"))), ("size", object(("fixed", .integer(Int64(k % 7 + 1))))))
    }

    /// Probes `/healthz` on fresh connections, one every 10 ms (waiting on the stop signal in
    /// between), until `body` returns; then asserts every probe answered 200 within 100 ms.
    func whileProbingHealth(port: Int, _ body: () throws -> Void) throws {
        let stop = DispatchSemaphore(value: 0)
        let worst = Mutex<(count: Int, slowest: Double, failures: [String])>((0, 0, []))
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            defer { finished.signal() }
            let deadline = Date().addingTimeInterval(180)
            while stop.wait(timeout: .now() + .milliseconds(10)) == .timedOut, Date() < deadline {
                let start = DispatchTime.now().uptimeNanoseconds
                let status: Int
                do {
                    let connection = try TestHTTPConnection(port: port, timeout: 5)
                    defer { connection.close() }
                    status = try connection.send(method: "GET", path: "/healthz").status
                } catch {
                    worst.withLock { $0.failures.append("\(error)") }
                    continue
                }
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                worst.withLock { w in
                    w.count += 1
                    w.slowest = max(w.slowest, seconds)
                    if status != 200 { w.failures.append("status \(status)") }
                }
            }
        }
        defer {
            stop.signal()
            XCTAssertEqual(finished.wait(timeout: .now() + 30), .success, "the prober stops")
            let (count, slowest, failures) = worst.withLock { $0 }
            print("healthz probes: \(count), slowest \(Int(slowest * 1000)) ms")
            XCTAssertGreaterThan(count, 5, "the prober ran throughout")
            XCTAssertLessThan(slowest, 0.1, "a fresh /healthz answered within 100 ms throughout (slowest of \(count): \(slowest) s)")
            XCTAssertEqual(failures, [])
        }
        try body()
    }

    /// 50,000 id-less rows into a stack, then 50,000 into the stateless layout: each
    /// request finishes within the client's 60 s (quadratic ids took minutes), every id is
    /// unique, and `/healthz` stays fast throughout.
    func testFiftyThousandIdlessRowsWhileHealthzStaysFast() throws {
        let harness = try ServerHarness(maxBodyBytes: 32 << 20)
        defer { harness.stop() }
        let count = 50_000
        let rows = JSON.array((0..<count).map(Self.idless))
        XCTAssertEqual(try harness.request("POST", "/v1/stacks", json: object(("id", "big"), ("rows", [row("given")]))).status, 201)
        try whileProbingHealth(port: harness.port) {
            let connection = try TestHTTPConnection(port: harness.port, timeout: 60)
            defer { connection.close() }
            let inserted = Reply(try connection.send(method: "POST", path: "/v1/stacks/big/rows", headers: [("Content-Type", "application/json")],
                                                     body: object(("rows", rows), ("at", object(("index", 0)))).serialized()))
            XCTAssertEqual(inserted.status, 200, inserted.text)
            let ids = (inserted["changed"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
            XCTAssertEqual(ids.count, count)
            XCTAssertEqual(Set(ids + ["given"]).count, count + 1, "unique, also against the row already there")
            XCTAssertTrue(ids.allSatisfy { $0.hasPrefix("r-") && $0.utf8.count == 14 })

            let stateless = Reply(try connection.send(method: "POST", path: "/v1/layout", headers: [("Content-Type", "application/json")],
                                                      body: object(("rows", rows)).serialized()))
            XCTAssertEqual(stateless.status, 200)
            let laidOut = (stateless["rows"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
            XCTAssertEqual(Set(laidOut).count, count)
        }
    }

    /// The ids the generator made before it was O(1): each row restarted the count at 0 and
    /// took the first free attempt. Journals written then must replay to the same ids.
    static func previousGeneratorIDs(stack: String, revision: Int, rows: [String?], taken: Set<String>) -> [String] {
        var used = taken
        return rows.map { given in
            if let given {
                used.insert(given)
                return given
            }
            var attempt = 0
            while true {
                var hash: UInt64 = 0xCBF2_9CE4_8422_2325
                for byte in "\(stack)#\(revision)#\(attempt)".utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
                let digits = String(hash & 0xFFFF_FFFF_FFFF, radix: 16)
                let id = "r-" + String(repeating: "0", count: 12 - digits.count) + digits
                if !used.contains(id) {
                    used.insert(id)
                    return id
                }
                attempt += 1
            }
        }
    }

    /// Over HTTP, in a create and in an insert, with given ids that collide with generated
    /// ones: the ids are those of the previous generator, and a restart replays the same.
    func testIDsAreThoseOfThePreviousGeneratorAndARestartReplaysThem() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ssrowid-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("db.sqlite").path

        // Given ids that the generator would otherwise make: attempts 1 and 3 of revision 1,
        // and attempt 0 of revision 2.
        let collide1 = Self.previousGeneratorIDs(stack: "ids", revision: 1, rows: [nil, nil, nil, nil], taken: [])
        let collide2 = Self.previousGeneratorIDs(stack: "ids", revision: 2, rows: [nil], taken: [])
        let createPlan: [String?] = [nil, collide1[1], collide1[3]] + Array(repeating: nil, count: 300)
        let insertPlan: [String?] = [collide2[0]] + Array(repeating: nil, count: 300)
        func body(_ plan: [String?]) -> JSON {
            .array(plan.enumerated().map { k, id in
                guard let id else { return Self.idless(k) }
                return object(("id", .string(id)), ("view", object(("type", "V"))), ("size", object(("fixed", 3))))
            })
        }
        let expectedCreate = Self.previousGeneratorIDs(stack: "ids", revision: 1, rows: createPlan, taken: [])
        let expectedInsert = Self.previousGeneratorIDs(stack: "ids", revision: 2, rows: insertPlan, taken: Set(expectedCreate))

        var stackBefore = ""
        do {
            let service = StackService(journal: try StackJournal(path: path))
            try service.restore()
            let server = try ServerHarness(service: service)
            defer { server.stop() }
            let created = try server.request("POST", "/v1/stacks", json: object(("id", "ids"), ("rows", body(createPlan))))
            XCTAssertEqual(created.status, 201)
            XCTAssertEqual((created["rows"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }, expectedCreate)
            let inserted = try server.request("POST", "/v1/stacks/ids/rows", json: object(("rows", body(insertPlan))))
            XCTAssertEqual(inserted.status, 200)
            XCTAssertEqual((inserted["changed"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }, expectedInsert)
            stackBefore = try server.request("GET", "/v1/stacks/ids").text
        }
        let service = StackService(journal: try StackJournal(path: path))
        XCTAssertEqual(try service.restore(), 1)
        let server = try ServerHarness(service: service)
        defer { server.stop() }
        XCTAssertEqual(try server.request("GET", "/v1/stacks/ids").text, stackBefore, "the replay made the same ids")
    }
}
