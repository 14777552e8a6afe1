import JSONCodec
import XCTest

/// Lines a client can draw: each line's characters, `truncated` where `maxLines` cut the
/// text, and the opt-in tail ellipsis.
final class DrawableTextTests: XCTestCase {
    var server: ServerHarness!

    override func setUpWithError() throws {
        server = try ServerHarness()
    }

    override func tearDown() {
        server.stop()
    }

    func row(_ id: String, _ text: String, extra: [(String, JSON)] = []) -> JSON {
        object(("id", .string(id)), ("view", object(("type", "Label"))), ("size", "fit"),
               ("content", .object(JSONObject([("text", .string(text)), ("font", object(("family", "Inter"), ("size", 16)))] + extra))))
    }

    func frames(_ rows: [JSON], width: Double = 200) throws -> Reply {
        let answer = try server.request("POST", "/v1/layout?content=frames", json: object(
            ("viewport", object(("width", .number(width)), ("height", 600))), ("rows", .array(rows))))
        XCTAssertEqual(answer.status, 200, answer.text)
        return answer
    }

    struct Line {
        var utf16: Range<Int>
        var scalars: Range<Int>
        var x, width: Double
    }

    func lines(_ answer: Reply, _ row: Int) throws -> [Line] {
        try XCTUnwrap(answer["rows[\(row)].content.lines"]?.arrayValue).map { line in
            func range(_ key: String) throws -> Range<Int> {
                let start = try XCTUnwrap(line[key]?["start"]?.int64Value), end = try XCTUnwrap(line[key]?["end"]?.int64Value)
                return Int(start)..<Int(end)
            }
            return Line(utf16: try range("utf16"), scalars: try range("scalars"),
                        x: try XCTUnwrap(line["x"]?.doubleValue), width: try XCTUnwrap(line["width"]?.doubleValue))
        }
    }

    /// The characters of `range` (UTF-16 offsets) with runs of spaces drawn as one.
    func text(_ text: String, _ range: Range<Int>) -> String {
        let units = Array(text.utf16)[range]
        return String(decoding: units, as: UTF16.self).split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    func testEveryLineNamesItsCharacters() throws {
        let given = "  Party 🎉 at   the café tonight, everyone from the office is welcome\n\nBring 👩‍👩‍👧 too  "
        let answer = try frames([row("a", given)])
        let found = try lines(answer, 0)
        XCTAssertGreaterThan(found.count, 4)
        let scalars = Array(given.unicodeScalars)
        var words: [String] = []
        var previousEnd = 0
        for line in found {
            XCTAssertLessThanOrEqual(previousEnd, line.utf16.lowerBound, "lines are in order and do not overlap")
            previousEnd = line.utf16.upperBound
            let drawn = text(given, line.utf16)
            // The scalar range names the same characters.
            var scalarText = String.UnicodeScalarView()
            scalarText.append(contentsOf: scalars[line.scalars])
            XCTAssertEqual(String(scalarText).split(separator: " ").joined(separator: " "), drawn)
            XCTAssertFalse(drawn.hasPrefix(" ") || drawn.hasSuffix(" "), "spaces at a line's ends are not its characters")
            words += drawn.split(separator: " ").map(String.init)
        }
        XCTAssertEqual(words, given.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init), "every word on exactly one line")
        // The first line starts after the leading spaces; the empty paragraph is an empty line
        // where it stands; the emoji make the UTF-16 and scalar offsets differ.
        XCTAssertEqual(found[0].utf16.lowerBound, 2)
        let empty = try XCTUnwrap(found.first { $0.utf16.isEmpty })
        let newline = Array(given.utf16).firstIndex(of: 0x0A)!
        XCTAssertEqual(empty.utf16, (newline + 1)..<(newline + 1))
        XCTAssertEqual(found.last!.utf16.upperBound, given.utf16.count - 2)
        XCTAssertEqual(found.last!.scalars.upperBound, given.unicodeScalars.count - 2)
        XCTAssertGreaterThan(found.last!.utf16.upperBound - found.last!.scalars.upperBound, 0)
        XCTAssertNil(answer["rows[0].content.truncated"], "nothing was cut")
    }

