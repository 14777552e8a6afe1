import JSONCodec
import ScrollStackService
import XCTest

/// A layout for several `devices` lays the stack out once per device: its answer is bounded
/// (`ServiceLimits.devicesAnswerBytes`, `devicesDrawnRows`), checked after each device, and
/// beyond the bound the request is 422 naming `devices` with nothing else changed. Limits are
/// lowered here so that small stacks reach them.
final class DeviceBudgetTests: XCTestCase {
    var server: ServerHarness!

    override func setUpWithError() throws {
        var limits = ServiceLimits()
        limits.devicesAnswerBytes = 20_000
        limits.devicesDrawnRows = 100
        server = try ServerHarness(service: StackService(limits: limits))
        let rows = (0..<60).map { #"{"id": "r\#($0)", "view": {"type": "V"}, "size": {"fixed": 50}}"# }
        let create = try server.request("POST", "/v1/stacks", json: try JSON.parse(Array(#"{"id": "s", "rows": [\#(rows.joined(separator: ","))]}"#.utf8)))
        XCTAssertEqual(create.status, 201, create.text)
    }

    override func tearDown() {
        server.stop()
    }

    func testAJSONAnswerForSeveralDevicesIsBounded() throws {
        let one = try server.request("GET", "/v1/stacks/s/layout?devices=iphone-se")
        XCTAssertEqual(one.status, 200, one.text)
        XCTAssertGreaterThan(one.body.count, 10_000, "one device's layout of every row is more than half the budget")
        XCTAssertLessThan(one.body.count, 20_000)

        let two = try server.request("GET", "/v1/stacks/s/layout?devices=iphone-se,ipad-mini")
        XCTAssertEqual(two.status, 422, two.text)
        XCTAssertEqual(two.errorCode, "invalid_value")
        XCTAssertEqual(two.errorField, "devices")
        let message = two["error.message"]?.stringValue ?? ""
        XCTAssertTrue(message.hasPrefix("the layouts of 2 devices would take more than 20000 bytes (the first 2 take "), message)

        // The visible window of each device is well within it, and so is the stateless layout's.
        let visible = try server.request("GET", "/v1/stacks/s/layout?devices=iphone-se,ipad-mini&window=visible")
        XCTAssertEqual(visible.status, 200, visible.text)
        XCTAssertEqual(visible["layouts"]?.arrayValue?.count, 2)
        let stack = try server.request("GET", "/v1/stacks/s")
        let stateless = try server.request("POST", "/v1/layout?devices=iphone-se,ipad-mini", json: try JSON.parse(stack.body))
        XCTAssertEqual(stateless.status, 422, stateless.text)
        XCTAssertEqual(stateless.errorField, "devices")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s")["revision"], 1)
    }

    func testADrawingForSeveralDevicesIsBounded() throws {
        let one = try server.request("GET", "/v1/stacks/s/layout.svg?devices=iphone-se")
        XCTAssertEqual(one.status, 200, one.text)
        let two = try server.request("GET", "/v1/stacks/s/layout.svg?devices=iphone-se,ipad-mini")
        XCTAssertEqual(two.status, 422, two.text)
        XCTAssertEqual(two.errorField, "devices")
        XCTAssertEqual(two["error.message"]?.stringValue,
                       "the drawings of 2 devices would hold more than 100 rows (the first 2 hold 120): name fewer devices, or ask window=visible or a page (from, limit)")
        let visible = try server.request("GET", "/v1/stacks/s/layout.svg?devices=iphone-se,ipad-mini&window=visible")
        XCTAssertEqual(visible.status, 200, visible.text)
    }
}
