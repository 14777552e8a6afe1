import Foundation
import JSONCodec
import TestHTTPClient
import XCTest
import Zlib

/// Fewer requests for the same answer: devices, what-if scrolls, the scroll's window, pages
/// and gzip, over HTTP. Every preview leaves the stack as it was.
final class PreviewTests: XCTestCase {
    var server: ServerHarness!

    override func setUpWithError() throws {
        server = try ServerHarness()
        for id in ["a", "b"] {
            var rows: [JSON] = []
            for i in 0..<60 {
                let length = Double(40 + (i * 37) % 90)
                rows.append(row("r\(i)", length, hidden: i % 11 == 5))
            }
            XCTAssertEqual(try server.request("POST", "/v1/stacks", json: object(("id", .string(id)), ("spacing", 2), ("rows", .array(rows)))).status, 201)
        }
        XCTAssertEqual(try server.request("POST", "/v1/stacks/a/scroll", json: object(("offset", object(("y", 300))))).status, 200)
        XCTAssertEqual(try server.request("POST", "/v1/stacks/b/scroll", json: object(("offset", object(("y", 300))))).status, 200)
    }

    override func tearDown() { server.stop() }

    /// The stack's model, revision and history, to compare before and after a preview.
    func state(_ stack: String) throws -> [JSON?] {
        [try server.request("GET", "/v1/stacks/\(stack)").json, try server.request("GET", "/v1/stacks/\(stack)/events").json]
    }

    func rows(_ count: Int, _ length: Double) -> JSON {
        var rows: [JSON] = []
        for i in 0..<count { rows.append(row("r\(i)", length)) }
        return .array(rows)
    }

    /// Every `Vary` field's value.
    func vary(_ reply: Reply) -> [String] { reply.headers.filter { $0.0.lowercased() == "vary" }.map(\.1) }

    func without(_ json: JSON?, _ keys: String...) -> JSON? {
        guard var object = json?.objectValue else { return json }
        for key in keys { object[key] = nil }
        return .object(object)
    }

    func testDevicesAnswerOneLayoutPerDeviceAndStoreNothing() throws {
        let before = try state("a")
        let reply = try server.request("GET", "/v1/stacks/a/layout?devices=iphone-se,iphone-15,ipad&window=visible")
        XCTAssertEqual(reply.status, 200)
        XCTAssertEqual(reply["revision"], 2)
        let expected: [(String, Double, Double, JSON)] = [
            ("iphone-se", 375, 667, object(("top", 20), ("left", 0), ("bottom", 0), ("right", 0))),
            ("iphone-15", 393, 852, object(("top", 59), ("left", 0), ("bottom", 34), ("right", 0))),
            ("ipad", 820, 1180, object(("top", 24), ("left", 0), ("bottom", 20), ("right", 0))),
        ]
        XCTAssertEqual(reply["layouts"]?.arrayValue?.count, 3)
        for (i, (name, width, height, safeArea)) in expected.enumerated() {
            XCTAssertEqual(reply["layouts[\(i)].device"], object(("name", .string(name)), ("width", .number(width)), ("height", .number(height)),
                                                              ("platform", "ios"), ("orientation", "portrait"), ("safeArea", safeArea)))
            let single = try server.request("GET", "/v1/stacks/a/layout?width=\(Int(width))&height=\(Int(height))&window=visible")
            XCTAssertEqual(without(reply["layouts[\(i)]"], "device"), without(single.json, "revision"), name)
        }
        XCTAssertNotEqual(reply["layouts[0].visibleRows"], reply["layouts[2].visibleRows"], "an iPad shows more rows")
        XCTAssertEqual(try state("a"), before, "same model, revision and history")

        let stateless = try server.request("POST", "/v1/layout?window=visible", json: object(
            ("rows", rows(30, 100)),
            ("devices", ["iphone-se", object(("name", "banner"), ("width", 320), ("height", 50))])))
        XCTAssertEqual(stateless.status, 200)
        XCTAssertEqual(stateless["layouts[1].device.name"], "banner")
        XCTAssertEqual(stateless["layouts[1].visibleRows"], ["r0"])
        XCTAssertEqual(stateless["layouts[0].viewport"], object(("width", 375), ("height", 667)))

        XCTAssertEqual(try server.request("GET", "/v1/stacks/a/layout?devices=iphone-se,pager").errorField, "devices")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/a/layout?devices=ipad&width=100").errorField, "devices")
        XCTAssertEqual(try server.request("POST", "/v1/layout?devices=ipad", json: object(("devices", ["ipad"]))).errorField, "devices")
        XCTAssertEqual(try server.request("POST", "/v1/layout", json: object(("devices", [object(("name", "x"), ("width", -1), ("height", 1))]))).errorField,
                       "devices[0].width")
        let empty = try server.request("POST", "/v1/layout", json: object(("devices", .array([]))))
        XCTAssertEqual(empty.status, 422, "a body's devices are a body error")
        XCTAssertEqual(empty.errorField, "devices")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/a/layout?devices=").status, 400, "a query's are a query error")
    }

