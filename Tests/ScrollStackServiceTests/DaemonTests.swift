import Foundation
import TestHTTPClient
import XCTest

/// The `scrollstackd` executable itself: options, the access log, graceful stop on signals.
final class DaemonTests: XCTestCase {
    var binary: URL { Daemon.binary }

    /// Starts the daemon in memory on a free port; returns it, its port and its standard error.
    func start(_ arguments: [String] = []) throws -> (Process, Int, Pipe) {
        let daemon = try Daemon.start(["--in-memory"] + arguments)
        return (daemon.process, daemon.port, daemon.standardError)
    }

    func testServesLogsAndStopsGracefullyOnSIGTERM() throws {
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            return XCTFail("scrollstackd is not built next to the tests at \(binary.path)")
        }
        let (process, port, errors) = try start()
        XCTAssertEqual(try httpRequest(port: port, method: "GET", path: "/healthz").status, 200)
        let created = try httpRequest(port: port, method: "POST", path: "/v1/stacks", headers: [("Content-Type", "application/json")],
                                      body: Array(#"{"id":"s"}"#.utf8))
        XCTAssertEqual(created.status, 201)
        process.terminate()  // SIGTERM
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "a graceful stop exits 0")
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(log.contains("POST /v1/stacks 201"), log)
        XCTAssertTrue(log.contains("stopped"), log)
        XCTAssertThrowsError(try httpRequest(port: port, method: "GET", path: "/healthz"), "no longer listening")
    }

    func testSIGINTAlsoStopsItAndBadOptionsAreRefused() throws {
        let (process, _, _) = try start(["--log-level", "notice"])
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)

        let bad = Process()
        bad.executableURL = binary
        bad.arguments = ["--log-level", "loud"]
        bad.standardError = Pipe()
        try bad.run()
        bad.waitUntilExit()
        XCTAssertNotEqual(bad.terminationStatus, 0)
    }
}
