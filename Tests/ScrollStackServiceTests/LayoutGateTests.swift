import JSONCodec
@testable import ScrollStackService
import Foundation
import Synchronization
import TestHTTPClient
import XCTest

/// The layouts of whole stacks (stateless, for devices, drawn) take a slot each; with every
/// slot taken, one more waits a moment for one, is refused when none comes, and everything
/// else is served meanwhile.
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

    func testALayoutWaitsForASlotGivenBackWhileItWaits() throws {
        var limits = ServiceLimits()
        limits.concurrentLayouts = 1
        limits.layoutSlotPatience = .seconds(30)
        let server = try ServerHarness(service: StackService(limits: limits))
        defer { server.stop() }
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: object(("id", "s"), ("rows", [row("a")]))).status, 201)
        let gate = server.service.layoutGate
        XCTAssertTrue(gate.enter(), "the test holds the one slot, as another picture being drawn would")
        let answered = expectation(description: "the waiting picture is answered")
        let status = Mutex<Int?>(nil)
        let port = server.port
        Thread.detachNewThread {
            var got: Int?
            if let connection = try? TestHTTPConnection(port: port, timeout: 60) {
                defer { connection.close() }
                try? connection.sendRaw(Array("GET /v1/stacks/s/layout.svg HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
                got = try? connection.readHead().status
            }
            status.withLock { $0 = got }
            answered.fulfill()
        }
        XCTAssertTrue(gate.awaitWaiters(1, timeout: .seconds(30)), "the picture waits for the slot")
        XCTAssertFalse(gate.enter(waiting: .seconds(30)), "no more waiters than slots: one more is refused at once")
        gate.leave()
        wait(for: [answered], timeout: 30)
        XCTAssertEqual(status.withLock { $0 }, 200, "drawn once the slot came back")
        XCTAssertEqual(gate.count, 0)
        XCTAssertEqual(gate.waiters, 0)
    }
}
