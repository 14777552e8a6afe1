import Dispatch
import Foundation
import JSONCodec
import MicroHTTP
import PostgresCluster
import ScrollStackPostgres
@testable import ScrollStackService
import ScrollStackStore
import XCTest

/// Two replicas over one PostgreSQL server (Semantics.md, "Uploaded fonts"): a font uploaded
/// on one is usable on the other at once (it reads the store's fonts before refusing a
/// family), listed by both, survives a replica's restart, and is not deleted on a shared store.
final class ReplicaFontTests: XCTestCase {
    var cluster: PostgresCluster!
    var replicas: [StackService] = []
    var font: [UInt8] = []

    override func setUpWithError() throws {
        let file = "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"
        guard FileManager.default.fileExists(atPath: file) else { throw XCTSkip("fonts-liberation is not installed") }
        font = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
        cluster = try PostgresCluster()
        for _ in 0..<2 { replicas.append(try replica()) }
    }

    override func tearDown() {
        replicas.forEach { $0.stopReplication() }
        replicas = []
        cluster = nil
    }

    func replica() throws -> StackService {
        let service = StackService(journal: StackJournal(backend: try PostgresJournal(url: cluster.url, connections: 4)))
        _ = try service.restore()
        service.startReplication()
        return service
    }

    func send(_ service: StackService, _ method: String, _ path: String, body: [UInt8] = [], type: String = "application/json") -> HTTPResponse {
        service.handle(HTTPRequest(method: method, path: path, headers: [("Content-Type", type)], body: body))
    }

    func json(_ response: HTTPResponse) -> JSON? { try? JSON.parse(response.body) }

    func testAFontUploadedOnOneReplicaIsUsableOnTheOther() throws {
        let uploaded = send(replicas[0], "POST", "/v1/fonts", body: font, type: "font/ttf")
        XCTAssertEqual(uploaded.status, 201, String(decoding: uploaded.body, as: UTF8.self))
        let id = try XCTUnwrap(json(uploaded)?["id"]?.stringValue)

        // Replica 1 has never heard of it: it reads the store's fonts before refusing the family.
        let stack = #"{"id": "s", "rows": [{"id": "t", "view": {"type": "Label"}, "size": "fit", "content": {"text": "Wavy", "font": {"family": "Liberation Sans", "size": 16}}}]}"#
        let created = send(replicas[1], "POST", "/v1/stacks", body: Array(stack.utf8))
        XCTAssertEqual(created.status, 201, String(decoding: created.body, as: UTF8.self))
        XCTAssertEqual(send(replicas[1], "GET", "/v1/fonts/\(id)").status, 200)
        let listed = String(decoding: send(replicas[1], "GET", "/v1/fonts").body, as: UTF8.self)
        XCTAssertTrue(listed.contains(#""id":"\#(id)""#), listed)
        XCTAssertEqual(send(replicas[1], "POST", "/v1/fonts", body: font, type: "font/ttf").status, 200, "the same bytes: the same font")

        // Both lay the stack out alike; a new replica (a restart) too.
        let layout = send(replicas[1], "GET", "/v1/stacks/s/layout").body
        XCTAssertEqual(send(replicas[0], "GET", "/v1/stacks/s/layout").body, layout)
        let restarted = try replica()
        defer { restarted.stopReplication() }
        XCTAssertEqual(send(restarted, "GET", "/v1/stacks/s/layout").body, layout)

        let refused = send(replicas[0], "DELETE", "/v1/fonts/\(id)")
        XCTAssertEqual(refused.status, 409)
        XCTAssertEqual(json(refused)?["error"]?["code"]?.stringValue, "font_deletion_unsupported")
        XCTAssertEqual(send(replicas[0], "DELETE", "/v1/fonts/0123456789abcdef").status, 404)
    }

    /// `scrollstackd migrate` copies the uploaded fonts with the stacks: a stack of a SQLite
    /// data dir whose text uses one lays out the same on the replicas.
    func testMigrateCopiesTheUploadedFonts() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ssmigratefonts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var layout: [UInt8] = []
        do {
            let local = StackService(journal: try StackJournal(path: directory.appendingPathComponent("scrollstack.sqlite").path))
            _ = try local.restore()
            XCTAssertEqual(send(local, "POST", "/v1/fonts", body: font, type: "font/ttf").status, 201)
            let stack = #"{"id": "m", "rows": [{"id": "t", "view": {"type": "Label"}, "size": "fit", "content": {"text": "Wavy", "font": {"family": "Liberation Sans", "size": 16}}}]}"#
            XCTAssertEqual(send(local, "POST", "/v1/stacks", body: Array(stack.utf8)).status, 201)
            layout = send(local, "GET", "/v1/stacks/m/layout").body
        }
        let bundle = URL(fileURLWithPath: CommandLine.arguments.first { $0.hasSuffix(".xctest") } ?? CommandLine.arguments[0])
        let migrate = Process()
        migrate.executableURL = bundle.deletingLastPathComponent().appendingPathComponent("scrollstackd")
        migrate.arguments = ["migrate", "--data-dir", directory.path, "--store", cluster.url, "--log-level", "error"]
        let exited = DispatchSemaphore(value: 0)
        migrate.terminationHandler = { _ in exited.signal() }
        try migrate.run()
        guard exited.wait(timeout: .now() + 60) == .success else {
            migrate.terminate()
            return XCTFail("migrate did not finish within 60 s")
        }
        XCTAssertEqual(migrate.terminationStatus, 0)
        let fresh = try replica()
        defer { fresh.stopReplication() }
        XCTAssertEqual(send(fresh, "GET", "/v1/stacks/m/layout").body, layout)
        XCTAssertEqual(send(fresh, "GET", "/v1/fonts/\(UploadedFont.id(of: font))").status, 200)
    }
}
