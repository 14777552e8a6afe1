import Foundation
import JSONCodec
@testable import ScrollStackCore
import TestHTTPClient
import TestSeeds
import XCTest

/// A real the API accepts comes back as the same double, in `props` (kept verbatim) and in
/// the stack's own settings: answers write 15 significant digits, or up to 17 where 15
/// would read back as another double. CI's schemathesis run found the largest double in
/// `props` answered as `1.79769313486232e308`, which reads back as infinity.
///
/// The seed is `TestSeed`'s (printed; `SCROLLSTACK_SEED=<n>` draws another).
final class RealsRoundTripTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ssreals-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
    }

    func send(_ daemon: Daemon, _ method: String, _ path: String, _ body: JSON? = nil) throws -> Reply {
        Reply(try httpRequest(port: daemon.port, method: method, path: path,
                              headers: body == nil ? [] : [("Content-Type", "application/json")], body: body?.serialized(realPrecision: 17)))
    }

    /// The bit patterns of every real in `value`, in document order.
    static func reals(_ value: JSON?) -> [UInt64] {
        switch value {
        case .real(let real)?: return [real.bitPattern]
        case .array(let elements)?: return elements.flatMap { reals($0) }
        case .object(let object)?: return object.flatMap { reals($0.value) }
        default: return []
        }
    }

    func testEveryRealSentComesBackAsTheSameDouble() throws {
        let seed = TestSeed.seed("RealsRoundTripTests")
        var random = SplitMix64(seed: seed)
        var values: [Double] = [.greatestFiniteMagnitude, -.greatestFiniteMagnitude, 1.7976931348623155e308, 0.1 + 0.2, 1.0 / 3, 0.9999999999999999,
                                .leastNonzeroMagnitude, .leastNormalMagnitude, 123456789012345.67, 0.1, 44.5, -0.0]
        while values.count < 60 {
            let real = Double(bitPattern: random.next())
            if real.isFinite { values.append(real) }
        }
        let props = JSON.array(values.map { .real($0) } + [object(("nested", .array(values.prefix(6).map { .real($0) })))])
        let sent = Self.reals(props)
        func viewRow(_ id: String) -> JSON { object(("id", .string(id)), ("view", object(("type", "V"), ("props", props))), ("size", object(("fixed", 10)))) }

        var daemon = try Daemon.start(["--data-dir", directory.path, "--log-level", "notice"])
        let spacing = 0.1 + 0.2, offset = -768426371987668.9
        let created = try send(daemon, "POST", "/v1/stacks", object(("id", "r"), ("spacing", .real(spacing)), ("offset", object(("y", .real(offset)))),
                                                                    ("rows", [viewRow("a")])))
        XCTAssertEqual(created.status, 201, created.text)
        XCTAssertFalse(created.text.contains("1.79769313486232e308"), "the largest double is not rounded up past itself")
        XCTAssertEqual(Self.reals(created["rows[0].view.props"]), sent, "the create answer")
        XCTAssertEqual(Self.reals(created["spacing"]), [spacing.bitPattern])
        XCTAssertEqual(Self.reals(created["offset.y"]), [offset.bitPattern])
        let inserted = try send(daemon, "POST", "/v1/stacks/r/rows", object(("rows", [viewRow("b")])))
        XCTAssertEqual(inserted.status, 200, inserted.text)
        XCTAssertEqual(Self.reals(inserted["changed[0].view.props"]), sent, "the mutation answer: \(inserted.text.prefix(300))")

        var answers: [String: [UInt8]] = [:]
        for restarted in [false, true] {
            for (path, member) in [("/v1/stacks/r", "rows[1].view.props"), ("/v1/stacks/r/rows/b", "view.props"), ("/v1/stacks/r/rows", "rows[0].view.props"),
                                   ("/v1/stacks/r?revision=1", "rows[0].view.props")] {
                let answer = try send(daemon, "GET", path)
                XCTAssertEqual(answer.status, 200, "\(path): \(answer.text)")
                XCTAssertEqual(Self.reals(answer[member]), sent, "\(path) \(member), restarted: \(restarted)")
                if restarted { XCTAssertEqual(answer.body, answers[path], "\(path): the same bytes after a restart") } else { answers[path] = answer.body }
            }
            let stack = try send(daemon, "GET", "/v1/stacks/r")
            XCTAssertEqual(Self.reals(stack["spacing"]), [spacing.bitPattern])
            XCTAssertEqual(Self.reals(stack["offset.y"]), [offset.bitPattern])
            XCTAssertEqual(try daemon.stop(), 0)
            if !restarted { daemon = try Daemon.start(["--data-dir", directory.path, "--log-level", "notice"]) }
        }
    }
}
