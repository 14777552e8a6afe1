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
        process.waitForExit()
        XCTAssertEqual(process.terminationStatus, 0, "a graceful stop exits 0")
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(log.contains("POST /v1/stacks 201"), log)
        XCTAssertTrue(log.contains("stopped"), log)
        XCTAssertThrowsError(try httpRequest(port: port, method: "GET", path: "/healthz"), "no longer listening")
    }

    /// A request still arriving (its body half sent) does not hold a stop: SIGTERM closes it
    /// at once and the daemon exits within a second or two, well before Docker's 10 s SIGKILL.
    func testSIGTERMDoesNotWaitForHalfSentRequests() throws {
        let (process, port, errors) = try start(["--shutdown-grace", "30"])
        let half = try TestHTTPConnection(port: port, timeout: 5)
        try half.sendRaw(Array("POST /v1/stacks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 100\r\n\r\n".utf8))
        XCTAssertEqual(try half.readHead().status, 100, "the server has the head and waits for the body")
        try half.sendRaw(Array("{\"id\":".utf8))
        let started = ContinuousClock.now
        process.terminate()  // SIGTERM
        XCTAssertTrue(half.isClosedByServer(within: 2), "the half-sent request is closed at once")
        process.waitForExit(within: 20)
        let elapsed = (ContinuousClock.now - started) / .seconds(1)
        print(String(format: "stopped %.2f s after SIGTERM with a half-sent request", elapsed))
        XCTAssertLessThan(elapsed, 10, "long before the grace period (30 s) ends")
        XCTAssertEqual(process.terminationStatus, 0)
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(log.contains("stopped"), log)
    }

    func testSIGINTAlsoStopsItAndBadOptionsAreRefused() throws {
        let (process, _, _) = try start(["--log-level", "notice"])
        kill(process.processIdentifier, SIGINT)
        process.waitForExit()
        XCTAssertEqual(process.terminationStatus, 0)

        let bad = Process()
        bad.executableURL = binary
        bad.arguments = ["--log-level", "loud"]
        bad.standardError = Pipe()
        try bad.run()
        bad.waitForExit()
        XCTAssertNotEqual(bad.terminationStatus, 0)
    }

    /// `--help` lists the options by purpose, each group under its title, and `--help` itself
    /// alone under OPTIONS. The health check takes every option of the server, listed under one
    /// title of its own (an option group's title covers the groups inside it).
    func testHelpGroupsTheOptionsByPurpose() throws {
        let help = try DaemonHelp()
        let expected: [(title: String, options: [String])] = [
            ("NETWORK", ["--host", "--port", "--threads", "--connection-timeout", "--connection-limit", "--shutdown-grace",
                         "--connections-per-address", "--connection-memory"]),
            ("STORAGE", ["--data-dir", "--store", "--advertise-url", "--in-memory"]),
            ("SECURITY", ["--token-file", "--tokens", "--cors-origin", "--allowed-host"]),
            ("LIMITS", ["--max-body-bytes", "--request-deadline", "--max-json-depth", "--device-layout-rows", "--device-layout-text-bytes",
                        "--drawn-rows", "--concurrent-layouts", "--max-font-bytes", "--max-uploaded-fonts", "--max-uploaded-font-bytes"]),
            ("HISTORY AND EVENTS", ["--events-answer-bytes", "--stream-heartbeat", "--stream-idle-timeout"]),
            ("FONTS AND TEXT", ["--font-dir", "--text-cache-bytes", "--font-cache-bytes"]),
            ("LOGGING AND METRICS", ["--log-level", "--metrics"]),
            ("OPTIONS", ["--help"]),
            ("SUBCOMMANDS", []),
        ]
        XCTAssertEqual(help.sections.map(\.title), expected.map(\.title), help.text)
        for (title, options) in expected {
            XCTAssertEqual(help.sections.first { $0.title == title }?.options, options, "\(title): \(help.text)")
        }

        let check = try DaemonHelp(["healthcheck", "--help"])
        XCTAssertEqual(check.sections.first { $0.title == "SERVER OPTIONS" }?.options, help.options, check.text)
    }

    /// Regression: percent-encoded newlines were decoded into the access log, so a client
    /// could write lines of its own. The log shows targets as received, escaped.
    func testClientsCannotForgeLogLines() throws {
        let (process, port, errors) = try start()
        let forged = "/v1/stacks/x%0A2026-01-01T00:00:00+0000%20info%20scrollstackd:%20GET%20/forged%20200%201%C2%B5s"
        XCTAssertEqual(try httpRequest(port: port, method: "GET", path: forged).status, 404)
        let connection = try TestHTTPConnection(port: port)
        try connection.sendRaw(Array("GET /raw\u{1B}[2J\u{7F}\u{85} HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        XCTAssertEqual(try connection.readResponse().status, 400, "raw control bytes in the target are refused")
        connection.close()
        XCTAssertEqual(try httpRequest(port: port, method: "GET", path: "/healthz?a=%0D%0Ab").status, 200)
        process.terminate()
        process.waitForExit()
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let lines = log.split(separator: "\n")
        XCTAssertTrue(lines.allSatisfy { $0.hasPrefix("20") && $0.contains(" scrollstackd: ") }, "every line is the server's own:\n\(log)")
        XCTAssertFalse(lines.contains { $0.contains("GET /forged") && !$0.contains("%0A") }, log)
        XCTAssertTrue(log.contains("GET \(forged) 404"), log)
        XCTAssertTrue(log.contains("GET /raw\\x1B[2J\\x7F\\xC2\\x85 400"), log)
        XCTAssertTrue(log.contains("GET /healthz?a=%0D%0Ab 200"), log)
    }
}
