import Foundation
import JSONCodec
import MicroHTTP
import ScrollStackCore
@testable import ScrollStackService
import XCTest
import Zlib

/// The answer cache's rules, unit by unit, and over HTTP: a repeated read is served the same
/// bytes, and every change, deletion and re-creation is seen at once.
final class AnswerCacheTests: XCTestCase {
    func response(_ text: String) -> HTTPResponse { HTTPResponse(status: 200, body: Array(text.utf8)) }

    func testHitsOnlyTheSameEntryAtTheSameRevision() throws {
        let cache = AnswerCache()
        let entry = StackEntry(id: "s", stack: try ScrollStack(), revision: 3)
        XCTAssertNil(cache.answer(entry, revision: 3, key: "k"))
        cache.keep(response("a"), for: entry, revision: 3, key: "k")
        XCTAssertEqual(cache.answer(entry, revision: 3, key: "k")?.body, Array("a".utf8))
        XCTAssertNil(cache.answer(entry, revision: 3, key: "other"))
        XCTAssertNil(cache.answer(entry, revision: 4, key: "k"), "another revision misses")
        let recreated = StackEntry(id: "s", stack: try ScrollStack(), revision: 3)
        XCTAssertNil(cache.answer(recreated, revision: 3, key: "k"), "a re-created stack is another entry")
        cache.keep(response("b"), for: entry, revision: 4, key: "k")
        XCTAssertNil(cache.answer(entry, revision: 3, key: "k"), "a newer revision replaces the older answers")
        XCTAssertEqual(cache.bytesKept, 1 + 1)
        cache.forget(entry)
        XCTAssertNil(cache.answer(entry, revision: 4, key: "k"))
        XCTAssertEqual(cache.bytesKept, 0)
    }

    func testAStackKeepsAtMostAnswersPerStackAndOneMoreForgetsTheOthers() throws {
        let cache = AnswerCache()
        let entry = StackEntry(id: "s", stack: try ScrollStack(), revision: 1)
        let other = StackEntry(id: "t", stack: try ScrollStack(), revision: 1)
        cache.keep(response("o"), for: other, revision: 1, key: "k")
        let limit = AnswerCache.answersPerStack
        for i in 0..<limit { cache.keep(response("a"), for: entry, revision: 1, key: "k\(i)") }
        XCTAssertNotNil(cache.answer(entry, revision: 1, key: "k0"))
        XCTAssertNotNil(cache.answer(entry, revision: 1, key: "k\(limit - 1)"))
        cache.keep(response("b"), for: entry, revision: 1, key: "k0")  // replacing one is not one more
        XCTAssertEqual(cache.answer(entry, revision: 1, key: "k0")?.body, Array("b".utf8))
        XCTAssertNotNil(cache.answer(entry, revision: 1, key: "k1"))
        cache.keep(response("c"), for: entry, revision: 1, key: "new")
        XCTAssertEqual(cache.answer(entry, revision: 1, key: "new")?.body, Array("c".utf8))
        XCTAssertNil(cache.answer(entry, revision: 1, key: "k0"), "one more answer forgot the stack's others")
        XCTAssertNil(cache.answer(entry, revision: 1, key: "k\(limit - 1)"))
        XCTAssertNotNil(cache.answer(other, revision: 1, key: "k"), "other stacks keep theirs")
        XCTAssertEqual(cache.bytesKept, (1 + 1) + (1 + 3))
    }

    func testBoundedInBytesLeastRecentlyReadStacksGoFirst() throws {
        let cache = AnswerCache(capacity: 1000, largestAnswer: 400)
        let entries = try (0..<5).map { StackEntry(id: "s\($0)", stack: try ScrollStack(), revision: 1) }
        let body = String(repeating: "x", count: 299)  // 300 bytes with the one-byte key
        for entry in entries.prefix(3) { cache.keep(response(body), for: entry, revision: 1, key: "k") }
        XCTAssertNotNil(cache.answer(entries[0], revision: 1, key: "k"))  // s0 is now the most recent
        cache.keep(response(body), for: entries[3], revision: 1, key: "k")
        XCTAssertLessThanOrEqual(cache.bytesKept, 1000)
        XCTAssertNil(cache.answer(entries[1], revision: 1, key: "k"), "the least recently read stack lost its answers")
        XCTAssertNotNil(cache.answer(entries[0], revision: 1, key: "k"))
        XCTAssertNotNil(cache.answer(entries[3], revision: 1, key: "k"))
        cache.keep(response(String(repeating: "y", count: 500)), for: entries[4], revision: 1, key: "k")
        XCTAssertNil(cache.answer(entries[4], revision: 1, key: "k"), "an answer above largestAnswer is never kept")
    }

