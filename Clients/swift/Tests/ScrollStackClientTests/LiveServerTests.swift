import Foundation
import OpenAPIRuntime
import ScrollStackClient
import XCTest

/// The generated client against a live scrollstackd with a write token, started by
/// Scripts/checks/75-swift-client.sh (which sets SCROLLSTACK_URL and SCROLLSTACK_WRITE_TOKEN).
final class LiveServerTests: XCTestCase {
    private func client() throws -> Client {
        let environment = ProcessInfo.processInfo.environment
        guard let address = environment["SCROLLSTACK_URL"], let url = URL(string: address) else {
            throw XCTSkip("SCROLLSTACK_URL is not set: Scripts/checks/75-swift-client.sh starts a server and sets it")
        }
        return Client.scrollStack(baseURL: url, token: environment["SCROLLSTACK_WRITE_TOKEN"])
    }

    /// A view row of a fixed length.
    private func row(_ id: String, _ length: Double) -> Components.Schemas.RowInput {
        Components.Schemas.RowInput(
            value1: .init(id: id, view: .init(_type: "Cell"), size: .LengthRule(.FixedLength(.init(fixed: length)))),
            value2: .case2(.init()),
            value3: .init(value2: .init(size: .FixedLength(.init(fixed: length))))
        )
    }

    func testCreateInsertAndReadTheLayout() async throws {
        let client = try client()
        let noInsets = Components.Schemas.Insets(top: 0, left: 0, bottom: 0, right: 0)
        let created = try await client.createStack(body: .json(.init(
            id: "swift-home", viewport: .init(width: 375, height: 667), rowInsets: noInsets, rows: [row("welcome", 120)]
        )))
        let etag = try created.created.headers.eTag
        XCTAssertEqual(etag, "\"1\"")

        let inserted = try await client.insertRows(
            path: .init(stack: "swift-home"),
            headers: .init(ifMatch: etag),
            body: .json(.init(rows: [row("banner", 44)], at: .case1(.init(stringLiteral: "top"))))
        )
        guard case .MutationResult(let result) = try inserted.ok.body.json else {
            return XCTFail("a full answer unless Prefer: return=minimal")
        }
        XCTAssertEqual(result.revision, 2)

        let layout = try await client.getLayout(path: .init(stack: "swift-home"))
        guard case .case1(let answer) = try layout.ok.body.json else { return XCTFail("one layout expected, not one per device") }
        XCTAssertEqual(answer.value1.rows.map { $0.value1.id }, ["banner", "welcome"])
        XCTAssertEqual(answer.value1.rows.map { $0.value2.value1.frame.y }, [0, 44])
        XCTAssertEqual(answer.value1.contentSize.height, 164)
    }

    func testAStaleIfMatchIsPreconditionFailed() async throws {
        let client = try client()
        _ = try await client.createStack(body: .json(.init(id: "swift-stale", viewport: .init(width: 320, height: 480), rows: [])))
        let answer = try await client.insertRows(
            path: .init(stack: "swift-stale"), headers: .init(ifMatch: "\"9\""), body: .json(.init(rows: [row("a", 10)]))
        )
        let refused = try answer.preconditionFailed.body.json
        XCTAssertEqual(refused.value1.error.status, 412)
        XCTAssertEqual(refused.value1.error.message.isEmpty, false)
        XCTAssertEqual(refused.value1.error.code, try OpenAPIValueContainer(unvalidatedValue: "precondition_failed"))
    }

    func testTheLayoutAsSVG() async throws {
        let client = try client()
        _ = try await client.createStack(body: .json(.init(id: "swift-picture", viewport: .init(width: 200, height: 300), rows: [row("only", 100)])))
        let answer = try await client.getLayoutSVG(path: .init(stack: "swift-picture"))
        let body = try answer.ok.body.imageSvgXml
        let svg = try await String(collecting: body, upTo: 1 << 20)
        XCTAssertTrue(svg.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""), svg)
        XCTAssertTrue(svg.contains("data-id=\"only\""), svg)
    }
}