    func testWhatIfScrollEqualsARealScrollAndChangesNothing() throws {
        let before = try state("a")
        let cases: [(String, JSON)] = [
            ("scrollTo=r40&position=initial", object(("row", "r40"), ("position", "initial"))),
            ("scrollTo=r2&position=middle", object(("row", "r2"), ("position", "middle"))),
            ("scrollTo=r50", object(("row", "r50"))),
            ("scrollTo=bottom", object(("to", "bottom"))),
            ("scrollTo=top", object(("to", "top"))),
        ]
        for (query, body) in cases {
            let whatIf = try server.request("GET", "/v1/stacks/a/layout?" + query)
            XCTAssertEqual(whatIf.status, 200, query)
            XCTAssertEqual(whatIf["revision"], 2, query)
            XCTAssertEqual(try server.request("POST", "/v1/stacks/b/scroll", json: body).status, 200)
            let real = try server.request("GET", "/v1/stacks/b/layout")
            XCTAssertEqual(without(whatIf.json, "revision"), without(real.json, "revision"), query)
            // Back to where b was, so every case starts from offset 300 like a.
            XCTAssertEqual(try server.request("POST", "/v1/stacks/b/scroll", json: object(("offset", object(("y", 300))))).status, 200)
        }
        XCTAssertEqual(try state("a"), before, "same model, revision and history")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/a/layout?scrollTo=r9&offset=3").errorField, "scrollTo")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/a/layout?scrollTo=nope").errorField, "scrollTo")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/a/layout?scrollTo=r9&position=sideways").errorField, "position")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/a/layout?scrollTo=top&position=middle").errorField, "position")

        // 30 rows of 100 + 24 (the default row insets): bottom is 3720 − 667.
        let stateless = try server.request("POST", "/v1/layout?scrollTo=bottom&window=visible", json: object(("rows", rows(30, 100))))
        XCTAssertEqual(stateless["offset.y"], .number(3053))
        XCTAssertEqual(stateless["visibleRows[0]"], "r24")
    }

    func testScrollAnswersTheVisibleWindowAfterIt() throws {
        let scrolled = try server.request("POST", "/v1/stacks/a/scroll", json: object(("row", "r45"), ("position", "final")))
        XCTAssertEqual(scrolled.status, 200)
        let window = try server.request("GET", "/v1/stacks/a/layout?window=visible")
        XCTAssertEqual(scrolled["window"], without(window.json, "revision"))
        XCTAssertEqual(scrolled["window.visibleRows"]?.arrayValue?.last, "r45")
    }

    func testPagesFollowedByNextEqualTheWholeList() throws {
        for (whole, first, member) in [("/v1/stacks/a/layout?offset=500", "/v1/stacks/a/layout?offset=500&limit=7", "rows"),
                                       ("/v1/stacks/a/rows", "/v1/stacks/a/rows?from=0&limit=7", "rows"),
                                       ("/v1/stacks/a/rows?controller=VC", "/v1/stacks/a/rows?controller=VC&limit=13", "rows")] {
            let all = try server.request("GET", whole)
            var collected: [JSON] = []
            var next: String? = first
            var pages = 0
            while let path = next, pages < 20 {
                let page = try server.request("GET", path)
                XCTAssertEqual(page.status, 200, path)
                collected += page[member]?.arrayValue ?? []
                if whole.contains("layout") {
                    XCTAssertEqual(page["visibleRows"], all["visibleRows"], "a page still says what the viewport shows")
                    XCTAssertEqual(page["page.total"], 60)
                }
                next = page["next"]?.stringValue
                pages += 1
            }
            XCTAssertEqual(collected, all[member]?.arrayValue, whole)
            XCTAssertGreaterThan(pages, 4)
        }
        let past = try server.request("GET", "/v1/stacks/a/rows?from=60")
        XCTAssertEqual(past["rows"], .array([]))
        XCTAssertEqual(past["next"], .null)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/a/layout?window=visible&from=3").errorField, "from")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/a/rows?limit=0").errorField, "limit")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/a/rows?limit=10001").errorField, "limit")
    }

    func testGzipBodiesDecompressToThePlainOnes() throws {
        let gzip = [("Accept-Encoding", "gzip, deflate")]
        for (method, path, body) in [("GET", "/v1/stacks/a/layout", nil), ("GET", "/v1/stacks/a/rows", nil), ("GET", "/v1/stacks/a", nil),
                                     ("POST", "/v1/layout", object(("rows", rows(40, 44))))] as [(String, String, JSON?)] {
            let plain = try server.request(method, path, json: body)
            let packed = try server.request(method, path, json: body, headers: gzip)
            XCTAssertNil(plain.header("Content-Encoding"), path)
            XCTAssertTrue(vary(plain).contains("Accept-Encoding"), path)
            XCTAssertEqual(packed.header("Content-Encoding"), "gzip", path)
            XCTAssertTrue(vary(packed).contains("Accept-Encoding"), path)
            XCTAssertEqual(packed.header("ETag"), plain.header("ETag"), path)
            XCTAssertLessThan(packed.body.count, plain.body.count / 3, path)
            XCTAssertEqual(try Gzip.decompress(packed.body), plain.body, path)
        }
        let small = try server.request("GET", "/healthz", headers: gzip)
        XCTAssertNil(small.header("Content-Encoding"), "small answers are left alone")
        XCTAssertEqual(small.text, #"{"status":"ok"}"#)
        XCTAssertNil(try server.request("GET", "/v1/stacks/a/layout", headers: [("Accept-Encoding", "gzip;q=0, *")]).header("Content-Encoding"))
        XCTAssertEqual(try server.request("GET", "/v1/stacks/a/layout", headers: [("Accept-Encoding", "br;q=1, *;q=0.5")]).header("Content-Encoding"), "gzip")
        let missing = try server.request("GET", "/v1/stacks/a/layout?scrollTo=nope", headers: gzip)
        XCTAssertEqual(missing.status, 400)
        XCTAssertNil(missing.header("Content-Encoding"))
    }
}
