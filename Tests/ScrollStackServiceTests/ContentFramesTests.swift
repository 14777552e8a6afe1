import JSONCodec
import XCTest

/// `?content=frames` on the stored and the stateless layout.
final class ContentFramesTests: XCTestCase {
    var server: ServerHarness!

    override func setUpWithError() throws {
        server = try ServerHarness()
    }

    override func tearDown() {
        server.stop()
    }

    /// A fit row whose content is a column (padding 10, spacing 4) of a 30 tall box and a row of two squares.
    let card = object(
        ("id", "card"), ("view", object(("type", "Card"))), ("size", "fit"),
        ("content", object(
            ("stack", "vertical"), ("spacing", 4), ("padding", object(("top", 10), ("left", 10), ("bottom", 10), ("right", 10))),
            ("children", [object(("height", 30)), object(("stack", "horizontal"), ("children", [object(("aspectRatio", 1)), object(("aspectRatio", 1))]))])
        ))
    )

    func frame(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> JSON {
        object(("x", .number(x)), ("y", .number(y)), ("width", .number(w)), ("height", .number(h)))
    }

    func testStoredLayoutAddsEachFitRowsContentFrames() throws {
        let created = try server.request("POST", "/v1/stacks", json: object(
            ("id", "s"), ("viewport", object(("width", 220), ("height", 600))), ("rows", [row("top", 20), card])))
        XCTAssertEqual(created.status, 201, created.text)
        let reply = try server.request("GET", "/v1/stacks/s/layout?content=frames")
        XCTAssertEqual(reply.status, 200, reply.text)
        XCTAssertNil(reply["rows[0].content"], "a fixed row has no content frames")
        let content = try XCTUnwrap(reply["rows[1].contentFrame"])
        let x = try XCTUnwrap(content["x"]?.doubleValue), y = try XCTUnwrap(content["y"]?.doubleValue)
        // 220 − 32 insets = 188 wide; inner 168; squares 84; length 10 + 30 + 4 + 84 + 10 = 138.
        XCTAssertEqual(reply["rows[1].content.frame"], frame(x, y, 188, 138))
        XCTAssertEqual(reply["rows[1].content.children[0].frame"], frame(x + 10, y + 10, 168, 30))
        XCTAssertEqual(reply["rows[1].content.children[1].children[1].frame"], frame(x + 94, y + 44, 84, 84))
        XCTAssertNil(try server.request("GET", "/v1/stacks/s/layout")["rows[1].content"], "only when asked")
    }

    func testStatelessLayoutAndBadValues() throws {
        let body = object(("viewport", object(("width", 220), ("height", 600))), ("rowInsets", object(("left", 0), ("right", 0), ("top", 0), ("bottom", 0))), ("rows", [card]))
        let reply = try server.request("POST", "/v1/layout?content=frames", json: body)
        XCTAssertEqual(reply.status, 200, reply.text)
        XCTAssertEqual(reply["rows[0].content.children[1].frame"], frame(10, 44, 200, 100))
        let bad = try server.request("POST", "/v1/layout?content=boxes", json: body)
        XCTAssertEqual(bad.status, 400, bad.text)
        XCTAssertEqual(bad.errorField, "content")
    }
}
