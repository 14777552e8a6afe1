import Foundation
import JSONCodec
import ScrollStackService
import ScrollStackStore
import XCTest

/// A row's `style` over HTTP: kept with the row, echoed normalized, strictly checked, and
/// never read by layout.
final class RowStyleTests: XCTestCase {
    var server: ServerHarness!

    override func setUpWithError() throws {
        server = try ServerHarness()
    }

    override func tearDown() {
        server.stop()
    }

    static let style: JSON = object(("background", "#0a84ff"), ("cornerRadius", 12), ("border", object(("width", 2), ("color", "#00000080"))),
                                    ("textColor", "#ffffff"), ("image", object(("aspectRatio", 1.5), ("fill", "#FF9500"))))

    /// A text row and a fixed row, the first with insets so its content frames are inside.
    func rows(styled: Bool) -> JSON {
        var text: [(String, JSON)] = [("id", "t"), ("view", object(("type", "Label"))),
                                      ("content", object(("text", "Styles change pictures, never where the lines break or rows sit"),
                                                         ("font", object(("family", "Inter"), ("size", 17))))),
                                      ("insets", object(("top", 8), ("left", 16), ("bottom", 8), ("right", 16)))]
        var fixed: [(String, JSON)] = [("id", "f"), ("view", object(("type", "Card"))), ("size", object(("fixed", 120)))]
        if styled {
            text.append(("style", Self.style))
            fixed.append(("style", object(("cornerRadius", 40), ("border", object(("width", 30), ("color", "#123456"))))))
        }
        return [.object(JSONObject(text)), .object(JSONObject(fixed)), row("p", 500)]
    }

    func testStylesAreEchoedNormalizedAndNeverChangeTheLayout() throws {
        for (id, styled) in [("plain", false), ("styled", true)] {
            let created = try server.request("POST", "/v1/stacks", json: object(("id", .string(id)), ("viewport", object(("width", 320), ("height", 480))),
                                                                                 ("rows", rows(styled: styled))))
            XCTAssertEqual(created.status, 201, created.text)
        }
        let row = try server.request("GET", "/v1/stacks/styled/rows/t")
        XCTAssertEqual(row["style"], object(("background", "#0A84FFFF"), ("cornerRadius", 12),
                                                                 ("border", object(("width", 2), ("color", "#00000080"))),
                                                                 ("textColor", "#FFFFFFFF"), ("image", object(("aspectRatio", 1.5), ("fill", "#FF9500FF")))),
                       row.text)
        XCTAssertNil(try server.request("GET", "/v1/stacks/plain/rows/t")["style"])
        for query in ["", "?content=frames", "?content=frames&width=200", "?scrollTo=p&position=final"] {
            let plain = try server.request("GET", "/v1/stacks/plain/layout" + query)
            let styled = try server.request("GET", "/v1/stacks/styled/layout" + query)
            XCTAssertEqual(plain.status, 200, plain.text)
            XCTAssertEqual(styled.text, plain.text, "the layout \(query) is the same with styles")
        }
        // A change of style alone: a new revision, the same rows.
        let patched = try server.request("PATCH", "/v1/stacks/styled/rows/p", json: object(("style", object(("background", "#FF0000")))))
        XCTAssertEqual(patched.status, 200, patched.text)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/styled/rows/p")["style.background"], "#FF0000FF")
        let removed = try server.request("PATCH", "/v1/stacks/styled/rows/t", json: object(("style", .null)))
        XCTAssertEqual(removed.status, 200, removed.text)
        XCTAssertNil(try server.request("GET", "/v1/stacks/styled/rows/t")["style"])
        XCTAssertEqual(try server.request("GET", "/v1/stacks/styled/layout?content=frames")["rows"],
                       try server.request("GET", "/v1/stacks/plain/layout?content=frames")["rows"])
        // The stateless layout too.
        let body = { (styled: Bool) in object(("viewport", object(("width", 320), ("height", 480))), ("rows", self.rows(styled: styled))) }
        let plain = try server.request("POST", "/v1/layout?content=frames", json: body(false))
        XCTAssertEqual(plain.status, 200, plain.text)
        XCTAssertEqual(try server.request("POST", "/v1/layout?content=frames", json: body(true)).text, plain.text)
    }

