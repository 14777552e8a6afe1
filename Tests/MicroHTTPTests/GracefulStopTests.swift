import Dispatch
import MicroHTTP
import Synchronization
import TestHTTPClient
import XCTest

/// `stop()` closes requests still arriving at once and waits only for those being answered.
final class GracefulStopTests: XCTestCase {
    func testHalfSentRequestsAreClosedAtOnceWhileAnswersFinish() throws {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let server = HTTPServer(
            configuration: .init(host: "127.0.0.1", port: 0, threads: 2, maxBodyBytes: 1000, connectionTimeout: 30, connectionLimit: 16),
            handler: { request in
                if request.path == "/slow" {
                    entered.signal()
                    _ = release.wait(timeout: .now() + 10)
                }
                return HTTPServerTests.echo(request)
            },
            errorResponder: HTTPServerTests.errorResponder
        )
        try server.start()
        let port = server.port
        // A body half sent: `100 Continue` says the server has the head and waits for the body.
        let halfBody = try TestHTTPConnection(port: port, timeout: 5)
        try halfBody.sendRaw(Array("POST /upload HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 100\r\n\r\n".utf8))
        XCTAssertEqual(try halfBody.readHead().status, 100)
        try halfBody.sendRaw(Array("{\"half\":".utf8))
        // A head half sent, its request line read (the request is in flight).
        let halfHead = try TestHTTPConnection(port: port, timeout: 5)
        try halfHead.sendRaw(Array("GET /never HTTP/1.1\r\nHost: x\r\n".utf8))
        XCTAssertTrue(eventually { server.requestsInFlight == 2 }, "both half-sent requests are in flight")
        let slow = Mutex<Int?>(nil)
        let asker = startThreads(1) { _ in
            let status = try? httpRequest(port: port, method: "GET", path: "/slow").status
            slow.withLock { $0 = status }
        }
        XCTAssertEqual(entered.wait(timeout: .now() + 5), .success, "the handler holds /slow now")

        let started = ContinuousClock.now
        let stopper = startThreads(1) { _ in server.stop(gracePeriod: 10) }
        XCTAssertTrue(halfBody.isClosedByServer(within: 3), "a half-sent body is closed at once")
        XCTAssertTrue(halfHead.isClosedByServer(within: 3), "a half-sent head is closed at once")
        XCTAssertEqual(stopper.wait(timeout: .now() + 0.2), .timedOut, "stop waits for the answer being made")
        release.signal()
        XCTAssertEqual(stopper.wait(timeout: .now() + 5), .success)
        let elapsed = (ContinuousClock.now - started) / .seconds(1)
        XCTAssertEqual(asker.wait(timeout: .now() + 5), .success)
        XCTAssertEqual(slow.withLock { $0 }, 200, "the request being answered got its answer")
        print(String(format: "stopped in %.2f s with two half-sent requests (grace period 10 s)", elapsed))
        XCTAssertLessThan(elapsed, 6, "long before the grace period (10 s) ends")
    }
}
