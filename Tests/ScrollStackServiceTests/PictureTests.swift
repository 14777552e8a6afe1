import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import JSONCodec
import XCTest

/// The layout as SVG and the viewer page, over HTTP (the browser check draws them).
final class PictureTests: XCTestCase {
    func testSVGByPathOrAcceptWellFormedWithEveryRowButHiddenOnes() throws {
        let server = try ServerHarness()
        defer { server.stop() }
        let rows: JSON = [row("a<&>\"'"), row("b", hidden: true), row("c", 900)]
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: object(("id", "s"), ("rows", rows))).status, 201)
        let byPath = try server.request("GET", "/v1/stacks/s/layout.svg?window=visible")
        let byAccept = try server.request("GET", "/v1/stacks/s/layout?window=visible", headers: [("Accept", "image/svg+xml, image/*")])
        XCTAssertEqual(byPath.status, 200)
        XCTAssertEqual(byPath.header("Content-Type"), "image/svg+xml; charset=utf-8")
        XCTAssertEqual(byPath.header("ETag"), "\"1.svg\"", "not the JSON's tag: caches must keep them apart")
        XCTAssertEqual(byAccept.body, byPath.body)
        XCTAssertEqual(byAccept.headers.filter { $0.0.lowercased() == "vary" }.map(\.1), ["Accept", "Accept-Encoding"])
        let json = try server.request("GET", "/v1/stacks/s/layout?window=visible", headers: [("Accept", "application/json, image/svg+xml")])
        XCTAssertEqual(json.header("Content-Type"), "application/json")

        let document = try XMLDocument(data: Data(byPath.body))
        XCTAssertEqual(document.rootElement()?.name, "svg")
        let ids = try document.nodes(forXPath: "//*[@class and starts-with(@class, 'row')]/@data-id").map { $0.stringValue ?? "" }
        XCTAssertEqual(ids, ["a<&>\"'", "c"], "escaped, and the hidden row left out")
        let visibility = try document.nodes(forXPath: "//*[@data-id='c']/@data-visibility").first?.stringValue
        XCTAssertEqual(visibility, "partial")
        XCTAssertEqual(try document.nodes(forXPath: "//*[@id='viewport']").count, 1)

        let stateless = try server.request("POST", "/v1/layout?devices=iphone-se,ipad", json: object(("rows", rows)),
                                           headers: [("Accept", "image/svg+xml")])
        XCTAssertEqual(stateless.header("Content-Type"), "image/svg+xml; charset=utf-8")
        let panels = try XMLDocument(data: Data(stateless.body)).nodes(forXPath: "//*[@class='panel']")
        XCTAssertEqual(panels.count, 2, "one panel per device")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s/layout.svg?scrollTo=nope").errorField, "scrollTo")
    }

    /// Ids are escaped scalar by scalar: a quote or `<` followed by a combining mark is one
    /// `Character` equal to neither (it was written raw, breaking out of the attribute), and
    /// U+FFFE and U+FFFF, which XML 1.0 forbids, become U+FFFD like control characters.
    func testSVGEscapesQuotesBeforeCombiningMarksAndForbiddenScalars() throws {
        let server = try ServerHarness()
        defer { server.stop() }
        let breakout = "x\"\u{301} onload=\"alert(1)\u{301}"
        let marks = "<\u{301}&\u{301}>\u{301}'\u{301}"
        let forbidden = "a\u{FFFF}b\u{FFFE}c\u{1}d\te"
        let rows: JSON = [row(breakout), row(marks), row(forbidden)]
        let svg = try server.request("POST", "/v1/layout", json: object(("rows", rows)), headers: [("Accept", "image/svg+xml")])
        XCTAssertEqual(svg.status, 200)
        let text = String(decoding: svg.body, as: UTF8.self)
        XCTAssertFalse(text.contains("\"\u{301}"), "no quote is written raw before a combining mark")
        XCTAssertFalse(text.contains("<\u{301}"))
        let document = try XMLDocument(data: Data(svg.body))
        let ids = try document.nodes(forXPath: "//*[@class and starts-with(@class, 'row')]/@data-id").map { $0.stringValue ?? "" }
        // An attribute value's tab is normalized to a space by XML parsers.
        XCTAssertEqual(ids, [breakout, marks, "a\u{FFFD}b\u{FFFD}c\u{FFFD}d e"])
        XCTAssertEqual(try document.nodes(forXPath: "//@onload").count, 0)
    }

    func testViewerPagesAreSelfContainedHTML() throws {
        let server = try ServerHarness(tokens: try .init(lines: "tok-0123456789abcdef write", source: "test"))
        defer { server.stop() }
        for path in ["/view/", "/view", "/view/some-stack"] {
            let page = try server.request("GET", path)
            XCTAssertEqual(page.status, 200, "the page holds no data: open even with tokens")
            XCTAssertEqual(page.header("Content-Type"), "text/html; charset=utf-8")
            XCTAssertTrue(page.text.hasPrefix("<!DOCTYPE html>"))
            XCTAssertFalse(page.text.contains("src=") || page.text.contains("<link") || page.text.contains("@import") || page.text.contains("url("),
                           "no external scripts, styles or fonts")
        }
    }
}
