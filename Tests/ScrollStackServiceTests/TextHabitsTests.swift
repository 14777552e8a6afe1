import JSONCodec
import XCTest

/// CSS and UIKit habits in text nodes: `maxLines: 0` (no limit), weight names and numbers
/// written as strings, italic; each refused value named at its field.
final class TextHabitsTests: XCTestCase {
    var server: ServerHarness!

    override func setUpWithError() throws {
        server = try ServerHarness()
    }

    override func tearDown() {
        server.stop()
    }

    func row(_ id: String, _ text: String, font: [(String, JSON)] = [], extra: [(String, JSON)] = []) -> JSON {
        object(("id", .string(id)), ("view", object(("type", "Label"))), ("size", "fit"),
               ("content", .object(JSONObject([("text", .string(text)),
                                                ("font", .object(JSONObject([("family", "Inter"), ("size", 16)] + font)))] + extra))))
    }

    /// The first line's width of each row of a stateless layout 200 wide.
    func widths(_ rows: [JSON]) throws -> [Double] {
        let answer = try server.request("POST", "/v1/layout?content=frames", json: object(
            ("viewport", object(("width", 200), ("height", 600))), ("rows", .array(rows))))
        XCTAssertEqual(answer.status, 200, answer.text)
        return try rows.indices.map { i in try XCTUnwrap(answer["rows[\(i)].content.lines[0].width"]?.doubleValue) }
    }

    func testMaxLinesZeroIsUnlimited() throws {
        let long = "Allow notifications from every app on this device, even at night and on weekends"
        let answer = try server.request("POST", "/v1/layout?content=frames", json: object(
            ("viewport", object(("width", 200), ("height", 600))),
            ("rows", [row("zero", long, extra: [("maxLines", 0)]), row("none", long), row("two", long, extra: [("maxLines", 2)])])))
        XCTAssertEqual(answer.status, 200, answer.text)
        let all = try XCTUnwrap(answer["rows[1].content.lines"]?.arrayValue?.count)
        XCTAssertGreaterThan(all, 2)
        XCTAssertEqual(answer["rows[0].content.lines"]?.arrayValue?.count, all)
        XCTAssertEqual(answer["rows[0].frame.height"], answer["rows[1].frame.height"])
        XCTAssertEqual(answer["rows[2].content.lines"]?.arrayValue?.count, 2)
        // Stored, 0 reads back as no limit (omitted).
        let created = try server.request("POST", "/v1/stacks", json: object(("id", "s"), ("rows", [row("zero", long, extra: [("maxLines", 0)])])))
        XCTAssertEqual(created.status, 201, created.text)
        let stack = try server.request("GET", "/v1/stacks/s")
        XCTAssertNotNil(stack["rows[0].content.text"])
        XCTAssertNil(stack["rows[0].content.maxLines"])
        for bad: JSON in [-1, 1.5, "2"] {
            let refused = try server.request("POST", "/v1/layout", json: object(("rows", [row("a", "A", extra: [("maxLines", bad)])])))
            XCTAssertEqual(refused.status, 422, refused.text)
            XCTAssertEqual(refused.errorField, "rows[0].content.maxLines")
        }
    }

    func testWeightNamesAndNumericStrings() throws {
        let text = "Notifications"
        let named: [(JSON, JSON)] = [
            ("thin", 100), ("extralight", 200), ("light", 300), ("normal", 400), ("Regular", 400), ("medium", 500),
            ("semibold", 600), ("SemiBold", 600), ("bold", 700), ("extrabold", 800), ("black", 900), ("600", 600), ("100", 100),
        ]
        let measured = try widths(named.flatMap { name, number in
            [row("n\(name)", text, font: [("weight", name)]), row("w\(name)", text, font: [("weight", number)])]
        })
        for (i, pair) in named.enumerated() {
            XCTAssertEqual(measured[2 * i], measured[2 * i + 1], "\(pair.0) measures as \(pair.1)")
        }
        // Inter has a face per hundred: the names pick different faces.
        XCTAssertNotEqual(measured[0], measured[20], "thin and black differ")
        XCTAssertLessThan(measured[6], measured[12], "normal is narrower than semibold")
        // Answers give the number.
        try server.request("POST", "/v1/stacks", json: object(("id", "s"), ("rows", [row("a", text, font: [("weight", "semibold")])])))
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s")["rows[0].content.font.weight"], 600)
        for bad: JSON in ["heavy", "0", "1001", "6OO", "", " 600", "-100", true] {
            let refused = try server.request("POST", "/v1/layout", json: object(("rows", [row("a", "A", font: [("weight", bad)])])))
            XCTAssertEqual(refused.status, 422, "\(bad): \(refused.text)")
            XCTAssertEqual(refused.errorField, "rows[0].content.font.weight")
        }
    }

    /// Inter Italic has the upright's advances, so only the acceptance and the matching order
    /// show here (the face picked is covered by the text engine's tests).
    func testItalicIsAccepted() throws {
        let measured = try widths([
            row("n", "Notifications", font: [("style", "normal")]), row("i", "Notifications", font: [("style", "italic")]),
            row("o", "Notifications", font: [("style", "oblique")]),
        ])
        XCTAssertGreaterThan(measured[1], 0)
        XCTAssertEqual(measured[1], measured[2], "oblique falls back to italic, as CSS matching does")
        let refused = try server.request("POST", "/v1/layout", json: object(("rows", [row("a", "A", font: [("style", "slanted")])])))
        XCTAssertEqual(refused.errorField, "rows[0].content.font.style")
    }
}
