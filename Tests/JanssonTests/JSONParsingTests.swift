import Jansson
import XCTest

final class JSONParsingTests: XCTestCase {
    func testEveryValueType() throws {
        let json = try JSON.parse(#"{"n":null,"t":true,"f":false,"i":-42,"r":2.5,"s":"h\u00e9llo","a":[1,[2]],"o":{"k":"v"}}"#)
        XCTAssertEqual(json["n"], .null)
        XCTAssertEqual(json["t"], .bool(true))
        XCTAssertEqual(json["f"], .bool(false))
        XCTAssertEqual(json["i"], .integer(-42))
        XCTAssertEqual(json["r"], .real(2.5))
        XCTAssertEqual(json["s"], .string("héllo"))
        XCTAssertEqual(json["a"], .array([.integer(1), .array([.integer(2)])]))
        XCTAssertEqual(json["o"]?["k"], .string("v"))
        XCTAssertEqual(try JSON.parse("7"), .integer(7), "any top-level value")
    }

    func testKeyOrderIsKept() throws {
        let json = try JSON.parse(#"{"z":1,"a":2,"m":3}"#)
        XCTAssertEqual(json.objectValue?.keys, ["z", "a", "m"])
        XCTAssertEqual(json.serializedString, #"{"z":1,"a":2,"m":3}"#)
    }

    func testErrorsCarryLineAndColumn() {
        XCTAssertThrowsError(try JSON.parse("{\n  \"a\": 1,\n  \"b\": }")) { error in
            let parse = error as? JSONParseError
            XCTAssertEqual(parse?.line, 3)
            XCTAssertEqual(parse?.column, 8)
            XCTAssertTrue(parse?.description.hasPrefix("line 3, column 8: ") ?? false, parse?.description ?? "")
        }
        XCTAssertThrowsError(try JSON.parse(""), "empty input")
        XCTAssertThrowsError(try JSON.parse([0x22, 0xFF, 0x22]), "invalid UTF-8")
        XCTAssertThrowsError(try JSON.parse(#"{"a":1,"a":2}"#), "duplicate keys")
        XCTAssertEqual(try JSON.parse(#"["a\u0000b"]"#), ["a\u{0}b"], "NUL inside a string value is allowed")
        XCTAssertThrowsError(try JSON.parse(#"{"a\u0000b":1}"#), "NUL inside a key is not (a jansson limit)")
        XCTAssertThrowsError(try JSON.parse("[1e999]"), "real overflow")
        XCTAssertThrowsError(try JSON.parse("[99999999999999999999]"), "integer overflow")
    }

    func testNestingLimit() throws {
        let deep = String(repeating: "[", count: 2000) + String(repeating: "]", count: 2000)
        XCTAssertNotNil(try JSON.parse(deep).arrayValue)
        let tooDeep = String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)
        XCTAssertThrowsError(try JSON.parse(tooDeep))
    }

    func testAccessors() throws {
        let json: JSON = ["x": 1.0, "i": 3, "s": "t", "b": true, "a": [1], "n": nil]
        XCTAssertEqual(json["x"]?.doubleValue, 1)
        XCTAssertEqual(json["x"]?.int64Value, 1, "an integral real")
        XCTAssertNil(JSON.real(1.5).int64Value)
        XCTAssertEqual(json["i"]?.doubleValue, 3)
        XCTAssertEqual(json["s"]?.stringValue, "t")
        XCTAssertEqual(json["b"]?.boolValue, true)
        XCTAssertEqual(json["a"]?.arrayValue, [1])
        XCTAssertEqual(json["n"]?.isNull, true)
        XCTAssertNil(json["missing"])
        XCTAssertNil(JSON.string("x")["key"])
        XCTAssertEqual([JSON.null, true, 1, 1.5, "s", [], [:]].map(\.typeName), ["null", "boolean", "integer", "number", "string", "array", "object"])
    }

    func testObjectSubscriptSemantics() {
        var object: JSONObject = ["a": 1, "b": 2]
        object["a"] = 10
        XCTAssertEqual(object.keys, ["a", "b"], "replacing keeps the position")
        object["c"] = 3
        XCTAssertEqual(object.keys, ["a", "b", "c"])
        object["b"] = nil
        XCTAssertEqual(object.keys, ["a", "c"])
        XCTAssertEqual(object["a"], 10)
        XCTAssertEqual(object.count, 2)
        XCTAssertNotEqual(JSONObject([("a", 1), ("c", 3)]), JSONObject([("c", 3), ("a", 1)]), "order matters")
    }
}
