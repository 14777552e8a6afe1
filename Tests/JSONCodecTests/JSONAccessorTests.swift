import JSONCodec
import XCTest

final class JSONAccessorTests: XCTestCase {
    func testAccessors() {
        let json: JSON = ["x": 1.0, "h": 1.5, "i": 3, "s": "t", "b": true, "a": [1], "o": ["k": "v"], "n": nil]
        XCTAssertEqual(json["x"]?.doubleValue, 1)
        XCTAssertEqual(json["h"]?.doubleValue, 1.5)
        XCTAssertEqual(json["i"]?.doubleValue, 3, "an integer is a number too")
        XCTAssertEqual(json["i"]?.int64Value, 3)
        XCTAssertEqual(json["x"]?.int64Value, 1, "an integral real")
        XCTAssertNil(json["h"]?.int64Value)
        XCTAssertEqual(json["s"]?.stringValue, "t")
        XCTAssertEqual(json["b"]?.boolValue, true)
        XCTAssertEqual(json["a"]?.arrayValue, [1])
        XCTAssertEqual(json["o"]?.objectValue, ["k": "v"])
        XCTAssertEqual(json["n"]?.isNull, true)
        XCTAssertEqual(json["s"]?.isNull, false)
        XCTAssertNil(json["missing"])
        XCTAssertEqual(json.objectValue?.count, 8)

        // Each accessor is nil for every other kind.
        let string: JSON = "1"
        XCTAssertNil(string.doubleValue)
        XCTAssertNil(string.int64Value)
        XCTAssertNil(string.boolValue)
        XCTAssertNil(string.arrayValue)
        XCTAssertNil(string.objectValue)
        XCTAssertNil(JSON.integer(1).stringValue)
        XCTAssertNil(JSON.integer(1).boolValue)
        XCTAssertNil(JSON.null.boolValue)
    }

    func testSubscriptOnOtherKinds() {
        XCTAssertNil(JSON.string("x")["key"])
        XCTAssertNil(JSON.array([["key": 1]])["key"])
        XCTAssertNil(JSON.null["key"])
        XCTAssertEqual((["key": nil] as JSON)["key"], .null, "a null member is present")
    }

    func testInt64ValueOfReals() {
        XCTAssertEqual(JSON.real(-0.0).int64Value, 0)
        XCTAssertEqual(JSON.real(-0x1p63).int64Value, .min)
        XCTAssertNil(JSON.real(0x1p63).int64Value, "2^63 is beyond Int64.max")
        XCTAssertEqual(JSON.real(0x1p62).int64Value, 1 << 62)
        XCTAssertNil(JSON.real(1e300).int64Value)
        XCTAssertNil(JSON.real(.nan).int64Value)
        XCTAssertNil(JSON.real(-.infinity).int64Value)
        XCTAssertNil(JSON.real(-2.5).int64Value)
        XCTAssertEqual(JSON.integer(.max).int64Value, .max)
    }

    func testTypeName() {
        XCTAssertEqual(
            [JSON.null, true, 1, 1.5, "s", [], [:]].map(\.typeName),
            ["null", "boolean", "integer", "number", "string", "array", "object"])
    }

    func testNumber() {
        XCTAssertEqual(JSON.number(44.0), .integer(44))
        XCTAssertEqual(JSON.number(-3), .integer(-3))
        XCTAssertEqual(JSON.number(-0.0), .integer(0))
        XCTAssertEqual(JSON.number(0.5), .real(0.5))
        XCTAssertEqual(JSON.number(0x1p53 - 1), .integer((1 << 53) - 1))
        XCTAssertEqual(JSON.number(0x1p53), .real(0x1p53), "2^53 and beyond stay reals")
        XCTAssertEqual(JSON.number(-0x1p53), .real(-0x1p53))
        XCTAssertEqual(JSON.number(1e20), .real(1e20))
        XCTAssertEqual(JSON.number(.infinity), .real(.infinity))
        XCTAssertEqual(JSON.number(.nan).typeName, "number")
    }

    func testLiterals() {
        XCTAssertEqual(nil as JSON, .null)
        XCTAssertEqual(true as JSON, .bool(true))
        XCTAssertEqual(5 as JSON, .integer(5))
        XCTAssertEqual(5.0 as JSON, .real(5))
        XCTAssertEqual("s" as JSON, .string("s"))
        XCTAssertEqual([1, "a"] as JSON, .array([.integer(1), .string("a")]))
        XCTAssertEqual(["b": 1, "a": 2] as JSON, .object(JSONObject([("b", 1), ("a", 2)])))
    }

    func testEquality() {
        XCTAssertNotEqual(JSON.integer(1), JSON.real(1), "different kinds")
        XCTAssertEqual(JSON.integer(1).doubleValue, JSON.real(1).doubleValue)
        XCTAssertNotEqual(["a": 1, "b": 2] as JSON, ["b": 2, "a": 1] as JSON, "member order matters")
        XCTAssertEqual(Set<JSON>([["a": 1], ["a": 1], [1]]).count, 2)
    }
}
