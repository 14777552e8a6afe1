import Jansson
import XCTest

final class JSONSerializationTests: XCTestCase {
    func testRoundTrip() throws {
        let corpus: [JSON] = [
            .null, true, false, .integer(Int64.max), .integer(Int64.min), .real(0.1), .real(1e-300), .real(-2.5),
            "plain", "ünïcødé ✓ 𝄞", .string("nul\u{0}inside"), "quote \" backslash \\ newline \n",
            [1, "two", [3.5], ["k": nil]], ["nested": ["deeper": [true]]],
        ]
        for value in corpus {
            XCTAssertEqual(try JSON.parse(value.serialized(realPrecision: 17)), value, value.serializedString)
        }
    }

    func testEmbeddedNULIsWrittenEscaped() {
        XCTAssertEqual(JSON.string("a\u{0}b").serializedString, #""a\u0000b""#)
    }

    func testNumbers() {
        XCTAssertEqual(JSON.number(44.0).serializedString, "44")
        XCTAssertEqual(JSON.number(-0.5).serializedString, "-0.5")
        XCTAssertEqual(JSON.number(0.1).serializedString, "0.1", "15 significant digits by default")
        XCTAssertEqual(JSON.real(0.1).serialized(realPrecision: 17), Array("0.10000000000000001".utf8))
        XCTAssertEqual(JSON.number(1e20), .real(1e20), "beyond 2^53 stays a real")
        XCTAssertEqual(JSON.real(.nan).serializedString, "null")
        XCTAssertEqual(([JSON.real(.infinity)] as JSON).serializedString, "[null]")
    }

    func testCompactUTF8Output() {
        let value: JSON = ["a": [1, 2], "b": "é"]
        XCTAssertEqual(value.serializedString, #"{"a":[1,2],"b":"é"}"#)
        XCTAssertEqual(JSON.string("").serializedString, #""""#)
    }
}
