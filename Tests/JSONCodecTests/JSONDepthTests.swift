import JSONCodec
import XCTest

final class JSONDepthTests: XCTestCase {
    func testNestingDepthCountsArraysAndObjects() throws {
        XCTAssertEqual(JSON.integer(1).nestingDepth, 0)
        XCTAssertEqual(try JSON.parse("[]").nestingDepth, 1)
        XCTAssertEqual(try JSON.parse(#"{"a":1,"b":[2,{"c":[]}]}"#).nestingDepth, 4)
        XCTAssertEqual(try JSON.parse(#"[[1],[[2]],3]"#).nestingDepth, 3)
    }

    /// The relation the service's limit relies on: a value of depth d inside w containers
    /// reads back while w + d ≤ 2048 (w + d + 1 with a scalar innermost).
    func testJanssonReadsBackExactlyUpTo2048Levels() throws {
        let deepest = String(repeating: "[", count: 2048) + String(repeating: "]", count: 2048)
        XCTAssertEqual(try JSON.parse(deepest).nestingDepth, 2048)
        XCTAssertThrowsError(try JSON.parse("[" + deepest + "]"))
        XCTAssertThrowsError(try JSON.parse(String(repeating: "[", count: 2048) + "1" + String(repeating: "]", count: 2048)))
    }
}
