import Foundation
import JSONCodec
import MicroHTTP
@testable import ScrollStackService
import XCTest

/// A streamed answer asked again is recorded as it is sent and kept: a repeated read of an
/// unchanged stack then gets the same bytes whole (`Content-Length`, never compressed, as when
/// streamed), and every change, deletion and re-creation is seen at once. An answer asked
/// once is never recorded.
final class KeptStreamTests: XCTestCase {
    func service(streamingFrom rows: Int) -> StackService {
        var limits = ServiceLimits()
        limits.streamedAnswerRows = rows
        return StackService(limits: limits)
    }

    func create(_ count: Int) throws -> JSON {
        let rows = (0..<count).map { i in
            #"{"id": "r\#(i)", "view": {"type": "V"}, "size": {"fixed": \#(Double(i % 9) * 7.25 + 1)}, "hidden": \#(i % 7 == 3)}"#
        }
        return try JSON.parse(Array(#"{"id": "big", "viewport": {"width": 375, "height": 667}, "rows": [\#(rows.joined(separator: ","))]}"#.utf8))
    }

    func testARepeatedStreamedReadIsTheStreamedAnswerKept() throws {
        let streaming = try ServerHarness(service: service(streamingFrom: 100), maxBodyBytes: 8 << 20)
        let whole = try ServerHarness(service: service(streamingFrom: .max), maxBodyBytes: 8 << 20)
        defer {
            streaming.stop()
            whole.stop()
        }
        for server in [streaming, whole] { XCTAssertEqual(try server.request("POST", "/v1/stacks", json: create(1200)).status, 201) }
        let insert = try JSON.parse(Array(#"{"at": {"index": 600}, "rows": [{"id": "new", "view": {"type": "V"}, "size": {"fixed": 12.5}}]}"#.utf8))
        let move = try JSON.parse(Array(#"{"to": 0}"#.utf8))
        let changes: [(String, String, JSON?)] = [
            ("POST", "/v1/stacks/big/rows", insert), ("POST", "/v1/stacks/big/rows/r5/move", move), ("DELETE", "/v1/stacks/big/rows/r9", nil),
        ]
        for round in 0...changes.count {
            for path in ["/v1/stacks/big/layout", "/v1/stacks/big/layout?offset=3000", "/v1/stacks/big"] {
                let expected = try whole.request("GET", path)
                let first = try streaming.request("GET", path)
                XCTAssertEqual(first.header("transfer-encoding")?.lowercased(), "chunked", "\(path): the first read is streamed")
                XCTAssertTrue(first.body == expected.body, "\(path), round \(round)")
                let second = try streaming.request("GET", path)
                XCTAssertEqual(second.header("transfer-encoding")?.lowercased(), "chunked", "\(path): the second read is streamed, and recorded")
                XCTAssertTrue(second.body == expected.body, "\(path), round \(round)")
                for headers in [[], [("Accept-Encoding", "gzip")]] {
                    let again = try streaming.request("GET", path, headers: headers)
                    XCTAssertEqual(again.status, 200)
                    XCTAssertNil(again.header("transfer-encoding"), "\(path): kept, sent whole")
                    XCTAssertEqual(again.header("content-length"), String(expected.body.count))
                    XCTAssertNil(again.header("content-encoding"), "a kept streamed answer is not compressed, as when streamed")
                    XCTAssertNil(again.header("vary").flatMap { $0.contains("Accept-Encoding") ? $0 : nil })
                    XCTAssertEqual(again.header("etag"), expected.header("etag"))
                    XCTAssertEqual(again.header("content-type"), first.header("content-type"))
                    XCTAssertTrue(again.body == expected.body, "\(path), round \(round): \(again.body.count) bytes kept, \(expected.body.count) whole")
                }
                let revision = try XCTUnwrap(expected.header("etag"))
                XCTAssertEqual(try streaming.request("GET", path, headers: [("If-None-Match", revision)]).status, 304)
            }
            XCTAssertGreaterThan(streaming.service.answers.bytesKept, 3 * 100_000)
            XCTAssertEqual(streaming.service.answers.recordingsUnderWay, 0, "every recording ended")
            guard round < changes.count else { break }
            let (method, path, body) = changes[round]
            for server in [streaming, whole] { XCTAssertEqual(try server.request(method, path, json: body).status / 100, 2) }
            XCTAssertEqual(streaming.service.answers.bytesKept, 0, "a change forgets the kept answers")
        }
        XCTAssertEqual(try streaming.request("DELETE", "/v1/stacks/big").status, 204)
        XCTAssertEqual(try streaming.request("GET", "/v1/stacks/big/layout").status, 404)
        XCTAssertEqual(try streaming.request("POST", "/v1/stacks", json: create(300)).status, 201)
        let recreated = try streaming.request("GET", "/v1/stacks/big/layout")
        XCTAssertEqual(recreated.header("transfer-encoding")?.lowercased(), "chunked", "the re-created stack's answer is its own")
        XCTAssertEqual(try streaming.request("GET", "/v1/stacks/big/layout").body, recreated.body)
    }

    func testAnAnswerAskedOnceIsNeverRecorded() throws {
        let streaming = try ServerHarness(service: service(streamingFrom: 100), maxBodyBytes: 8 << 20)
        defer { streaming.stop() }
        XCTAssertEqual(try streaming.request("POST", "/v1/stacks", json: create(1200)).status, 201)
        var keys = 0
        for n in 0..<(AnswerCache.askedKeys + 20) {
            let accept = "application/json;n=\(n)"
            let answer = try streaming.request("GET", "/v1/stacks/big/layout", headers: [("Accept", accept)])
            XCTAssertEqual(answer.header("transfer-encoding")?.lowercased(), "chunked")
            if n < AnswerCache.askedKeys { keys += AnswerCache.key(HTTPRequest(method: "GET", path: "/v1/stacks/big/layout",
                                                                                headers: [("Accept", accept)])).utf8.count }
        }
        XCTAssertEqual(streaming.service.answers.bytesKept, keys, "only the keys asked, at most askedKeys of them")
        XCTAssertEqual(streaming.service.answers.recordingsUnderWay, 0)
    }

    func testRecordingIsBoundedInSlotsAndBytes() throws {
        let cache = AnswerCache(capacity: 1000, largestAnswer: 400)
        XCTAssertTrue(cache.beginRecording())
        XCTAssertTrue(cache.beginRecording())
        XCTAssertFalse(cache.beginRecording(), "capacity / largestAnswer recordings at once")
        XCTAssertEqual(cache.recordingsUnderWay, 2)
        cache.endRecording()
        XCTAssertTrue(cache.beginRecording())
        cache.endRecording()
        cache.endRecording()
        XCTAssertEqual(cache.recordingsUnderWay, 0)
        XCTAssertTrue(AnswerCache(capacity: 10, largestAnswer: 400).beginRecording(), "at least one")
    }
}
