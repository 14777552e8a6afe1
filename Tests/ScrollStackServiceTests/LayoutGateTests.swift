import Jansson
@testable import ScrollStackService
import XCTest

/// The layouts of whole stacks (stateless, for devices, drawn) take a slot each; with every
/// slot taken, one more is refused at once and everything else is served.
final class LayoutGateTests: XCTestCase {
    func testALayoutThatFindsEverySlotTakenIsRefusedAndOthersAreServed() throws {
        var limits = ServiceLimits()
        limits.concurrentLayouts = 1
        let server = try ServerHarness(service: StackService(limits: limits))
        defer { server.stop() }
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: object(("id", "s"), ("rows", [row("a")]))).status, 201)
        XCTAssertTrue(server.service.layoutGate.enter(), "the test holds the one slot, as a long layout would")
        for (method, path, body) in [("POST", "/v1/layout", object(("rows", [row("a")]))), ("GET", "/v1/stacks/s/layout?devices=iphone-se", nil),
                                     ("GET", "/v1/stacks/s/layout.svg", nil)] as [(String, String, JSON?)] {
            let refused = try server.request(method, path, json: body)
            XCTAssertEqual(refused.status, 503, path)
            XCTAssertEqual(refused.errorCode, "busy", path)
            XCTAssertEqual(refused.header("Retry-After"), "1", path)
        }
        XCTAssertEqual(try server.request("GET", "/healthz").status, 200)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s/layout").status, 200, "a stored layout takes no slot")
        XCTAssertEqual(try server.request("POST", "/v1/stacks/s/rows", json: object(("rows", [row("b")]))).status, 200)
        server.service.layoutGate.leave()
        XCTAssertEqual(try server.request("POST", "/v1/layout", json: object(("rows", [row("a")]))).status, 200)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s/layout?devices=iphone-se").status, 200)
        XCTAssertEqual(server.service.layoutGate.count, 0, "every slot is given back, refusals and answers alike")
    }
}
