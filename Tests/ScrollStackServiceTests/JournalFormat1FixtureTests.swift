import Foundation
import Jansson
import MicroHTTP
@testable import ScrollStackService
@testable import ScrollStackStore
import XCTest

/// A data dir written by the journal of format 1 (JSON snapshots; `Tests/Fixtures/
/// journal-format-1`, made by its `make.py`) opens with the current code and answers exactly
/// as main does (`expected.json`, recorded from main's binary): stacks, layouts, past
/// revisions, events, transition plans, piles.
final class JournalFormat1FixtureTests: XCTestCase {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/journal-format-1")

    func testAFormat1DataDirOpensAndAnswersAsBefore() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ssfixture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("scrollstack.sqlite").path
        try FileManager.default.copyItem(atPath: Self.fixture.appendingPathComponent("scrollstack.sqlite").path, toPath: path)
        let expected = try JSON.parse(Array(try Data(contentsOf: Self.fixture.appendingPathComponent("expected.json"))))
        guard case .object(let answers) = expected else { return XCTFail("expected.json is not an object") }
        XCTAssertEqual(answers.count, 20, "every answer make.py records")

        let service = StackService(journal: try StackJournal(path: path))
        XCTAssertEqual(try service.restore(), 4, "three stacks and a pile")
        XCTAssertEqual(service.unavailableStacks, [])
        for (target, answer) in answers {
            let parts = target.split(separator: "?", maxSplits: 1)
            let query = parts.count > 1 ? parts[1].split(separator: "=", maxSplits: 1).map(String.init) : []
            let response = service.handle(HTTPRequest(method: "GET", path: String(parts[0]), query: query.isEmpty ? [] : [(query[0], query[1])]))
            XCTAssertEqual(response.status, 200, target)
            XCTAssertEqual(String(decoding: response.body, as: UTF8.self), answer.stringValue, target)
        }
        // It goes on from the last revision, and the new revisions (with their snapshots)
        // read back after another restart.
        let insert = service.handle(HTTPRequest(method: "POST", path: "/v1/stacks/long/rows", headers: [("Content-Type", "application/json")],
                                                body: Array(#"{"rows":[{"id":"after","view":{"type":"V"},"size":{"fixed":3}}]}"#.utf8)))
        XCTAssertEqual(insert.header("etag"), "\"118\"")
        let restarted = StackService(journal: try StackJournal(path: path))
        XCTAssertEqual(try restarted.restore(), 4)
        for target in ["/v1/stacks/long", "/v1/stacks/mixed", "/v1/stacks/pages"] {
            XCTAssertEqual(restarted.handle(HTTPRequest(method: "GET", path: target)).body, service.handle(HTTPRequest(method: "GET", path: target)).body, target)
        }
    }
}
