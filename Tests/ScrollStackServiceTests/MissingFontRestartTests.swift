import Foundation
import JSONCodec
import TestHTTPClient
import XCTest

/// A stack whose text uses a font from `--font-dir`, restarted without that folder: the
/// stack answers 503 `stack_unavailable` with a reason naming the missing family and the
/// option, the others are served, and starting again with the folder brings it back as it was
/// (Docs/API.md, "Fonts that are gone after a restart").
final class MissingFontRestartTests: XCTestCase {
    var directory: URL!
    var fonts: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ssfonts-\(UUID().uuidString)")
        fonts = directory.appendingPathComponent("fonts")
        try FileManager.default.createDirectory(at: fonts, withIntermediateDirectories: true)
        // Liberation Sans is not among the default fonts (Inter, DejaVu); `make test` installs
        // fonts-liberation (the Makefile's TEST_APT_PACKAGES).
        let source = URL(fileURLWithPath: "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf")
        guard FileManager.default.fileExists(atPath: source.path) else { throw XCTSkip("fonts-liberation is not installed") }
        try FileManager.default.copyItem(at: source, to: fonts.appendingPathComponent("LiberationSans-Regular.ttf"))
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
    }

    func send(_ daemon: Daemon, _ method: String, _ path: String, _ body: JSON? = nil) throws -> Reply {
        Reply(try httpRequest(port: daemon.port, method: method, path: path,
                              headers: body == nil ? [] : [("Content-Type", "application/json")], body: body?.serialized()))
    }

    func start(_ arguments: [String] = []) throws -> Daemon {
        try Daemon.start(["--data-dir", directory.appendingPathComponent("data").path, "--log-level", "notice"] + arguments)
    }

    func testAStackWhoseFontIsGoneAnswers503NamingTheFont() throws {
        let label = object(("id", "t"), ("view", object(("type", "Label"))),
                           ("content", object(("text", "Hello"), ("font", object(("family", "Liberation Sans"), ("size", 16))))))
        var daemon = try start(["--font-dir", fonts.path])
        XCTAssertEqual(try send(daemon, "POST", "/v1/stacks", object(("id", "lettered"), ("rows", [label]))).status, 201)
        XCTAssertEqual(try send(daemon, "POST", "/v1/stacks", object(("id", "plain"), ("rows", [row("a")]))).status, 201)
        let before = try send(daemon, "GET", "/v1/stacks/lettered/layout").text
        XCTAssertEqual(try daemon.stop(), 0)

        daemon = try start()
        XCTAssertTrue(daemon.startupLog.contains("cannot restore stack lettered"), daemon.startupLog)
        let unavailable = try send(daemon, "GET", "/v1/stacks/lettered/layout")
        XCTAssertEqual(unavailable.status, 503, unavailable.text)
        XCTAssertEqual(unavailable.errorCode, "stack_unavailable")
        let message = unavailable["error.message"]?.stringValue ?? ""
        XCTAssertTrue(message.contains("\"Liberation Sans\""), message)
        XCTAssertTrue(message.contains("rows[0].content.font.family"), message)
        XCTAssertEqual(try send(daemon, "GET", "/v1/stacks/plain").status, 200, "the others are served")
        XCTAssertEqual(try send(daemon, "GET", "/healthz").text, #"{"status":"degraded","unavailableStacks":1}"#)
        XCTAssertEqual(try daemon.stop(), 0)

        daemon = try start(["--font-dir", fonts.path])
        XCTAssertEqual(try send(daemon, "GET", "/v1/stacks/lettered/layout").text, before, "back as it was with the folder")
        XCTAssertEqual(try daemon.stop(), 0)
    }
}
