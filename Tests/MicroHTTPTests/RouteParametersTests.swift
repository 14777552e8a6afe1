@testable import MicroHTTP
import XCTest

/// `RouteParameters`: the values a route captured, found by name, inline or not.
final class RouteParametersTests: XCTestCase {
    func testValuesAreFoundByNameWhateverTheirNumber() {
        for count in 0...5 {
            let names = (0..<count).map { "p\($0)" }
            let parameters = RouteParameters(names: names) { "value \($0)" }
            XCTAssertEqual(parameters.count, count)
            XCTAssertEqual(parameters.isEmpty, count == 0)
            for position in 0..<count { XCTAssertEqual(parameters["p\(position)"], "value \(position)", "\(count) parameters") }
            XCTAssertNil(parameters["p\(count)"])
            XCTAssertNil(parameters[""])
            XCTAssertEqual(parameters.map(\.key), names, "pairs in the pattern's order")
            XCTAssertEqual(parameters.map(\.value), (0..<count).map { "value \($0)" })
            XCTAssertEqual(parameters.dictionary.count, count)
        }
    }

    func testEqualityIgnoresOrderAndMatchesDictionaries() {
        let parameters = RouteParameters(names: ["stack", "row"]) { ["s", "r/1"][$0] }
        XCTAssertEqual(parameters, ["row": "r/1", "stack": "s"])
        XCTAssertEqual(parameters, RouteParameters(["stack": "s", "row": "r/1"]))
        XCTAssertNotEqual(parameters, ["stack": "s"])
        XCTAssertNotEqual(parameters, ["stack": "s", "row": "r"])
        XCTAssertEqual(parameters.dictionary, ["stack": "s", "row": "r/1"])
    }

    func testTheRouterCapturesEachParameterDecoded() {
        var router = Router<String>()
        router.add("GET", "/a/{first}/b/{second}/c/{third}", "three")
        guard case .found(let handler, let parameters) = router.match(method: "GET", path: "/a/x%20y/b/%2F/c/z") else {
            return XCTFail("no match")
        }
        XCTAssertEqual(handler, "three")
        XCTAssertEqual(parameters, ["first": "x y", "second": "/", "third": "z"])
        XCTAssertEqual(parameters["third"], "z", "a third value, past the two held inline")
    }
}
