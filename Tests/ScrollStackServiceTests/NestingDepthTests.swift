import Foundation
import JSONCodec
@testable import ScrollStackService
@testable import ScrollStackStore
import TestHTTPClient
import XCTest

/// What the API accepts, every store path reads back, so no request can
/// make the server unable to start; and a stack that cannot be read back does not keep the
/// others offline.
final class NestingDepthTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ssdepth-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// `depth` arrays, one inside the other, around `innermost` (nothing: `[[…[]…]]`).
    static func nested(_ depth: Int, around innermost: JSON? = nil) -> JSON {
        var value = JSON.array(innermost.map { [$0] } ?? [])
        for _ in 1..<depth { value = .array([value]) }
        return value
    }

    /// A content tree of `nodes` nested groups (2 JSON levels per group) around a box.
    static func contentTree(nodes: Int) -> JSON {
        var value = object(("height", 10))
        for _ in 1..<nodes { value = object(("stack", "vertical"), ("padding", object(("top", 1))), ("children", [value])) }
        return value
    }

    static func viewRow(_ id: String, props: JSON, content: JSON? = nil) -> JSON {
        var members: [(String, JSON)] = [("id", .string(id)), ("view", object(("type", "V"), ("props", props)))]
        if let content { members.append(("content", content)) } else { members.append(("size", object(("fixed", 10)))) }
        return .object(JSONObject(members))
    }

    func send(_ daemon: Daemon, _ method: String, _ path: String, _ body: JSON? = nil) throws -> Reply {
        Reply(try httpRequest(port: daemon.port, method: method, path: path,
                              headers: body == nil ? [] : [("Content-Type", "application/json")], body: body?.serialized()))
    }

    func startDaemon(_ arguments: [String] = []) throws -> Daemon {
        try Daemon.start(["--data-dir", directory.path, "--log-level", "notice"] + arguments)
    }

    /// Props 2,046 deep would be nested by the snapshot a revert forces 2 levels deeper than
    /// jansson reads, so the server could never start again: they are refused with the field
    /// named, and the deepest accepted props and content survive a snapshot and a restart
    /// byte for byte.
    func testTooDeepPropsAreRefusedAndTheDeepestAcceptedSurviveARestart() throws {
        let limit = ServiceLimits.defaultMaxJSONDepth
        var daemon = try startDaemon()
        XCTAssertEqual(try send(daemon, "POST", "/v1/stacks", object(("id", "deep"), ("rows", [row("a"), row("b")]))).status, 201)

        let brick = try send(daemon, "PUT", "/v1/stacks/deep/rows/a", Self.viewRow("a", props: Self.nested(2046)))
        XCTAssertEqual(brick.status, 422, brick.text)
        XCTAssertEqual(brick.errorCode, "nesting_too_deep")
        XCTAssertEqual(brick.errorField, "view.props")
        let justOver = try send(daemon, "POST", "/v1/stacks/deep/rows", object(("rows", [row("x"), Self.viewRow("y", props: Self.nested(limit + 1))])))
        XCTAssertEqual(justOver.status, 422, justOver.text)
        XCTAssertEqual(justOver.errorField, "rows[1].view.props")
        XCTAssertEqual(try send(daemon, "GET", "/v1/stacks/deep").header("etag"), "\"1\"", "nothing changed")

        // The deepest accepted values, through every path that stores them.
        let deepest = Self.nested(limit, around: .string("bottom"))
        XCTAssertEqual(deepest.nestingDepth, limit)
        XCTAssertEqual(try send(daemon, "PUT", "/v1/stacks/deep/rows/a", Self.viewRow("a", props: deepest)).status, 200)
        let inserted = try send(daemon, "POST", "/v1/stacks/deep/rows", object(("rows", [Self.viewRow("c", props: deepest, content: Self.contentTree(nodes: 64))])))
        XCTAssertEqual(inserted.status, 200, inserted.text)
        XCTAssertEqual(try send(daemon, "PATCH", "/v1/stacks/deep/rows/b", object(("view", object(("type", "W"), ("props", deepest))))).status, 200)
        let revert = try send(daemon, "POST", "/v1/stacks/deep/revert", object(("to", 4)))
        XCTAssertEqual(revert.status, 200, revert.text)
        XCTAssertEqual(try send(daemon, "POST", "/v1/stacks", object(("id", "created"), ("rows", [Self.viewRow("d", props: deepest)]))).status, 201)

        let paths = ["/v1/stacks/deep", "/v1/stacks/created", "/v1/stacks/deep/events?limit=1000", "/v1/stacks/deep?revision=3", "/v1/stacks"]
        var before: [String: String] = [:]
        for path in paths { before[path] = try send(daemon, "GET", path).text }
        XCTAssertTrue(before["/v1/stacks/deep"]!.contains(deepest.serializedString))
        XCTAssertEqual(try daemon.stop(), 0)

        daemon = try startDaemon()
        XCTAssertTrue(daemon.startupLog.contains("restored 2 stacks"), daemon.startupLog)
        for path in paths { XCTAssertEqual(try send(daemon, "GET", path).text, before[path], path) }
        XCTAssertEqual(try send(daemon, "GET", "/healthz").text, #"{"status":"ok"}"#)
        XCTAssertEqual(try daemon.stop(), 0)
    }

    /// At the highest `--max-json-depth`, the deepest props still read back from every store
    /// path, and lowering the limit later does not lose what was stored under the higher one.
    func testTheCeilingRoundTripsAndALowerLimitStillRestoresIt() throws {
        let ceiling = ServiceLimits.maxJSONDepthCeiling
        var daemon = try startDaemon(["--max-json-depth", "\(ceiling)"])
        let deepest = Self.nested(ceiling, around: .object(JSONObject([("k", .real(0.1))])))
        XCTAssertEqual(deepest.nestingDepth, ceiling + 1, "the innermost object counts too")
        let atCeiling = Self.nested(ceiling)
        XCTAssertEqual(try send(daemon, "POST", "/v1/stacks", object(("id", "c"), ("rows", [Self.viewRow("a", props: atCeiling)]))).status, 201)
        let over = try send(daemon, "POST", "/v1/stacks/c/rows", object(("rows", [Self.viewRow("b", props: deepest)])))
        XCTAssertEqual(over.status, 422, over.text)
        XCTAssertEqual(over.errorField, "rows[0].view.props")
        XCTAssertEqual(try send(daemon, "POST", "/v1/stacks/c/rows", object(("rows", [Self.viewRow("b", props: atCeiling)]))).status, 200)
        XCTAssertEqual(try send(daemon, "POST", "/v1/stacks/c/revert", object(("to", 2))).status, 200)
        let before = try send(daemon, "GET", "/v1/stacks/c").text
        XCTAssertEqual(try daemon.stop(), 0)

        daemon = try startDaemon()  // the default limit, far below what is stored
        XCTAssertEqual(try send(daemon, "GET", "/v1/stacks/c").text, before)
        let refused = try send(daemon, "POST", "/v1/stacks/c/rows", object(("rows", [Self.viewRow("n", props: atCeiling)])))
        XCTAssertEqual(refused.status, 422, "the lower limit applies to new requests")
        XCTAssertEqual(try daemon.stop(), 0)
        XCTAssertNotEqual(try runDaemon(["--max-json-depth", "\(ceiling + 1)"]), 0, "beyond the ceiling is refused")
        XCTAssertNotEqual(try runDaemon(["--max-json-depth", "0"]), 0)
    }

    /// A stack whose journal cannot be read (here the very snapshot the old server wrote for
    /// the reproduction) no longer keeps the server from starting: the log names it, it
    /// answers 503 naming it, the other stacks are served, and deleting it frees its id.
    func testAnUnreadableStackDoesNotStopTheOthers() throws {
        var daemon = try startDaemon()
        XCTAssertEqual(try send(daemon, "POST", "/v1/stacks", object(("id", "fine"), ("rows", [row("a")]))).status, 201)
        let fine = try send(daemon, "GET", "/v1/stacks/fine").text
        XCTAssertEqual(try daemon.stop(), 0)

        let bricked = object(("id", "bricked"), ("rows", [Self.viewRow("a", props: Self.nested(2046))]))
        XCTAssertThrowsError(try JSON.parse(bricked.serialized()), "jansson cannot read it back")
        let journal = try StackJournal(path: directory.appendingPathComponent("scrollstack.sqlite").path)
        try journal.recordCreation(id: "bricked", model: bricked.serialized())
        // Deeper than any limit now, but readable: written by a server that had no limit.
        let legacy = object(("id", "legacy"), ("rows", [Self.viewRow("a", props: Self.nested(2000))]))
        try journal.recordCreation(id: "legacy", model: legacy.serialized())

        daemon = try startDaemon()
        XCTAssertTrue(daemon.startupLog.contains("cannot restore stack bricked"), daemon.startupLog)
        XCTAssertTrue(daemon.startupLog.contains("restored 2 stacks"), daemon.startupLog)
        XCTAssertEqual(try send(daemon, "GET", "/v1/stacks/fine").text, fine)
        let restored = try send(daemon, "GET", "/v1/stacks/legacy")
        XCTAssertEqual(restored.status, 200)
        XCTAssertTrue(restored.text.contains(Self.nested(2000).serializedString), "restored as it was")
        let health = try send(daemon, "GET", "/healthz")
        XCTAssertEqual(health.status, 200)
        XCTAssertEqual(health.text, #"{"status":"degraded","unavailableStacks":1}"#, "a count only: ids are not for anonymous callers")
        let unavailable = try send(daemon, "GET", "/v1/stacks/bricked/layout")
        XCTAssertEqual(unavailable.status, 503)
        XCTAssertEqual(unavailable.errorCode, "stack_unavailable")
        XCTAssertTrue(unavailable.text.contains("maximum parsing depth"), unavailable.text)
        XCTAssertEqual(try send(daemon, "POST", "/v1/stacks", object(("id", "bricked"))).status, 409)
        XCTAssertEqual(try send(daemon, "DELETE", "/v1/stacks/bricked").status, 204)
        XCTAssertEqual(try send(daemon, "GET", "/v1/stacks/bricked").status, 404)
        XCTAssertEqual(try send(daemon, "GET", "/healthz").text, #"{"status":"ok"}"#)
        XCTAssertEqual(try send(daemon, "POST", "/v1/stacks", object(("id", "bricked"))).status, 201)
        XCTAssertEqual(try daemon.stop(), 0)
    }

    /// Runs the daemon with `arguments` to its exit (bad options exit at once).
    func runDaemon(_ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = Daemon.binary
        process.arguments = ["--in-memory"] + arguments
        process.standardError = Pipe()
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        guard exited.wait(timeout: .now() + 20) == .success else {
            process.terminate()
            throw DaemonError(message: "scrollstackd \(arguments) did not exit")
        }
        return process.terminationStatus
    }
}
