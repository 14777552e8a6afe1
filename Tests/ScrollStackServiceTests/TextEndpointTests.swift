import JSONCodec
import XCTest

/// Text nodes through the API: rows sized by their labels, fonts, and refused families.
final class TextEndpointTests: XCTestCase {
    var server: ServerHarness!

    override func setUpWithError() throws {
        server = try ServerHarness()
    }

    override func tearDown() {
        server.stop()
    }

    func label(_ id: String, _ text: String, family: String = "Inter", extra: [(String, JSON)] = []) -> JSON {
        object(("id", .string(id)), ("view", object(("type", "Label"))), ("size", "fit"),
               ("content", .object(JSONObject([("text", .string(text)), ("font", object(("family", .string(family)), ("size", 16)))] + extra))))
    }

    func testLabelRowsSizeThemselves() throws {
        let created = try server.request("POST", "/v1/stacks", json: object(
            ("id", "settings"), ("viewport", object(("width", 200), ("height", 600))),
            ("rows", [label("short", "Wi-Fi"), label("long", "Allow notifications from every app on this device, even at night"),
                      label("two", "Bluetooth", extra: [("maxLines", 1)])])))
        XCTAssertEqual(created.status, 201, created.text)
        let layout = try server.request("GET", "/v1/stacks/settings/layout?content=frames")
        XCTAssertEqual(layout.status, 200, layout.text)
        // Inter 16: line-height normal 20; rows add the default 12 + 12 insets.
        XCTAssertEqual(layout["rows[0].frame.height"], 44)
        XCTAssertEqual(layout["rows[0].content.lines"]?.arrayValue?.count, 1)
        let lines = try XCTUnwrap(layout["rows[1].content.lines"]?.arrayValue)
        XCTAssertGreaterThan(lines.count, 2, "wraps at 200 − 32 = 168")
        XCTAssertEqual(layout["rows[1].frame.height"], .number(Double(lines.count) * 20 + 24))
        for line in lines { XCTAssertLessThanOrEqual(try XCTUnwrap(line["width"]?.doubleValue), 168) }
        // Narrower: the rows re-measure.
        let narrow = try server.request("GET", "/v1/stacks/settings/layout?width=120")
        XCTAssertGreaterThan(try XCTUnwrap(narrow["rows[1].frame.height"]?.doubleValue), try XCTUnwrap(layout["rows[1].frame.height"]?.doubleValue))
        // The stored text comes back with its defaults written out.
        let stack = try server.request("GET", "/v1/stacks/settings")
        XCTAssertEqual(stack["rows[0].content.font"], object(("family", "Inter"), ("size", 16), ("weight", 400), ("style", "normal")))
        XCTAssertEqual(stack["rows[2].content.maxLines"], 1)
    }

    func testUnknownFamilyIsRefusedAtItsField() throws {
        try server.request("POST", "/v1/stacks", json: object(("id", "s"), ("rows", [label("a", "A")])))
        let bad = try server.request("POST", "/v1/stacks/s/rows", json: object(("rows", [label("b", "B", family: "Papyrus")])))
        XCTAssertEqual(bad.status, 422, bad.text)
        XCTAssertEqual(bad.errorField, "rows[0].content.font.family")
        XCTAssertTrue(bad.text.contains("Inter") && bad.text.contains("DejaVu"), bad.text)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s/rows")["rows"]?.arrayValue?.count, 1, "nothing changed")
        let stateless = try server.request("POST", "/v1/layout", json: object(("rows", [label("c", "C", extra: [("maxLines", -1)])])))
        XCTAssertEqual(stateless.errorField, "rows[0].content.maxLines")
        let weight = try server.request("POST", "/v1/layout", json: object(("rows", [.object(JSONObject([
            ("view", object(("type", "L"))), ("size", "fit"),
            ("content", object(("text", "x"), ("font", object(("family", "Inter"), ("size", 12), ("weight", "heavy"))))),
        ]))])))
        XCTAssertEqual(weight.status, 422)
        XCTAssertEqual(weight.errorField, "rows[0].content.font.weight")
    }

    func testFontsAreListed() throws {
        let reply = try server.request("GET", "/v1/fonts")
        XCTAssertEqual(reply.status, 200, reply.text)
        let families = try XCTUnwrap(reply["families"]?.arrayValue)
        let inter = try XCTUnwrap(families.first { $0["family"] == "Inter" })
        XCTAssertTrue(inter["faces"]?.arrayValue?.contains(object(("weight", 700), ("style", "italic"))) == true)
        XCTAssertEqual(reply["aliases"], [object(("alias", "DejaVu"), ("family", "DejaVu Sans"))])
    }
}