    func testTruncatedWhereMaxLinesCut() throws {
        let long = "Allow notifications from every app on this device, even at night and on weekends"
        let answer = try frames([row("cut", long, extra: [("maxLines", 2)]), row("fits", "Wi-Fi", extra: [("maxLines", 2)]),
                                 row("all", long)])
        XCTAssertEqual(answer["rows[0].content.truncated"], true)
        XCTAssertNil(answer["rows[1].content.truncated"])
        XCTAssertNil(answer["rows[2].content.truncated"])
        XCTAssertNil(answer["rows[0].content.ellipsis"], "no ellipsis unless asked")
        let cut = try lines(answer, 0), all = try lines(answer, 2)
        XCTAssertEqual(cut.map(\.utf16), all.prefix(2).map(\.utf16), "the first lines, as they break uncut")
    }

    func testTailEllipsis() throws {
        let long = "Allow notifications from every app on this device, even at night and on weekends"
        let answer = try frames([row("e", long, extra: [("maxLines", 2), ("ellipsis", true)]), row("all", long),
                                 row("short", "Wi-Fi", extra: [("maxLines", 2), ("ellipsis", true)])])
        XCTAssertEqual(answer["rows[0].content.truncated"], true)
        let cut = try lines(answer, 0), all = try lines(answer, 2 - 1)
        XCTAssertEqual(cut[0].utf16, all[0].utf16, "lines before the last are untouched")
        let node = try XCTUnwrap(answer["rows[0].content.frame"])
        let nodeRight = try XCTUnwrap(node["x"]?.doubleValue) + XCTUnwrap(node["width"]?.doubleValue)
        let ellipsis = try XCTUnwrap(answer["rows[0].content.ellipsis"])
        let ex = try XCTUnwrap(ellipsis["x"]?.doubleValue), ew = try XCTUnwrap(ellipsis["width"]?.doubleValue)
        XCTAssertEqual(ellipsis["y"], answer["rows[0].content.lines[1].y"])
        XCTAssertGreaterThan(ew, 5, "\"…\" in Inter 16 is some 11 pt wide")
        XCTAssertLessThan(ew, 20)
        XCTAssertLessThanOrEqual(ex + ew, nodeRight + 1e-9, "text and ellipsis fit the node")
        XCTAssertEqual(cut[1].x + cut[1].width, ex + ew, accuracy: 1 / 64, "the line's width counts the ellipsis")
        XCTAssertLessThanOrEqual(cut[1].utf16.upperBound, all[1].utf16.upperBound, "the last line keeps a start of itself")
        XCTAssertEqual(cut[1].utf16.lowerBound, all[1].utf16.lowerBound)
        // Text not cut gets no ellipsis; the stored text echoes the choice.
        XCTAssertNil(answer["rows[2].content.ellipsis"])
        let refused = try server.request("POST", "/v1/layout", json: object(("rows", [row("a", "A", extra: [("ellipsis", "yes")])])))
        XCTAssertEqual(refused.status, 422)
        XCTAssertEqual(refused.errorField, "rows[0].content.ellipsis")
        try server.request("POST", "/v1/stacks", json: object(("id", "s"), ("rows", [row("e", long, extra: [("maxLines", 2), ("ellipsis", true)]), row("n", "x")])))
        let stack = try server.request("GET", "/v1/stacks/s")
        XCTAssertEqual(stack["rows[0].content.ellipsis"], true)
        XCTAssertEqual(stack["rows[1].content.ellipsis"], false)
    }

    func testMissingGlyphsNameWhatNoFontOfTheChainCanDraw() throws {
        // Emoji and CJK are drawn by the fallback faces; Thai is in none of them.
        let answer = try frames([row("mixed", "Party 🎉 at 日本 ไทย 🎉\u{200D} café ไ"), row("latin", "Party at the café")])
        XCTAssertEqual(answer["rows[0].content.missingGlyphs"]?.arrayValue?.compactMap(\.stringValue), ["ไ", "ท", "ย"],
                       "each once, in order; the zero-width joiner and spaces draw nothing")
        XCTAssertNil(answer["rows[1].content.missingGlyphs"], "Inter draws every Latin letter")
        // 37 Devanagari and 46 Thai consonants, none in the chain: the first 64 are named.
        let letters = Array(0x915...0x939) + Array(0xE01...0xE2E)
        let many = String(letters.compactMap { Unicode.Scalar($0).map(Character.init) })
        let capped = try frames([row("many", many)])
        let named = capped["rows[0].content.missingGlyphs"]?.arrayValue?.compactMap(\.stringValue)
        XCTAssertEqual(named, letters.prefix(64).compactMap { Unicode.Scalar($0).map { String(Character($0)) } })
    }
}
