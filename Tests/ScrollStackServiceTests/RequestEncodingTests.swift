import JSONCodec
import XCTest
import Zlib

/// Request bodies sent with `Content-Encoding` over HTTP: gzip is inflated (bounded by the
/// body limit), other codings are refused with 415 naming them.
final class RequestEncodingTests: XCTestCase {
    var harness: ServerHarness!
    static let limit = 64 << 10

    override func setUpWithError() throws { harness = try ServerHarness(maxBodyBytes: Self.limit) }
    override func tearDown() { harness.stop() }

    func post(_ path: String, _ body: [UInt8], encoding: String?) throws -> Reply {
        var headers = [("Content-Type", "application/json")]
        if let encoding { headers.append(("Content-Encoding", encoding)) }
        return try harness.raw("POST", path, body: body, headers: headers)
    }

    func testGzipBodiesAreInflated() throws {
        let rows = JSON.array((0..<200).map { row("row-\($0)") })
        let json = object(("id", "zipped"), ("rows", rows)).serialized()
        let zipped = try Gzip.compress(json)
        XCTAssertLessThan(zipped.count, json.count / 4)
        let created = try post("/v1/stacks", zipped, encoding: "gzip")
        XCTAssertEqual(created.status, 201, created.text)
        XCTAssertEqual(created["rows"]?.arrayValue?.count, 200)
        XCTAssertEqual(try harness.request("GET", "/v1/stacks/zipped/rows/at/199")["id"]?.stringValue, "row-199")
        // x-gzip, any case, and identity around it; a mutation too.
        for (i, coding) in ["x-gzip", "GZIP", "identity, gzip"].enumerated() {
            let inserted = try post("/v1/stacks/zipped/rows", try Gzip.compress(object(("rows", [row("more-\(i)")])).serialized()), encoding: coding)
            XCTAssertEqual(inserted.status, 200, "\(coding): \(inserted.text)")
            XCTAssertEqual(inserted["revision"], .integer(Int64(2 + i)))
        }
        let ids = try harness.request("GET", "/v1/stacks/zipped/rows")["rows"]?.arrayValue?.suffix(3).compactMap { $0["id"]?.stringValue }
        XCTAssertEqual(ids, ["more-0", "more-1", "more-2"])
        // identity alone changes nothing.
        XCTAssertEqual(try post("/v1/stacks", object(("id", "plain")).serialized(), encoding: "identity").status, 201)
    }

    func testAZipBombIsRefusedAt413() throws {
        // 16 MiB of spaces inside a JSON object: about 16 KiB compressed, under the 64 KiB limit.
        var json = Array("{\"id\": \"bomb\", \"rows\": [".utf8)
        json += [UInt8](repeating: UInt8(ascii: " "), count: 16 << 20)
        json += Array("]}".utf8)
        let zipped = try Gzip.compress(json, level: 9)
        XCTAssertLessThan(zipped.count, Self.limit)
        let refused = try post("/v1/stacks", zipped, encoding: "gzip")
        XCTAssertEqual(refused.status, 413, refused.text)
        XCTAssertEqual(refused.errorCode, "payload_too_large")
        XCTAssertEqual(refused.errorField, "Content-Encoding")
        XCTAssertTrue(refused["error.message"]?.stringValue?.contains("\(Self.limit)") == true, refused.text)
        XCTAssertEqual(try harness.request("GET", "/v1/stacks/bomb").status, 404, "nothing was created")
        // Just under the limit once inflated is fine.
        var fits = Array("{\"id\": \"fits\", \"rows\": [".utf8)
        fits += [UInt8](repeating: UInt8(ascii: " "), count: Self.limit - 64)
        fits += Array("]}".utf8)
        XCTAssertEqual(try post("/v1/stacks", try Gzip.compress(fits), encoding: "gzip").status, 201)
    }

    func testBrokenGzipIs400() throws {
        let zipped = try Gzip.compress(object(("id", "x")).serialized())
        for body in [Array("{\"id\": \"x\"}".utf8), Array(zipped.dropLast(6))] {
            let refused = try post("/v1/stacks", body, encoding: "gzip")
            XCTAssertEqual(refused.status, 400, refused.text)
            XCTAssertEqual(refused.errorCode, "bad_request")
            XCTAssertEqual(refused.errorField, "Content-Encoding")
        }
        XCTAssertEqual(try harness.request("GET", "/v1/stacks/x").status, 404)
    }

    func testOtherCodingsAre415NamingThem() throws {
        for coding in ["br", "deflate", "zstd", "gzip, gzip", "compress"] {
            let refused = try post("/v1/stacks", object(("id", "x")).serialized(), encoding: coding)
            XCTAssertEqual(refused.status, 415, coding)
            XCTAssertEqual(refused.errorCode, "unsupported_media_type", coding)
            XCTAssertEqual(refused.errorField, "Content-Encoding", coding)
            XCTAssertTrue(refused["error.message"]?.stringValue?.contains("\"\(coding)\"") == true, refused.text)
            XCTAssertEqual(refused.header("accept-encoding"), "gzip")
        }
        XCTAssertEqual(try harness.request("GET", "/v1/stacks/x").status, 404)
    }
}
