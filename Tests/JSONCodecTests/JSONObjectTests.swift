import JSONCodec
import XCTest

final class JSONObjectTests: XCTestCase {
    func testSubscriptSetReplaceRemove() {
        var object: JSONObject = ["a": 1, "b": 2]
        object["a"] = 10
        XCTAssertEqual(object.keys, ["a", "b"], "replacing keeps the position")
        XCTAssertEqual(object["a"], 10)
        object["c"] = 3
        XCTAssertEqual(object.keys, ["a", "b", "c"], "a new key is appended")
        object["b"] = nil
        XCTAssertEqual(object.keys, ["a", "c"], "nil removes")
        XCTAssertNil(object["b"])
        object["missing"] = nil
        XCTAssertEqual(object.keys, ["a", "c"], "removing a missing key does nothing")
        object["b"] = .null
        XCTAssertEqual(object.keys, ["a", "c", "b"], "a null value is a member")
        XCTAssertEqual(object["b"], .null)
        XCTAssertEqual(object.count, 3)
        XCTAssertFalse(object.isEmpty)
        for key in object.keys { object[key] = nil }
        XCTAssertTrue(object.isEmpty)
        XCTAssertEqual(object, JSONObject())
    }

    func testRepeatedKeysInPairs() {
        let small = JSONObject([("a", 1), ("b", 2), ("a", 3)])
        XCTAssertEqual(small.keys, ["a", "b"], "first position")
        XCTAssertEqual(small["a"], 3, "last value")
        XCTAssertEqual(small.count, 2)

        // Past the size where repeated keys are found by hashing.
        var pairs = (0..<100).map { ("k\($0)", JSON.integer(Int64($0))) }
        pairs.append(("k5", "five"))
        pairs.insert(("k99", "first"), at: 0)
        let large = JSONObject(pairs)
        XCTAssertEqual(large.count, 100)
        XCTAssertEqual(large.keys.first, "k99")
        XCTAssertEqual(large.keys[1...3], ["k0", "k1", "k2"])
        XCTAssertEqual(large["k99"], 99)
        XCTAssertEqual(large["k5"], "five")

        let literal: JSONObject = ["x": 1, "y": 2, "x": 3]
        XCTAssertEqual(Array(literal).map(\.key), ["x", "y"])
        XCTAssertEqual(literal["x"], 3)
    }

    func testSequenceInOrder() {
        let object = JSONObject((0..<50).reversed().map { ("\($0)", JSON.integer(Int64($0))) })
        let members = Array(object)
        XCTAssertEqual(members.count, 50)
        XCTAssertEqual(members.first?.key, "49")
        XCTAssertEqual(members.last?.value, 0)
        XCTAssertEqual(object.keys, (0..<50).reversed().map { "\($0)" })
        XCTAssertEqual(object.underestimatedCount, 50)
    }

    func testEqualityAndHashing() {
        XCTAssertEqual(JSONObject([("a", 1), ("c", 3)]), ["a": 1, "c": 3])
        XCTAssertNotEqual(JSONObject([("a", 1), ("c", 3)]), JSONObject([("c", 3), ("a", 1)]), "order matters")
        XCTAssertNotEqual(JSONObject([("a", 1)]), JSONObject([("a", 1), ("b", 2)]))
        XCTAssertNotEqual(JSONObject([("a", 1)]), JSONObject([("a", 1.0)]))
        XCTAssertEqual(Set([JSONObject([("a", 1)]), ["a": 1], ["a": 2]]).count, 2)
    }
}