    /// A kept answer is kept with the `Vary: Accept-Encoding` the edge adds; sent again, with
    /// or without CORS fields or gzip, its fields come in the order of its first sending.
    func testAKeptAnswerIsSentWithTheFieldsInTheOrderOfItsFirstSending() throws {
        let server = try ServerHarness(cors: try CORSPolicy(origins: ["https://figma.example"]))
        defer { server.stop() }
        let rows = (0..<40).map { #"{"id": "r\#($0)", "view": {"type": "V"}, "size": {"fixed": 50}}"# }.joined(separator: ",")
        let create = try JSON.parse(Array(#"{"id": "v", "viewport": {"width": 375, "height": 800}, "rows": [\#(rows)]}"#.utf8))
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: create).status, 201)
        let kinds: [[(String, String)]] = [[], [("Origin", "https://figma.example")], [("Accept-Encoding", "gzip")],
                                           [("Origin", "https://figma.example"), ("Accept-Encoding", "gzip")]]
        for headers in kinds {
            // A query of its own per kind: the first read makes and keeps the answer.
            let path = "/v1/stacks/v/layout?window=visible&offset=\(kinds.firstIndex { $0.map(\.0) == headers.map(\.0) }!)"
            let replies = try (0..<3).map { _ in try server.request("GET", path, headers: headers) }
            let fields = replies.map { $0.headers.filter { $0.0.lowercased() != "date" }.map { "\($0.0.lowercased()): \($0.1)" } }
            let gzipped = headers.contains { $0.0 == "Accept-Encoding" }
            if !gzipped { XCTAssertGreaterThan(replies[0].body.count, ServiceEdge.compressionThreshold, "compressible") }
            XCTAssertEqual(fields[1], fields[0], "\(headers): the first hit")
            XCTAssertEqual(fields[2], fields[0], "\(headers): a later hit")
            XCTAssertEqual(replies.map(\.body), [replies[0].body, replies[0].body, replies[0].body])
            let varies = fields[0].filter { $0.hasPrefix("vary:") }
            XCTAssertEqual(varies.last, "vary: Accept-Encoding", "\(headers): \(fields[0])")
            XCTAssertEqual(fields[0].filter { $0 == "vary: Accept-Encoding" }.count, 1)
            let encoding = fields[0].firstIndex { $0.hasPrefix("content-encoding:") }
            if gzipped {
                XCTAssertGreaterThan(encoding ?? -1, fields[0].firstIndex(of: "vary: Accept-Encoding") ?? .max,
                                     "Content-Encoding comes after Vary: \(fields[0])")
            } else {
                XCTAssertNil(encoding)
            }
            if headers.contains(where: { $0.0 == "Origin" }) {
                let origin = fields[0].firstIndex { $0.hasPrefix("access-control-allow-origin:") }
                let vary = fields[0].firstIndex(of: "vary: Accept-Encoding")
                XCTAssertNotNil(origin)
                XCTAssertLessThan(origin ?? .max, vary ?? -1, "CORS fields come before Vary: Accept-Encoding: \(fields[0])")
            }
        }
    }

    func testRepeatedReadsSeeEveryChangeOverHTTP() throws {
        let server = try ServerHarness()
        defer { server.stop() }
        let create = try JSON.parse(Array(#"{"id": "c", "viewport": {"width": 375, "height": 200}, "rows": [{"id": "a", "view": {"type": "V"}, "size": {"fixed": 50}}]}"#.utf8))
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: create).status, 201)
        let first = try server.request("GET", "/v1/stacks/c/layout?window=visible")
        let again = try server.request("GET", "/v1/stacks/c/layout?window=visible")
        XCTAssertEqual(first.body, again.body)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/c/layout?window=visible", headers: [("If-None-Match", "\"1\"")]).status, 304,
                       "a cached answer still answers a conditional request")
        let insert = try JSON.parse(Array(#"{"rows": [{"id": "b", "view": {"type": "V"}, "size": {"fixed": 60}}]}"#.utf8))
        XCTAssertEqual(try server.request("POST", "/v1/stacks/c/rows", json: insert).status, 200)
        let changed = try server.request("GET", "/v1/stacks/c/layout?window=visible")
        XCTAssertEqual(changed["visibleRows"], ["a", "b"])
        XCTAssertEqual(try server.request("DELETE", "/v1/stacks/c").status, 204)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/c/layout?window=visible").status, 404)
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: create).status, 201)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/c/layout?window=visible").body, first.body, "the re-created stack, revision 1 again")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/c").status, 200)
    }

    func testAKeptAnswerKeepsItsGzipEncoding() throws {
        let server = try ServerHarness()
        defer { server.stop() }
        let rows = (0..<60).map { #"{"id": "r\#($0)", "view": {"type": "V"}, "size": {"fixed": 10}}"# }.joined(separator: ",")
        let create = try JSON.parse(Array(#"{"id": "g", "viewport": {"width": 375, "height": 667}, "rows": [\#(rows)]}"#.utf8))
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: create).status, 201)
        let path = "/v1/stacks/g/layout?window=visible"
        let plain = try server.request("GET", path)
        let keptPlain = server.service.answers.bytesKept
        XCTAssertGreaterThan(plain.body.count, ServiceEdge.compressionThreshold)
        let gzipped = try server.request("GET", path, headers: [("Accept-Encoding", "gzip")])
        XCTAssertEqual(gzipped.header("content-encoding"), "gzip")
        XCTAssertEqual(try Gzip.decompress(gzipped.body), plain.body)
        let keptBoth = server.service.answers.bytesKept
        XCTAssertEqual(keptBoth, keptPlain + gzipped.body.count, "the gzip bytes are kept beside the answer")
        let again = try server.request("GET", path, headers: [("Accept-Encoding", "gzip")])
        XCTAssertEqual(again.body, gzipped.body)
        XCTAssertEqual(server.service.answers.bytesKept, keptBoth, "served from the kept encoding, nothing added")
        XCTAssertEqual(try server.request("GET", path).body, plain.body, "a client without gzip still gets the text")
        XCTAssertEqual(try server.request("GET", path, headers: [("Accept-Encoding", "gzip"), ("If-None-Match", "\"1\"")]).status, 304)
    }
}