    func testBadStylesAreRefusedNamingTheField() throws {
        let cases: [(JSON, String)] = [
            (object(("background", "#12345")), "rows[0].style.background"),
            (object(("background", "red")), "rows[0].style.background"),
            (object(("textColor", 12)), "rows[0].style.textColor"),
            (object(("cornerRadius", -1)), "rows[0].style.cornerRadius"),
            (object(("cornerRadius", 10001)), "rows[0].style.cornerRadius"),
            (object(("border", object(("width", 1)))), "rows[0].style.border.color"),
            (object(("border", object(("width", 1001), ("color", "#000000")))), "rows[0].style.border.width"),
            (object(("image", object(("aspectRatio", 0), ("fill", "#000000")))), "rows[0].style.image.aspectRatio"),
            (object(("image", object(("aspectRatio", 1), ("fill", "#GGGGGG")))), "rows[0].style.image.fill"),
            (object(("shadow", 3)), "rows[0].style.shadow"),
            ("blue", "rows[0].style"),
        ]
        for (style, field) in cases {
            let reply = try server.request("POST", "/v1/stacks", json: object(("id", "s"), ("rows", [object(("id", "a"), ("view", object(("type", "V"))),
                                                                                                         ("size", object(("fixed", 44))), ("style", style))])))
            XCTAssertEqual(reply.status, 422, "\(style): \(reply.text)")
            XCTAssertEqual(reply.errorField, field, "\(style): \(reply.text)")
        }
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s").status, 404, "nothing was made")
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: object(("id", "s"), ("rows", [row("a")]))).status, 201)
        let bad = try server.request("PATCH", "/v1/stacks/s/rows/a", json: object(("style", object(("border", object(("width", 1), ("color", "#0000")))))))
        XCTAssertEqual(bad.status, 422, bad.text)
        XCTAssertEqual(bad.errorField, "style.border.color")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s")["revision"], 1, "nothing changed")
    }

    /// Styles are kept in the journal (a create, a row's change) and in snapshots: after a
    /// restart the rows answer them and the picture is the same, byte for byte.
    func testStylesSurviveARestart() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ssstyle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("journal.sqlite").path
        var before: [Reply] = []
        let targets = ["/v1/stacks/s/rows/t", "/v1/stacks/s/rows/f", "/v1/stacks/s/rows/p", "/v1/stacks/s/layout.png", "/v1/stacks/s/layout.png?revision=2"]
        do {
            // A snapshot every 2 revisions: the restart reads rows from a snapshot and replays the rest.
            let first = try ServerHarness(service: StackService(journal: try StackJournal(path: path, snapshotInterval: 2)))
            XCTAssertEqual(try first.request("POST", "/v1/stacks", json: object(("id", "s"), ("rows", rows(styled: true)))).status, 201)
            XCTAssertEqual(try first.request("PATCH", "/v1/stacks/s/rows/p", json: object(("style", object(("background", "#FF3B30"))))).status, 200)
            XCTAssertEqual(try first.request("PATCH", "/v1/stacks/s/rows/f", json: object(("style", object(("textColor", "#00000080"))))).status, 200)
            before = try targets.map { try first.request("GET", $0) }
            first.stop()
        }
        let service = StackService(journal: try StackJournal(path: path, snapshotInterval: 2))
        XCTAssertEqual(try service.restore(), 1)
        let restarted = try ServerHarness(service: service)
        defer { restarted.stop() }
        for (target, old) in zip(targets, before) {
            let new = try restarted.request("GET", target)
            XCTAssertEqual(new.status, 200, target)
            XCTAssertTrue(new.body == old.body, target)
        }
        XCTAssertEqual(try restarted.request("GET", "/v1/stacks/s/rows/p")["style.background"], "#FF3B30FF")
        XCTAssertEqual(try restarted.request("GET", "/v1/stacks/s/rows/t")["style.image.aspectRatio"], 1.5)
    }
}
