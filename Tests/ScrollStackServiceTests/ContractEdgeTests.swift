import JSONCodec
import XCTest

/// Contract edges on the model's side: revisions up to 2⁶³−1 in queries, `If-Match` judged
/// after the path's row is found, and computed offsets rounded to 10⁻⁶ in every answer.
final class ContractEdgeTests: XCTestCase {
    var harness: ServerHarness!

    override func setUpWithError() throws { harness = try ServerHarness() }
    override func tearDown() { harness.stop() }

    func testRevisionAndAfterTakeEverySixtyFourBitValue() throws {
        XCTAssertEqual(try harness.request("POST", "/v1/stacks", json: object(("id", "s"), ("rows", [row("a")]))).status, 201)
        XCTAssertEqual(try harness.request("POST", "/v1/stacks/s/rows", json: object(("rows", [row("b")]))).status, 200)
        for value in ["0", "-1", "3", "2147483648", "9223372036854775807", "-9223372036854775808"] {
            for path in ["/v1/stacks/s", "/v1/stacks/s/layout"] {
                let reply = try harness.request("GET", path + "?revision=" + value)
                XCTAssertEqual(reply.status, 404, "\(path) revision \(value): \(reply.text)")
                XCTAssertEqual(reply.errorCode, "revision_not_found")
                XCTAssertEqual(reply.errorField, "revision")
            }
        }
        XCTAssertEqual(try harness.request("GET", "/v1/stacks/s?revision=1")["rows"]?.arrayValue?.count, 1)
        for value in ["9223372036854775808", "1.5", "x"] {
            let reply = try harness.request("GET", "/v1/stacks/s?revision=" + value)
            XCTAssertEqual(reply.status, 400, value)
            XCTAssertEqual(reply.errorField, "revision")
        }
        for value in ["2", "2147483648", "9223372036854775807"] {
            let reply = try harness.request("GET", "/v1/stacks/s/events?after=" + value)
            XCTAssertEqual(reply.status, 200, "after \(value): \(reply.text)")
            XCTAssertEqual(reply["events"]?.arrayValue?.count, 0)
        }
        XCTAssertEqual(try harness.request("GET", "/v1/stacks/s/events?after=9223372036854775808").status, 400)
        XCTAssertEqual(try harness.request("GET", "/v1/stacks/s/events?after=-1").status, 400)
    }

    /// Every route with a row in its path: an unknown row is 404 whatever `If-Match` says; a
    /// known row with a stale `If-Match` is 412.
    func testAnUnknownRowInThePathWinsOverIfMatch() throws {
        XCTAssertEqual(try harness.request("POST", "/v1/stacks", json: object(("id", "s"), ("rows", [row("a")]))).status, 201)
        let stale = [("If-Match", "\"99\"")]
        let routes: [(String, String, JSON?)] = [
            ("PUT", "", row("z")),
            ("PATCH", "", object(("hidden", true))),
            ("DELETE", "", nil),
            ("POST", "/move", object(("to", 0))),
        ]
        for (method, suffix, body) in routes {
            for missing in ["/v1/stacks/s/rows/nope", "/v1/stacks/s/rows/at/7", "/v1/stacks/s/rows/at/x"] {
                let reply = try harness.request(method, missing + suffix, json: body, headers: stale)
                XCTAssertEqual(reply.status, 404, "\(method) \(missing + suffix): \(reply.text)")
                XCTAssertEqual(reply.errorCode, "row_not_found")
            }
            let known = try harness.request(method, "/v1/stacks/s/rows/a" + suffix, json: body, headers: stale)
            XCTAssertEqual(known.status, 412, "\(method) …/rows/a\(suffix)")
        }
        XCTAssertEqual(try harness.request("GET", "/v1/stacks/s").header("etag"), "\"1\"", "nothing changed")
    }

    /// Rows a third of a point long: scrolling to a row, to the bottom and to the middle
    /// computes offsets with endless fractions. Every number of every answer about geometry
    /// (the scroll's events, the stack's offset, the layout, the history) is rounded to 10⁻⁶.
    func testComputedOffsetsAreRoundedInEveryAnswer() throws {
        let third = 100.0 / 3
        let rows = JSON.array((0..<40).map { k in
            object(("id", .string("r\(k)")), ("view", object(("type", "V"))), ("size", object(("fixed", .real(third)))),
                   ("insets", object(("top", 0), ("left", 0), ("bottom", 0), ("right", 0))))
        })
        XCTAssertEqual(try harness.request("POST", "/v1/stacks", json: object(("id", "s"), ("viewport", object(("width", 320), ("height", 200))), ("rows", rows))).status, 201)
        var scrolls: [Reply] = []
        for target in [object(("row", "r17"), ("position", "initial")), object(("row", "r29"), ("position", "middle")),
                       object(("to", "bottom")), object(("row", "r5"), ("position", "final"))] {
            let reply = try harness.request("POST", "/v1/stacks/s/scroll", json: target)
            XCTAssertEqual(reply.status, 200, reply.text)
            scrolls.append(reply)
        }
        let firstTo = scrolls[0]["events"]?.arrayValue?.first { $0["type"]?.stringValue == "didScroll" }?["to"]?["y"]?.doubleValue
        XCTAssertEqual(firstTo, 566.666667, "17 × 100/3, rounded")
        var answers: [(String, JSON?)] = scrolls.enumerated().map { ("scroll \($0.offset)", $0.element["events"]) }
        let stack = try harness.request("GET", "/v1/stacks/s")
        answers.append(("GET offset", stack["offset"]))
        answers.append(("GET contentSize", stack["contentSize"]))
        answers.append(("layout", try harness.request("GET", "/v1/stacks/s/layout").json))
        answers.append(("history", try harness.request("GET", "/v1/stacks/s/events").json))
        for (name, answer) in answers {
            XCTAssertNotNil(answer, name)
            for number in Self.numbers(in: answer ?? .null) {
                XCTAssertEqual((number * 1e6).rounded() / 1e6, number, "\(name): \(number) is not rounded to 10⁻⁶")
            }
        }
    }

    /// Every number in a JSON value.
    static func numbers(in value: JSON) -> [Double] {
        var found: [Double] = []
        var pending = [value]
        while let next = pending.popLast() {
            switch next {
            case .integer(let v): found.append(Double(v))
            case .real(let v): found.append(v)
            case .array(let elements): pending += elements
            case .object(let object): pending += object.map(\.value)
            default: break
            }
        }
        return found
    }
}
