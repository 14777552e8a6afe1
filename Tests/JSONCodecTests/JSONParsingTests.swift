import Foundation
import JSONCodec
import XCTest

final class JSONParsingTests: XCTestCase {
    /// The error `text` is rejected with; fails the test if it parses.
    private func parseError(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> JSONParseError? {
        parseError(Array(text.utf8), file: file, line: line)
    }

    private func parseError(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> JSONParseError? {
        do {
            let value = try JSON.parse(bytes)
            XCTFail("parsed as \(value)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    func testEveryValueType() throws {
        let json = try JSON.parse(#"""
            {"n":null,"t":true,"f":false,"i":-42,"z":0,"r":2.5,"e":1E2,"one":1.0,
             "s":"h\u00e9llo \"q\" \\ \/ \n\t \ud834\udd1e","a":[1,[2]],"o":{"k":"v"},"empty":[],"none":{}}
            """#)
        XCTAssertEqual(json["n"], .null)
        XCTAssertEqual(json["t"], .bool(true))
        XCTAssertEqual(json["f"], .bool(false))
        XCTAssertEqual(json["i"], .integer(-42))
        XCTAssertEqual(json["z"], .integer(0))
        XCTAssertEqual(json["r"], .real(2.5))
        XCTAssertEqual(json["e"], .real(100), "an exponent makes a real")
        XCTAssertEqual(json["one"], .real(1), "a fraction makes a real")
        XCTAssertEqual(json["s"], .string("héllo \"q\" \\ / \n\t 𝄞"))
        XCTAssertEqual(json["a"], .array([.integer(1), .array([.integer(2)])]))
        XCTAssertEqual(json["o"], .object(["k": "v"]))
        XCTAssertEqual(json["empty"], .array([]))
        XCTAssertEqual(json["none"], .object(JSONObject()))
    }

    func testAnyTopLevelValue() throws {
        XCTAssertEqual(try JSON.parse("null"), .null)
        XCTAssertEqual(try JSON.parse("true"), .bool(true))
        XCTAssertEqual(try JSON.parse(" 7 "), .integer(7))
        XCTAssertEqual(try JSON.parse("-0.25"), .real(-0.25))
        XCTAssertEqual(try JSON.parse(#""text""#), .string("text"))
        XCTAssertEqual(try JSON.parse("[]"), .array([]))
    }

    func testIntegerLimits() throws {
        XCTAssertEqual(try JSON.parse("9223372036854775807"), .integer(.max))
        XCTAssertEqual(try JSON.parse("-9223372036854775808"), .integer(.min))
        let big = parseError("[9223372036854775808]")
        XCTAssertEqual(big?.message, "too big integer near '9223372036854775808'")
        XCTAssertEqual(parseError("[1e999]")?.message, "real number overflow near '1e999'")
    }

    func testNestedStructures() throws {
        let json = try JSON.parse(#"{"rows":[{"id":"a","frame":{"x":0,"y":44.5}},{"id":"b","tags":[true,null,[]]}]}"#)
        let rows = try XCTUnwrap(json["rows"]?.arrayValue)
        XCTAssertEqual(rows.count, 2)
        XCTAssertEqual(rows[0]["frame"]?["y"], .real(44.5))
        XCTAssertEqual(rows[1]["tags"], [true, nil, []])
        XCTAssertEqual(json, ["rows": [["id": "a", "frame": ["x": 0, "y": 44.5]], ["id": "b", "tags": [true, nil, []]]]])
    }

    func testKeyOrderIsKept() throws {
        let json = try JSON.parse(#"{"z":1,"a":2,"m":{"y":true,"b":false}}"#)
        XCTAssertEqual(json.objectValue?.keys, ["z", "a", "m"])
        XCTAssertEqual(json["m"]?.objectValue?.keys, ["y", "b"])
        XCTAssertEqual(json.serializedString, #"{"z":1,"a":2,"m":{"y":true,"b":false}}"#)

        // Enough members for jansson's hash table to grow several times.
        let keys = (0..<500).map { "k\(499 - $0)" }
        let text = "{" + keys.map { "\"\($0)\":0" }.joined(separator: ",") + "}"
        let large = try JSON.parse(text)
        XCTAssertEqual(large.objectValue?.keys, keys)
        XCTAssertEqual(large.serializedString, text)
    }

    func testDuplicateKeysAreRejected() {
        let error = parseError(#"{"a":1,"a":2}"#)
        XCTAssertEqual(error?.message, #"duplicate object key near '"a"'"#)
        XCTAssertEqual(error?.column, 10)
        XCTAssertNotNil(parseError(#"[{"x":{"k":1,"j":2,"k":3}}]"#), "nested")
    }

    func testErrorsCarryLineAndColumn() throws {
        let error = try XCTUnwrap(parseError("{\n  \"a\": 1,\n  \"b\": }"))
        XCTAssertEqual(error.line, 3)
        XCTAssertEqual(error.column, 8, "the `}` is the 8th character of line 3")
        XCTAssertEqual(error.position, 20, "bytes read, the `}` included")
        XCTAssertEqual(error.message, "unexpected token near '}'")
        XCTAssertEqual(error.description, "line 3, column 8: unexpected token near '}'")

        let unicode = try XCTUnwrap(parseError(#"["éé", }"#))
        XCTAssertEqual(unicode.column, 8, "columns count characters")
        XCTAssertEqual(unicode.position, 10, "positions count bytes")

        XCTAssertEqual(parseError("[1] x")?.message, "end of file expected near 'x'")
        XCTAssertEqual(parseError("NaN")?.message, "invalid token near 'NaN'")
    }

    func testEmptyInputIsAnError() {
        let empty = parseError([UInt8]())
        XCTAssertEqual(empty?.message, "unexpected token near end of file")
        XCTAssertEqual(empty?.line, 1)
        XCTAssertNotNil(parseError(""))
        XCTAssertEqual(parseError(" \n ")?.line, 2)
    }

    func testInvalidUTF8IsAnError() {
        XCTAssertEqual(parseError([0x22, 0xFF, 0x22])?.message, "unable to decode byte 0xff near '\"'")
        XCTAssertNotNil(parseError(Array("[\"a".utf8) + [0xC3, 0x28] + Array("\"]".utf8)), "bad continuation byte")
        XCTAssertNotNil(parseError(Array("[\"".utf8) + [0xC0, 0xAF] + Array("\"]".utf8)), "overlong encoding")
        XCTAssertNotNil(parseError(Array("[\"".utf8) + [0xE2, 0x82] + Array("\"]".utf8)), "truncated sequence")
        XCTAssertNotNil(parseError(#"["\ud800"]"#), "lone surrogate escape")
    }

    func testNULInStrings() throws {
        XCTAssertEqual(try JSON.parse(#"["a\u0000b"]"#), ["a\u{0}b"], "an escaped NUL in a string value is kept")
        XCTAssertEqual(
            parseError(#"{"a\u0000b":1}"#)?.message, #"NUL byte in object key not supported near '"a\u0000b"'"#,
            "not in a key: a jansson limit")
        XCTAssertEqual(parseError(Array("[\"a".utf8) + [0] + Array("\"]".utf8))?.message, "control character 0x0 near '\"a'", "a raw NUL byte")
    }

    func testAnyByteCollection() throws {
        let text = Array(#"{"k":[1,2]}"#.utf8)
        let expected: JSON = ["k": [1, 2]]
        XCTAssertEqual(try JSON.parse(text), expected)
        XCTAssertEqual(try JSON.parse(text[...]), expected, "an ArraySlice")
        XCTAssertEqual(try JSON.parse(Array("xx".utf8 + text)[2...]), expected, "a slice not at the start")
        XCTAssertEqual(try JSON.parse(text.lazy.map { $0 }), expected, "a collection without contiguous storage")
        XCTAssertEqual(try JSON.parse(Data(text)), expected)
        XCTAssertEqual(try JSON.parse(#"{"k":[1,2]}"#.utf8), expected)
    }

    /// Arrays nested `depth` deep: `[[[...]]]`.
    private func nestedArrays(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }

    /// The depth of arrays nested one in another.
    private func depth(of value: JSON) -> Int {
        var depth = 0
        var current = value
        while case .array(let elements) = current {
            depth += 1
            guard let first = elements.first else { break }
            current = first
        }
        return depth
    }

    func testNestingLimit() throws {
        XCTAssertEqual(depth(of: try JSON.parse(nestedArrays(2000))), 2000)
        XCTAssertEqual(depth(of: try JSON.parse(nestedArrays(2048))), 2048, "jansson's limit")
        XCTAssertEqual(parseError(nestedArrays(2049))?.message, "maximum parsing depth reached near '['")
        let tooDeep = try XCTUnwrap(parseError(nestedArrays(5000)))
        XCTAssertEqual(tooDeep.message, "maximum parsing depth reached near '['")
        XCTAssertEqual(tooDeep.column, 2049)

        let objects = String(repeating: #"{"a":"#, count: 2000) + "1" + String(repeating: "}", count: 2000)
        var value = try JSON.parse(objects)
        for _ in 0..<2000 { value = try XCTUnwrap(value["a"]) }
        XCTAssertEqual(value, 1)
    }

    /// The converter walks the tree without recursion: the deepest text jansson accepts parses
    /// (and its value is written and released) on a thread with an eighth of the usual stack.
    func testDeepTextOnASmallStack() {
        let text = nestedArrays(2048)
        let result = ResultBox()
        let thread = Thread {
            let parsed = try? JSON.parse(text)
            result.set(parsed.map { String(decoding: $0.serialized(), as: UTF8.self) == text } ?? false)
        }
        thread.stackSize = 1 << 20
        thread.start()
        XCTAssertEqual(result.wait(), true)
    }
}

/// A Bool handed from a thread to the test.
private final class ResultBox: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: Bool?

    func set(_ value: Bool) {
        condition.lock()
        self.value = value
        condition.signal()
        condition.unlock()
    }

    func wait() -> Bool? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: 30)
        while value == nil, condition.wait(until: deadline) {}
        return value
    }
}
