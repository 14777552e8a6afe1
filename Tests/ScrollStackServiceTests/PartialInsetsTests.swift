import JSONCodec
import MicroHTTP
@testable import ScrollStackService
import XCTest

/// One rule for every insets member, over HTTP: a partial object changes only the sides it
/// names of the insets it replaces (the current value in a PATCH, the default that applies
/// otherwise).
final class PartialInsetsTests: XCTestCase {
    var harness: ServerHarness!

    override func setUpWithError() throws { harness = try ServerHarness() }
    override func tearDown() { harness.stop() }

    func insets(_ top: Double, _ left: Double, _ bottom: Double, _ right: Double) -> JSON {
        object(("top", .number(top)), ("left", .number(left)), ("bottom", .number(bottom)), ("right", .number(right)))
    }

    func send(_ method: String, _ path: String, _ body: JSON) throws {
        let reply = try harness.request(method, path, json: body)
        XCTAssertTrue((200...201).contains(reply.status), "\(method) \(path): \(reply.text)")
    }

    func get(_ path: String) throws -> Reply { try harness.request("GET", path) }

    func testStackSettingsKeepTheSidesTheyDoNotName() throws {
        // rowInsets over the default (12, 16, 12, 16); contentInsets over zero.
        try send("POST", "/v1/stacks", object(("id", "s"), ("rowInsets", object(("left", 0))), ("contentInsets", object(("top", 5)))))
        var stack = try get("/v1/stacks/s")
        XCTAssertEqual(stack["rowInsets"], insets(12, 0, 12, 16))
        XCTAssertEqual(stack["contentInsets"], insets(5, 0, 0, 0))
        // A PATCH over the current values, the separator's insets too.
        try send("PATCH", "/v1/stacks/s", object(("rowInsets", object(("top", 2))), ("contentInsets", object(("bottom", 7))),
                                                  ("separator", object(("insets", object(("right", 5)))))))
        stack = try get("/v1/stacks/s")
        XCTAssertEqual(stack["rowInsets"], insets(2, 0, 12, 16))
        XCTAssertEqual(stack["contentInsets"], insets(5, 0, 7, 0))
        XCTAssertEqual(stack["separator.insets"], insets(0, 16, 0, 5), "the separator's left 16 is kept")
    }

    func testARowsInsetsAreOverWhatTheyReplace() throws {
        let rowInsets = object(("left", 4))  // the stack's: (12, 4, 12, 16)
        let partial = object(("id", "a"), ("view", object(("type", "V"))), ("size", object(("fixed", 44))),
                             ("insets", object(("top", 8))), ("separator", object(("insets", object(("right", 3))))))
        try send("POST", "/v1/stacks", object(("id", "s"), ("rowInsets", rowInsets), ("rows", [partial, row("b"), row("c")])))
        // Created: over the stack's rowInsets and separator insets.
        var a = try get("/v1/stacks/s/rows/a")
        XCTAssertEqual(a["insets"], insets(8, 4, 12, 16))
        XCTAssertEqual(a["separator.insets"], insets(0, 16, 0, 3))
        XCTAssertEqual(a["frame.height"], 64, "44 + 8 + 12")
        // PATCH: over the row's own insets now.
        try send("PATCH", "/v1/stacks/s/rows/a", object(("insets", object(("bottom", 2))), ("separator", object(("insets", object(("left", 1)))))))
        a = try get("/v1/stacks/s/rows/a")
        XCTAssertEqual(a["insets"], insets(8, 4, 2, 16))
        XCTAssertEqual(a["separator.insets"], insets(0, 1, 0, 3))
        // PATCH of a row without its own: over the stack's rowInsets it follows.
        try send("PATCH", "/v1/stacks/s/rows/b", object(("insets", object(("top", 0)))))
        XCTAssertEqual(try get("/v1/stacks/s/rows/b")["insets"], insets(0, 4, 12, 16))
        // Inserted and replaced (PUT) rows: over the stack's rowInsets.
        let inserted = object(("id", "d"), ("view", object(("type", "V"))), ("size", object(("fixed", 44))), ("insets", object(("right", 1))))
        try send("POST", "/v1/stacks/s/rows", object(("rows", [inserted])))
        XCTAssertEqual(try get("/v1/stacks/s/rows/d")["insets"], insets(12, 4, 12, 1))
        try send("PUT", "/v1/stacks/s/rows/a", object(("view", object(("type", "V"))), ("size", object(("fixed", 44))), ("insets", object(("left", 9)))))
        XCTAssertEqual(try get("/v1/stacks/s/rows/a")["insets"], insets(12, 9, 12, 16), "a PUT row replaces the whole row")
        // A batch: over the stack's rowInsets, the default the rows' own insets replace.
        try send("POST", "/v1/stacks/s/rows/batch", object(("op", "insets"), ("rows", ["b", "c"]), ("insets", object(("bottom", 0)))))
        XCTAssertEqual(try get("/v1/stacks/s/rows/b")["insets"], insets(12, 4, 0, 16))
        XCTAssertEqual(try get("/v1/stacks/s/rows/c")["insets"], insets(12, 4, 0, 16))
        // A whole object is the whole value; an empty one is the default it replaces.
        try send("PATCH", "/v1/stacks/s/rows/c", object(("insets", insets(1, 2, 3, 4))))
        XCTAssertEqual(try get("/v1/stacks/s/rows/c")["insets"], insets(1, 2, 3, 4))
        try send("PATCH", "/v1/stacks/s/rows/c", object(("insets", object())))
        XCTAssertEqual(try get("/v1/stacks/s/rows/c")["insets"], insets(1, 2, 3, 4))
    }

    func testCarouselInsetsFollowTheSameRule() throws {
        let body = object(("id", "c"), ("axis", "horizontal"), ("paging", object(("size", object(("fraction", 1))))), ("pageIndicator", true),
                          ("menu", object(("itemSize", object(("fixed", object(("width", 100), ("height", 40))))), ("insets", object(("left", 3))))),
                          ("rows", [object(("id", "p"), ("view", object(("type", "Page"))), ("size", object(("fixed", 375))), ("title", "One"))]))
        try send("POST", "/v1/stacks", body)
        let before = try get("/v1/stacks/c")
        let menu = try XCTUnwrap(before["menu.insets"]?.objectValue)
        XCTAssertEqual(menu["left"], 3)
        try send("PATCH", "/v1/stacks/c", object(("menu", object(("insets", object(("right", 6))))), ("pageIndicator", object(("inset", 2)))))
        let after = try get("/v1/stacks/c")
        XCTAssertEqual(after["menu.insets.left"], 3, "kept")
        XCTAssertEqual(after["menu.insets.right"], 6)
        XCTAssertEqual(after["menu.insets.top"], menu["top"])
        XCTAssertEqual(after["menu.insets.bottom"], menu["bottom"])
    }
}
