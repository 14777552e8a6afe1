import Foundation
import Jansson
import MicroHTTP
@testable import ScrollStackService
import SQLite
@testable import ScrollStackStore
import XCTest

/// A data dir written by the journal of format 1 (JSON snapshots, requests journaled;
/// `Tests/Fixtures/journal-format-1`, made by its `make.py`) is migrated to operation records
/// on first start and answers exactly as main did before (`expected.json`, recorded from
/// main's binary): stacks, layouts, every past revision, every revision's events and plan,
/// piles.
final class JournalFormat1FixtureTests: XCTestCase {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/journal-format-1")

    /// The first place where `actual` lacks a member of `expected` or holds another value
    /// there, or nil: members only `actual` has are new, and not compared.
    static func missingOrChanged(expected: JSON, actual: JSON, at path: String) -> String? {
        switch (expected, actual) {
        case (.object(let want), .object(let got)):
            for key in want.keys {
                guard let value = got[key] else { return "\(path).\(key) is missing" }
                if let difference = missingOrChanged(expected: want[key]!, actual: value, at: path + "." + key) { return difference }
            }
            return nil
        case (.array(let want), .array(let got)):
            guard want.count == got.count else { return "\(path) has \(got.count) elements, not \(want.count)" }
            for (i, (a, b)) in zip(want, got).enumerated() {
                if let difference = missingOrChanged(expected: a, actual: b, at: "\(path)[\(i)]") { return difference }
            }
            return nil
        default:
            return expected == actual ? nil : "\(path): \(actual), not \(expected)"
        }
    }

    func testAFormat1DataDirOpensAndAnswersAsBefore() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ssfixture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("scrollstack.sqlite").path
        try FileManager.default.copyItem(atPath: Self.fixture.appendingPathComponent("scrollstack.sqlite").path, toPath: path)
        let expected = try JSON.parse(Array(try Data(contentsOf: Self.fixture.appendingPathComponent("expected.json"))))
        guard case .object(let answers) = expected else { return XCTFail("expected.json is not an object") }
        XCTAssertEqual(answers.count, 401, "every answer make.py records")
        let legacy = try SQLiteDatabase(path: path).query("SELECT stack, revision, events FROM mutations ORDER BY stack, revision")
        XCTAssertEqual(legacy.count, 128, "the fixture's journaled requests")

        let service = StackService(journal: try StackJournal(path: path))
        XCTAssertEqual(try service.restore(), 4, "three stacks and a pile")
        XCTAssertEqual(service.unavailableStacks, [])
        let migrated = try SQLiteDatabase(path: path)
        XCTAssertEqual(try migrated.query("SELECT name FROM sqlite_master WHERE name = 'mutations'"), [], "every request migrated")
        XCTAssertEqual(try migrated.query("SELECT stack, revision, events FROM records ORDER BY stack, revision"), legacy,
                       "every revision, with its events byte for byte")
        XCTAssertEqual(try migrated.query("SELECT DISTINCT substr(operation, 1, 1) FROM records ORDER BY 1"), [[.blob([2])], [.blob([3])]],
                       "stack and pile operations only")
        for (target, answer) in answers {
            let parts = target.split(separator: "?", maxSplits: 1)
            let query = parts.count > 1 ? parts[1].split(separator: "&").map { $0.split(separator: "=", maxSplits: 1).map(String.init) } : []
            let response = service.handle(HTTPRequest(method: "GET", path: String(parts[0]), query: query.map { ($0[0], $0[1]) }))
            XCTAssertEqual(response.status, 200, target)
            // Answers have gained members since the fixture was recorded (a history page's
            // `next`, the page indicator's `dots`, a menu item's colours): every member the
            // fixture holds must be there with its value; members added since are not compared.
            let actual = try JSON.parse(response.body)
            let difference = Self.missingOrChanged(expected: try JSON.parse(Array((answer.stringValue ?? "").utf8)), actual: actual, at: target)
            XCTAssertNil(difference, target)
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
