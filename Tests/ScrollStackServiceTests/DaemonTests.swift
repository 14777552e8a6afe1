import Foundation
import TestHTTPClient
import XCTest

/// The `scrollstackd` executable itself: options, the access log, graceful stop on signals.
final class DaemonTests: XCTestCase {
    /// The daemon built next to this test bundle (`swift build --build-tests` builds both).
    var binary: URL {
        let bundle = URL(fileURLWithPath: CommandLine.arguments.first { $0.hasSuffix(".xctest") } ?? CommandLine.arguments[0])
        return bundle.deletingLastPathComponent().appendingPathComponent("scrollstackd")
    }

    /// Starts the daemon on a free port; returns it, its port and its standard error.
    func start(_ arguments: [String] = []) throws -> (Process, Int, Pipe) {
        let process = Process()
        process.executableURL = binary
        process.arguments = ["--port", "0", "--in-memory"] + arguments
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        // The first notice names the port: "listening on http://127.0.0.1:PORT".
        var text = ""
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, !text.contains("listening on") {
            text += String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self)
        }
        guard let range = text.range(of: #"127\.0\.0\.1:(\d+)"#, options: .regularExpression),
              let port = Int(text[range].split(separator: ":").last ?? "") else {
            process.terminate()
            throw DaemonError(message: "the daemon did not report its port: \(text)")
        }
        return (process, port, errors)
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

struct DaemonError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
