import Dispatch
import Foundation
import JSONCodec
@testable import ScrollStackService
@testable import ScrollStackStore
import Synchronization
import TestHTTPClient
import XCTest

/// Generated row ids cost O(1) each, stay deterministic (a replay makes the
/// same) and unique, and a huge id-less insert does not stall the server.
final class RowIDTests: XCTestCase {
    /// A row without an id.
    static func idless(_ k: Int) -> JSON {
        object(("view", object(("type", "V"))), ("size", object(("fixed", .integer(Int64(k % 7 + 1))))))
    }

    /// 50,000 id-less rows into a stack, then 50,000 into the stateless layout: each request
    /// is answered (the client's 600 s are only a deadline against a hang; the ids' cost is
    /// measured by `Benchmarks/idless_bench.py`), every id is unique, and fresh `/healthz`
    /// clients are answered while they run (`HealthProbe`, every 10 ms so as to take little CPU
    /// from the server: no latency bound, which load breaks; a server busy only with the
    /// inserts would answer none).
    func testFiftyThousandIdlessRowsWhileHealthzStaysFast() throws {
        let harness = try ServerHarness(maxBodyBytes: 32 << 20)
        defer { harness.stop() }
        let count = 50_000
        let rows = JSON.array((0..<count).map(Self.idless))
        XCTAssertEqual(try harness.request("POST", "/v1/stacks", json: object(("id", "big"), ("rows", [row("given")]))).status, 201)
        // Bodies built before and answers read after the probing, so that the test itself
        // takes no CPU from the server meanwhile (2 cores).
        let insertBody = object(("rows", rows), ("at", object(("index", 0)))).serialized()
        let layoutBody = object(("rows", rows)).serialized()
        let probe = HealthProbe(port: harness.port, pause: 10)
        let sent = Result { () throws -> [TestHTTPResponse] in
            let connection = try TestHTTPConnection(port: harness.port, timeout: 600)
            defer { connection.close() }
            return [try connection.send(method: "POST", path: "/v1/stacks/big/rows", headers: [("Content-Type", "application/json")], body: insertBody),
                    try connection.send(method: "POST", path: "/v1/layout", headers: [("Content-Type", "application/json")], body: layoutBody)]
        }
        probe.finish(label: "two 50,000-row requests", duringAtLeast: 3)
        let answers = try sent.get()
        guard answers.count == 2 else { return XCTFail("both requests answered") }
        let inserted = Reply(answers[0])
        XCTAssertEqual(inserted.status, 200, inserted.text)
        let ids = (inserted["changed"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
        XCTAssertEqual(ids.count, count)
        XCTAssertEqual(Set(ids + ["given"]).count, count + 1, "unique, also against the row already there")
        XCTAssertTrue(ids.allSatisfy { $0.hasPrefix("r-") && $0.utf8.count == 14 })

        let stateless = Reply(answers[1])
        XCTAssertEqual(stateless.status, 200)
        let laidOut = (stateless["rows"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
        XCTAssertEqual(Set(laidOut).count, count)
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
