import JSONCodec
import XCTest

final class JSONSerializationTests: XCTestCase {
    func testCompactUTF8Output() {
        let value: JSON = ["a": [1, 2], "b": "é ✓ 𝄞", "c": ["d": nil, "e": false]]
        XCTAssertEqual(value.serializedString, #"{"a":[1,2],"b":"é ✓ 𝄞","c":{"d":null,"e":false}}"#)
        XCTAssertEqual(value.serialized(), Array(value.serializedString.utf8))
        XCTAssertEqual(JSON.string("").serializedString, #""""#)
        XCTAssertEqual(JSON.array([]).serializedString, "[]")
        XCTAssertEqual(JSON.object(JSONObject()).serializedString, "{}")
    }

    func testTopLevelScalars() {
        XCTAssertEqual(JSON.null.serializedString, "null")
        XCTAssertEqual(JSON.bool(true).serializedString, "true")
        XCTAssertEqual(JSON.bool(false).serializedString, "false")
        XCTAssertEqual(JSON.integer(-7).serializedString, "-7")
        XCTAssertEqual(JSON.real(1.5).serializedString, "1.5")
        XCTAssertEqual(JSON.string("s").serializedString, #""s""#)
    }

    func testKeyOrderIsWritten() {
        var object = JSONObject([("z", 1), ("a", 2), ("m", 3)])
        object["b"] = 4
        object["a"] = 20
        XCTAssertEqual(JSON.object(object).serializedString, #"{"z":1,"a":20,"m":3,"b":4}"#)
    }

    func testRoundTrip() throws {
        let corpus: [JSON] = [
            .null, true, false, 0, -1, .integer(.max), .integer(.min),
            .real(0.1), .real(1e-300), .real(-2.5), .real(.leastNonzeroMagnitude), .real(.greatestFiniteMagnitude), .real(-0.0), .real(1e20),
            "", "plain", "ünïcødé ✓ 𝄞 中文 😀", .string("nul\u{0}inside"), "\u{0}", "quote \" backslash \\ slash / newline \n tab \t \u{1}\u{1F}\u{7F}",
            "\u{2028}\u{2029}\u{FEFF}",
            [], [:], [1, "two", [3.5], ["k": nil]], ["nested": ["deeper": [true, ["": "empty key"]]]],
            .object(JSONObject((0..<100).map { ("key\($0)", .integer(Int64($0) * 1_000_000_007)) })),
        ]
        for value in corpus {
            let text = value.serialized(realPrecision: 17)
            XCTAssertEqual(try JSON.parse(text), value, String(decoding: text, as: UTF8.self))
        }
        // The whole corpus at once, and at the default precision for reals that need no more.
        XCTAssertEqual(try JSON.parse(JSON.array(corpus).serialized(realPrecision: 17)), .array(corpus))
        let short: JSON = [0.1, 1e-300, -2.5, 0.5, 44.25, 1e20]
        XCTAssertEqual(try JSON.parse(short.serialized()), short)
    }

    func testEscapes() {
        XCTAssertEqual(JSON.string("a\u{0}b").serializedString, #""a\u0000b""#)
        XCTAssertEqual(JSON.string("\"\\/\n\r\t\u{8}\u{C}\u{1}").serializedString, #""\"\\/\n\r\t\b\f\u0001""#)
        XCTAssertEqual(JSON.object(["a\u{0}b": 1]).serializedString, #"{"a\u0000b":1}"#, "a key keeps its NUL")
    }

    func testTextLongerThanEstimated() throws {
        // Every control character takes six bytes: the text outgrows the first buffer.
        let value = JSON.array([.string(String(repeating: "\u{1}", count: 5000)), ["\u{2}\u{3}": "\""]])
        let text = value.serialized()
        XCTAssertEqual(text.count, 1 + (2 + 6 * 5000) + 1 + #"{"\u0002\u0003":"\""}"#.utf8.count + 1)
        XCTAssertEqual(try JSON.parse(text), value)
    }

    func testLargeDocument() throws {
        let rows = (0..<5000).map { i -> JSON in
            ["id": .string("row-\(i)"), "index": .integer(Int64(i)), "frame": ["y": .number(Double(i) * 44.5), "height": 44.5]]
        }
        let value: JSON = ["revision": 3, "rows": .array(rows)]
        let text = value.serialized()
        XCTAssertEqual(try JSON.parse(text), value)
        XCTAssertTrue(value.serializedString.hasPrefix(#"{"revision":3,"rows":[{"id":"row-0","index":0,"frame":{"y":0,"height":44.5}},"#))
    }

    func testNumbers() {
        XCTAssertEqual(JSON.number(44.0).serializedString, "44")
        XCTAssertEqual(JSON.number(0.5).serializedString, "0.5")
        XCTAssertEqual(JSON.number(-0.5).serializedString, "-0.5")
        XCTAssertEqual(JSON.number(-12.0).serializedString, "-12")
        XCTAssertEqual(JSON.real(44).serializedString, "44.0", "a real always reads back as a real")
        XCTAssertEqual(JSON.number(1e20).serializedString, "1e20")
        XCTAssertEqual(JSON.integer(.min).serializedString, "-9223372036854775808")
        XCTAssertEqual(JSON.integer(.max).serializedString, "9223372036854775807")
    }

    func testRealPrecision() {
        XCTAssertEqual(JSON.real(0.1).serializedString, "0.1", "15 significant digits by default")
        XCTAssertEqual(JSON.real(0.1).serialized(realPrecision: 15), Array("0.1".utf8))
        XCTAssertEqual(JSON.real(0.1).serialized(realPrecision: 17), Array("0.10000000000000001".utf8))
        XCTAssertEqual(JSON.real(0.1).serialized(realPrecision: 0), Array("0.10000000000000001".utf8), "0: jansson's default, 17")
        XCTAssertEqual(JSON.real(2.0 / 3.0).serialized(realPrecision: 3), Array("0.667".utf8))
        XCTAssertEqual(JSON.real(1.0 / 3.0).serializedString, "0.3333333333333333", "15 is a floor: 16 digits where 15 would read back as another real")
        XCTAssertEqual(JSON.real(0.1 + 0.2).serializedString, "0.30000000000000004")
        XCTAssertEqual(JSON.real(0.9999999999999999).serializedString, "0.9999999999999999")
        XCTAssertEqual(JSON.real(.greatestFiniteMagnitude).serializedString, "1.7976931348623157e308", "15 digits would overflow to infinity")
        XCTAssertEqual(JSON.real(1.0 / 3.0).serialized(realPrecision: 16), Array("0.3333333333333333".utf8))
        XCTAssertEqual(JSON.real(0.1 + 0.2).serialized(realPrecision: 16), Array("0.30000000000000004".utf8))
        XCTAssertEqual(JSON.real(1.0 / 3.0).serialized(realPrecision: 14), Array("0.33333333333333".utf8), "below 15, rounded as asked")
        XCTAssertEqual(JSON.real(0.1).serialized(realPrecision: 99), JSON.real(0.1).serialized(realPrecision: 31), "at most 31")
        XCTAssertEqual(JSON.real(0.1).serialized(realPrecision: -5), JSON.real(0.1).serialized(realPrecision: 0))
    }

    func testNonFiniteRealsAreWrittenAsNull() {
        XCTAssertEqual(JSON.real(.nan).serializedString, "null")
        XCTAssertEqual(JSON.real(.infinity).serializedString, "null")
        XCTAssertEqual(([JSON.real(-.infinity), 1] as JSON).serializedString, "[null,1]")
        XCTAssertEqual((["x": .real(.nan), "y": 2] as JSON).serializedString, #"{"x":null,"y":2}"#)
        XCTAssertEqual(JSON.number(.nan).serializedString, "null")
    }

    func testDeepValue() throws {
        var value: JSON = []
        for _ in 1..<2000 { value = .array([value]) }
        let text = String(repeating: "[", count: 2000) + String(repeating: "]", count: 2000)
        XCTAssertEqual(value.serializedString, text)
        XCTAssertEqual(try JSON.parse(text), value)
    }
}
