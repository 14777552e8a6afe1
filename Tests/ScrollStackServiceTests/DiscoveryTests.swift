import Foundation
import JSONCodec
import ScrollStackService
import XCTest
import Zlib

/// `GET /`, `GET /openapi.yaml` and `GET /openapi.json` over HTTP: the index for browsers and
/// clients, and the contract the binary serves, compared with Docs/openapi.yaml.
final class DiscoveryTests: XCTestCase {
    var harness: ServerHarness!

    override func setUpWithError() throws {
        // With tokens configured: none of these paths needs one.
        let tokens = try AccessTokens(lines: "discovery-write-token-0001 write\n", source: "test")
        harness = try ServerHarness(tokens: tokens)
    }

    override func tearDown() { harness.stop() }

    /// Docs/openapi.yaml in this checkout.
    static let contractFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Docs/openapi.yaml")

    func testIndexAnswersJSONToAClient() throws {
        for accept in [nil, "application/json", "*/*", "application/json, text/html;q=0.5"] {
            let reply = try harness.request("GET", "/", headers: accept.map { [("Accept", $0)] } ?? [])
            XCTAssertEqual(reply.status, 200, accept ?? "no Accept")
            XCTAssertEqual(reply.header("content-type"), "application/json", accept ?? "no Accept")
            XCTAssertEqual(reply.header("vary")?.contains("Accept"), true)
            XCTAssertEqual(reply["name"]?.stringValue, "ScrollStack Server")
            let yaml = try String(contentsOf: Self.contractFile, encoding: .utf8)
            let version = yaml.split(separator: "\n").first { $0.hasPrefix("  version: ") }?.dropFirst(11).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            XCTAssertEqual(reply["version"]?.stringValue, version)
            XCTAssertEqual(reply["links.docs"]?.stringValue, "/openapi.yaml")
            XCTAssertEqual(reply["links.contract"]?.stringValue, "/openapi.json")
            XCTAssertEqual(reply["links.viewer"]?.stringValue, "/view")
            XCTAssertEqual(reply["links.health"]?.stringValue, "/healthz")
        }
        // Every link answers 200 without a token.
        let reply = try harness.request("GET", "/")
        for (_, path) in reply["links"]?.objectValue?.map({ ($0.key, $0.value) }) ?? [] {
            XCTAssertEqual(try harness.request("GET", path.stringValue ?? "?").status, 200, path.stringValue ?? "?")
        }
    }

    func testIndexAnswersHTMLToABrowser() throws {
        let browser = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"
        for accept in [browser, "text/html", "text/*, application/json;q=0.5"] {
            let reply = try harness.request("GET", "/", headers: [("Accept", accept)])
            XCTAssertEqual(reply.status, 200)
            XCTAssertEqual(reply.header("content-type"), "text/html; charset=utf-8", accept)
            XCTAssertEqual(reply.header("x-content-type-options"), "nosniff")
            XCTAssertEqual(reply.header("content-security-policy")?.hasPrefix("default-src 'none'"), true)
            for path in ["/openapi.yaml", "/openapi.json", "/view", "/healthz"] {
                XCTAssertTrue(reply.text.contains("<a href=\"\(path)\">"), path)
            }
            XCTAssertFalse(reply.text.contains("<script"))
        }
        XCTAssertEqual(try harness.request("GET", "/?x=1").errorCode, "bad_query_parameter")
    }

    func testServedYAMLIsDocsOpenAPIByteForByte() throws {
        let file = try [UInt8](Data(contentsOf: Self.contractFile))
        let reply = try harness.request("GET", "/openapi.yaml")
        XCTAssertEqual(reply.status, 200)
        XCTAssertEqual(reply.header("content-type"), "application/yaml")
        XCTAssertTrue(reply.body == file, "the served contract differs from Docs/openapi.yaml: run python3 Scripts/generate-openapi-document.py")
        // Compressed for a client that accepts gzip, to the same bytes.
        let zipped = try harness.request("GET", "/openapi.yaml", headers: [("Accept-Encoding", "gzip")])
        XCTAssertEqual(zipped.header("content-encoding"), "gzip")
        XCTAssertLessThan(zipped.body.count, file.count / 3)
        XCTAssertTrue(try Gzip.decompress(zipped.body) == file)
    }

    func testServedJSONIsTheSameDocument() throws {
        let yaml = try String(contentsOf: Self.contractFile, encoding: .utf8)
        let reply = try harness.request("GET", "/openapi.json")
        XCTAssertEqual(reply.status, 200)
        XCTAssertEqual(reply.header("content-type"), "application/json")
        let document = try XCTUnwrap(reply.json)
        // Spot checks against the YAML's text (Scripts/checks/05-openapi-document.sh compares
        // the whole document): the same paths in the same order, the same schemas, the same version.
        let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false)
        func keys(under section: String, indent: Int) -> [String] {
            guard let start = lines.firstIndex(of: Substring(section)) else { return [] }
            var found: [String] = []
            let prefix = String(repeating: " ", count: indent)
            for line in lines[(start + 1)...] {
                if !line.isEmpty && !line.hasPrefix(prefix) { break }
                let rest = line.dropFirst(indent)
                // `name:` alone, or `name: { … }` on one line.
                guard line.hasPrefix(prefix), rest.first != " ", rest.first != "#", let colon = rest.range(of: ": ") ?? (rest.hasSuffix(":") ? rest.range(of: ":", options: .backwards) : nil) else { continue }
                found.append(String(rest[..<colon.lowerBound]))
            }
            return found
        }
        let paths = keys(under: "paths:", indent: 2)
        XCTAssertGreaterThan(paths.count, 30)
        XCTAssertEqual(document["paths"]?.objectValue?.map { $0.key }, paths)
        let schemas = keys(under: "  schemas:", indent: 4)
        XCTAssertGreaterThan(schemas.count, 10)
        XCTAssertEqual(document["components"]?["schemas"]?.objectValue?.map { $0.key }.sorted(), schemas.sorted())
        XCTAssertEqual(document["openapi"]?.stringValue, "3.1.0")
        XCTAssertEqual(document["paths"]?["/openapi.json"]?["get"]?["security"]?.arrayValue?.count, 0)
    }

    func testContractIsCacheableWithAnETag() throws {
        for path in ["/openapi.yaml", "/openapi.json"] {
            let first = try harness.request("GET", path)
            let tag = try XCTUnwrap(first.header("etag"), path)
            XCTAssertTrue(tag.hasPrefix("\"") && tag.hasSuffix("\"") && tag.count == 34, tag)
            XCTAssertEqual(first.header("cache-control"), "public, max-age=300")
            XCTAssertEqual(try harness.request("GET", path).header("etag"), tag)
            let again = try harness.request("GET", path, headers: [("If-None-Match", tag)])
            XCTAssertEqual(again.status, 304, path)
            XCTAssertEqual(again.header("etag"), tag)
            XCTAssertTrue(again.body.isEmpty)
            XCTAssertEqual(try harness.request("GET", path, headers: [("If-None-Match", "\"other\"")]).status, 200)
        }
        XCTAssertNotEqual(try harness.request("GET", "/openapi.yaml").header("etag"), try harness.request("GET", "/openapi.json").header("etag"))
        // The API itself still needs the token.
        XCTAssertEqual(try harness.request("GET", "/v1/stacks").status, 401)
    }
}
