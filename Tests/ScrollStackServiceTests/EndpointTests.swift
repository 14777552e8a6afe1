import JSONCodec
import XCTest

/// Every endpoint of API v1, through the real server.
final class EndpointTests: XCTestCase {
    var server: ServerHarness!

    override func setUpWithError() throws {
        server = try ServerHarness()
    }

    override func tearDown() {
        server.stop()
    }

    /// A stack `s` with rows a, b, c of content 44 (row length 68 with the default insets).
    @discardableResult
    func makeStack(_ id: String = "s", rows: [JSON] = [row("a"), row("b"), row("c")], extra: [(String, JSON)] = []) throws -> Reply {
        let reply = try server.request("POST", "/v1/stacks", json: .object(JSONObject([("id", .string(id)), ("rows", .array(rows))] + extra)))
        XCTAssertEqual(reply.status, 201, reply.text)
        return reply
    }

    func ids(_ reply: Reply, _ path: String = "rows") -> [String] {
        (reply[path]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue ?? $0.stringValue }
    }

    func eventTypes(_ reply: Reply) -> [String] {
        (reply["events"]?.arrayValue ?? []).compactMap { $0["type"]?.stringValue }
    }

    func testHealthz() throws {
        let reply = try server.request("GET", "/healthz")
        XCTAssertEqual(reply.status, 200)
        XCTAssertEqual(reply.json, object(("status", "ok")))
        XCTAssertEqual(reply.header("content-type"), "application/json")
    }

    func testCreateGetListDelete() throws {
        let created = try makeStack(extra: [("spacing", 8)])
        XCTAssertEqual(created.header("location"), "/v1/stacks/s")
        XCTAssertEqual(created.header("etag"), "\"1\"")
        XCTAssertEqual(created["revision"], 1)
        XCTAssertEqual(ids(created), ["a", "b", "c"])
        XCTAssertEqual(created["rows[2].index"], 2)
        XCTAssertEqual(created["contentSize.height"], 220)

        let generated = try server.request("POST", "/v1/stacks", json: object(("rows", [object(("view", object(("type", "V"))), ("size", "fit"), ("content", object(("height", 10))))])))
        XCTAssertEqual(generated.status, 201, generated.text)
        let generatedID = try XCTUnwrap(generated["id"]?.stringValue)
        XCTAssertTrue(generatedID.hasPrefix("s-"))
        XCTAssertTrue(generated["rows[0].id"]?.stringValue?.hasPrefix("r-") ?? false)
        XCTAssertEqual(generated["rows[0].size"], "fit")

        let fetched = try server.request("GET", "/v1/stacks/s")
        XCTAssertEqual(fetched.status, 200)
        XCTAssertEqual(fetched.json, created.json)

        // A fetched stack posts back as it is, under a new id.
        guard case .object(var copy)? = fetched.json else { return XCTFail("not an object") }
        copy["id"] = "copy"
        let posted = try server.request("POST", "/v1/stacks", json: .object(copy))
        XCTAssertEqual(posted.status, 201, posted.text)
        XCTAssertEqual(posted["rows"], fetched["rows"])

        let list = try server.request("GET", "/v1/stacks")
        XCTAssertEqual(list.status, 200)
        let listed = list.json?.arrayValue ?? []
        XCTAssertEqual(listed.map { $0["id"]?.stringValue ?? "" }, ["copy", "s", generatedID].sorted())
        XCTAssertEqual(listed.first { $0["id"] == "s" }?["rowCount"], 3)
        XCTAssertEqual(listed.first { $0["id"] == "s" }?["revision"], 1)

        XCTAssertEqual(try server.request("DELETE", "/v1/stacks/s").status, 204)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s").status, 404)
        XCTAssertEqual(try server.request("DELETE", "/v1/stacks/s").status, 404)
    }

    func testPatchStack() throws {
        try makeStack()
        let reply = try server.request("PATCH", "/v1/stacks/s", json: object(("spacing", 10), ("viewport", object(("height", 100)))))
        XCTAssertEqual(reply.status, 200, reply.text)
        XCTAssertEqual(reply["revision"], 2)
        XCTAssertEqual(reply.header("etag"), "\"2\"")
        XCTAssertEqual(eventTypes(reply), ["layoutUpdated", "contentSizeChanged", "becameHidden", "becameHidden"])
        XCTAssertEqual(reply["events[1].to.height"], 224)
        let stack = try server.request("GET", "/v1/stacks/s")
        XCTAssertEqual(stack["viewport"], object(("width", 375), ("height", 100)))
        XCTAssertEqual(stack["spacing"], 10)

        let axis = try server.request("PATCH", "/v1/stacks/s", json: object(("axis", "horizontal"), ("separator", object(("color", "#ff0000")))))
        XCTAssertEqual(axis.status, 200, axis.text)
        let after = try server.request("GET", "/v1/stacks/s")
        XCTAssertEqual(after["axis"], "horizontal")
        XCTAssertEqual(after["separator.color"], "#FF0000FF")
        XCTAssertEqual(after["separator.thickness"], 1)
    }

    func testInsertAtEveryLocation() throws {
        try makeStack()
        func insert(_ ids: [String], at: JSON?) throws -> Reply {
            var members: [(String, JSON)] = [("rows", .array(ids.map { row($0) }))]
            if let at { members.append(("at", at)) }
            return try server.request("POST", "/v1/stacks/s/rows", json: .object(JSONObject(members)))
        }
        let top = try insert(["t1", "t2"], at: "top")
        XCTAssertEqual(top.status, 200, top.text)
        XCTAssertEqual(ids(top, "changed"), ["t1", "t2"])
        XCTAssertEqual(top["changed[1].index"], 1)
        XCTAssertEqual(top["events[0]"], object(("type", "rowAdded"), ("id", "t1"), ("index", 0)))
        XCTAssertEqual(try insert(["z"], at: nil).status, 200)
        XCTAssertEqual(try insert(["i1", "i2"], at: object(("index", 2))).status, 200)
        XCTAssertEqual(try insert(["b1", "b2"], at: object(("before", "b"))).status, 200)
        XCTAssertEqual(try insert(["a1", "a2"], at: object(("after", 0))).status, 200)
        let rows = try server.request("GET", "/v1/stacks/s/rows")
        XCTAssertEqual(ids(rows), ["t1", "a1", "a2", "t2", "i1", "i2", "a", "b1", "b2", "b", "c", "z"])
        XCTAssertEqual(rows["revision"], 6)
    }

    func testRowQueries() throws {
        try makeStack(rows: [row("a", type: "Header"), row("b", type: "Gallery"),
                             object(("id", "c"), ("controller", object(("type", "Gallery"), ("instance", "g2"), ("props", object(("n", 1), ("tags", ["x"]))))), ("size", object(("fixed", 10))))])
        XCTAssertEqual(ids(try server.request("GET", "/v1/stacks/s/rows?controller=Gallery")), ["b", "c"])
        XCTAssertEqual(ids(try server.request("GET", "/v1/stacks/s/rows?controller=Gallery&first=true")), ["b"])
        XCTAssertEqual(ids(try server.request("GET", "/v1/stacks/s/rows?controller=None")), [])
        XCTAssertEqual(ids(try server.request("GET", "/v1/stacks/s/rows?first=true")), ["a"])
        let byInstance = try server.request("GET", "/v1/stacks/s/rows?instance=g2")
        XCTAssertEqual(ids(byInstance), ["c"])
        XCTAssertEqual(byInstance["rows[0].controller.props"], object(("n", 1), ("tags", ["x"])))
        XCTAssertEqual(byInstance["rows[0].index"], 2)

        let one = try server.request("GET", "/v1/stacks/s/rows/b")
        XCTAssertEqual(one.status, 200, one.text)
        XCTAssertEqual(one["index"], 1)
        XCTAssertEqual(one["frame"], object(("x", 0), ("y", 68), ("width", 375), ("height", 68)))
        XCTAssertEqual(one["contentFrame"], object(("x", 16), ("y", 80), ("width", 343), ("height", 44)))
        XCTAssertEqual(one["separatorFrame"], object(("x", 16), ("y", 135), ("width", 359), ("height", 1)))
        XCTAssertEqual(one["visibility"], "entire")
        XCTAssertEqual(one["visibleFraction"], 1)
        let byIndex = try server.request("GET", "/v1/stacks/s/rows/at/1")
        XCTAssertEqual(byIndex.json, one.json)
        // The last row draws no separator (autoHideLastRowSeparator).
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s/rows/c")["separatorFrame"], .null)
    }

    func testReplaceRow() throws {
        try makeStack()
        let kept = try server.request("PUT", "/v1/stacks/s/rows/b", json: object(("view", object(("type", "Banner"))), ("size", object(("fixed", 20)))))
        XCTAssertEqual(kept.status, 200, kept.text)
        XCTAssertEqual(eventTypes(kept).prefix(2), ["rowRemoved", "rowAdded"])
        XCTAssertEqual(kept["changed[0].id"], "b")
        XCTAssertEqual(kept["changed[0].view.type"], "Banner")
        XCTAssertEqual(kept["removed[0].controller.type"], "VC")
        let renamed = try server.request("PUT", "/v1/stacks/s/rows/at/1", json: row("b2", 30))
        XCTAssertEqual(renamed.status, 200, renamed.text)
        XCTAssertEqual(ids(try server.request("GET", "/v1/stacks/s/rows")), ["a", "b2", "c"])
    }

    func testPatchRow() throws {
        try makeStack()
        let hidden = try server.request("PATCH", "/v1/stacks/s/rows/b", json: object(("hidden", true)))
        XCTAssertEqual(hidden.status, 200, hidden.text)
        XCTAssertEqual(hidden["events[0]"], object(("type", "rowHidden"), ("id", "b"), ("index", 1)))
        XCTAssertEqual(eventTypes(hidden), ["rowHidden", "layoutUpdated", "contentSizeChanged", "becameHidden"])

        let resized = try server.request("PATCH", "/v1/stacks/s/rows/a", json: object(
            ("insets", object(("top", 0), ("bottom", 0))), ("separator", object(("thickness", 2), ("color", "#00ff00"))),
            ("size", object(("vertical", object(("fixed", 50))), ("horizontal", "fit"))), ("content", object(("aspectRatio", 2))),
            ("tappable", true)))
        XCTAssertEqual(resized.status, 200, resized.text)
        XCTAssertEqual(resized["events[0]"], object(("type", "rowResized"), ("id", "a"), ("index", 0), ("from", 68), ("to", 50)))
        let a = try server.request("GET", "/v1/stacks/s/rows/a")
        XCTAssertEqual(a["separator"], object(("thickness", 2), ("color", "#00FF00FF")))
        XCTAssertEqual(a["tappable"], true)
        XCTAssertEqual(a["size"], object(("vertical", object(("fixed", 50))), ("horizontal", "fit")))

        // A null member clears that override; a null separator clears them all.
        XCTAssertEqual(try server.request("PATCH", "/v1/stacks/s/rows/a", json: object(("separator", object(("color", .null))))).status, 200)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s/rows/a")["separator"], object(("thickness", 2)))
        XCTAssertEqual(try server.request("PATCH", "/v1/stacks/s/rows/a", json: object(("separator", .null), ("insets", .null))).status, 200)
        let cleared = try server.request("GET", "/v1/stacks/s/rows/a")
        XCTAssertNil(cleared["separator"])
        XCTAssertNil(cleared["insets"])
        XCTAssertEqual(cleared["frame.height"], 74)
    }

    func testRemoveMoveAndBatch() throws {
        try makeStack(rows: ["a", "b", "c", "d", "e"].map { row($0) })
        let removed = try server.request("DELETE", "/v1/stacks/s/rows/b")
        XCTAssertEqual(removed.status, 200, removed.text)
        XCTAssertEqual(removed["removed[0].id"], "b")
        XCTAssertEqual(removed["removed[0].index"], 1)
        XCTAssertEqual(removed["events[0]"], object(("type", "rowRemoved"), ("id", "b"), ("index", 1)))

        let moved = try server.request("POST", "/v1/stacks/s/rows/a/move", json: object(("to", 3)))
        XCTAssertEqual(moved.status, 200, moved.text)
        XCTAssertEqual(moved["events[0]"], object(("type", "rowMoved"), ("id", "a"), ("from", 0), ("to", 3)))
        XCTAssertEqual(ids(try server.request("GET", "/v1/stacks/s/rows")), ["c", "d", "e", "a"])
        XCTAssertEqual(try server.request("POST", "/v1/stacks/s/rows/at/0/move", json: object(("to", 1))).status, 200)
        XCTAssertEqual(ids(try server.request("GET", "/v1/stacks/s/rows")), ["d", "c", "e", "a"])

        let hide = try server.request("POST", "/v1/stacks/s/rows/batch", json: object(("op", "hide"), ("rows", ["c", 2.0])))
        XCTAssertEqual(hide.status, 200, hide.text)
        XCTAssertEqual(eventTypes(hide).prefix(2), ["rowHidden", "rowHidden"])
        let show = try server.request("POST", "/v1/stacks/s/rows/batch", json: object(("op", "show"), ("rows", ["e"])))
        XCTAssertEqual(show["events[0]"], object(("type", "rowShown"), ("id", "e"), ("index", 2)))
        let insets = try server.request("POST", "/v1/stacks/s/rows/batch", json: object(("op", "insets"), ("rows", ["d", "a"]), ("insets", object(("top", 1)))))
        XCTAssertEqual(insets.status, 200, insets.text)
        // A partial object changes only the side it names: bottom keeps the stack's rowInsets' 12.
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s/rows/d")["frame.height"], 57)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s/rows/d")["insets"], object(("top", 1), ("left", 16), ("bottom", 12), ("right", 16)))
        let cleared = try server.request("POST", "/v1/stacks/s/rows/batch", json: object(("op", "insets"), ("rows", ["d"]), ("insets", .null)))
        XCTAssertEqual(cleared["events[0].to"], 68)
        let reload = try server.request("POST", "/v1/stacks/s/rows/batch", json: object(("op", "reload"), ("rows", ["a"])))
        XCTAssertEqual(ids(reload, "changed"), ["a"])
        let batchRemove = try server.request("POST", "/v1/stacks/s/rows/batch", json: object(("op", "remove"), ("rows", [0, 1])))
        XCTAssertEqual(batchRemove.status, 200, batchRemove.text)
        XCTAssertEqual(batchRemove["removed"]?.arrayValue?.map { $0["id"]?.stringValue ?? "" }, ["d", "c"])
        XCTAssertEqual(ids(try server.request("GET", "/v1/stacks/s/rows")), ["e", "a"])

        let all = try server.request("DELETE", "/v1/stacks/s/rows")
        XCTAssertEqual(all.status, 200)
        XCTAssertEqual(all["removed"]?.arrayValue?.count, 2)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s/rows")["rows"], [])
    }

    func testLayoutAndOverrides() throws {
        try makeStack(rows: (0..<20).map { row("r\($0)") }, extra: [("viewport", object(("width", 300), ("height", 200)))])
        let full = try server.request("GET", "/v1/stacks/s/layout")
        XCTAssertEqual(full.status, 200, full.text)
        XCTAssertEqual(full["rows"]?.arrayValue?.count, 20)
        XCTAssertEqual(full["contentSize"], object(("width", 300), ("height", 1360)))
        XCTAssertEqual(full["visibleRows"], ["r0", "r1", "r2"])
        XCTAssertEqual(full["entirelyVisibleRows"], ["r0", "r1"])
        XCTAssertEqual(full["rows[2].visibility"], "partial")
        XCTAssertEqual(full["rows[2].visibleFraction"]?.doubleValue ?? 0, 64.0 / 68.0, accuracy: 1e-6)
        XCTAssertEqual(full["rows[3].visibility"], "offscreen")

        let window = try server.request("GET", "/v1/stacks/s/layout?window=visible&offset=680")
        XCTAssertEqual(window["rows"]?.arrayValue?.map { $0["id"]?.stringValue ?? "" }, ["r10", "r11", "r12"])
        XCTAssertEqual(window["offset"], object(("x", 0), ("y", 680)))
        let wider = try server.request("GET", "/v1/stacks/s/layout?window=visible&width=400&height=68&offset=0,68")
        XCTAssertEqual(wider["rows"]?.arrayValue?.map { $0["id"]?.stringValue ?? "" }, ["r1"])
        XCTAssertEqual(wider["viewport"], object(("width", 400), ("height", 68)))
        // Overrides change nothing stored.
        let after = try server.request("GET", "/v1/stacks/s")
        XCTAssertEqual(after["viewport"], object(("width", 300), ("height", 200)))
        XCTAssertEqual(after["revision"], 1)
    }

    func testHitTest() throws {
        try makeStack(rows: [row("a"), object(("id", "b"), ("view", object(("type", "V"))), ("size", object(("fixed", 44))), ("tappable", true))],
                      extra: [("spacing", 10)])
        let hit = try server.request("GET", "/v1/stacks/s/hit?x=10&y=100")
        XCTAssertEqual(hit.status, 200, hit.text)
        XCTAssertEqual(hit["row.id"], "b")
        XCTAssertEqual(hit["row.tappable"], true)
        XCTAssertEqual(hit["row.index"], 1)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s/hit?x=10&y=70")["row"], .null)  // spacing
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s/hit?x=10&y=10")["row.tappable"], false)
    }

    func testScroll() throws {
        try makeStack(rows: (0..<10).map { row("r\($0)") }, extra: [("viewport", object(("width", 300), ("height", 200))), ("contentInsets", object(("top", 20), ("bottom", 30)))])
        func scroll(_ body: JSON) throws -> Reply {
            let reply = try server.request("POST", "/v1/stacks/s/scroll", json: body)
            XCTAssertEqual(reply.status, 200, reply.text)
            return reply
        }
        /// The offset a scroll answer's didScroll event reports.
        func scrolledTo(_ reply: Reply) -> JSON? {
            reply.json?["events"]?.arrayValue?.first { $0["type"] == "didScroll" }?["to"]
        }
        XCTAssertEqual(scrolledTo(try scroll(object(("row", "r5"), ("position", "initial")))), object(("x", 0), ("y", 340)))
        XCTAssertEqual(scrolledTo(try scroll(object(("row", 5), ("position", "middle"))))?["y"], 274)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s")["offset.y"], 274)
        XCTAssertEqual(scrolledTo(try scroll(object(("to", "bottom"))))?["y"], 510)
        XCTAssertEqual(scrolledTo(try scroll(object(("to", "top"))))?["y"], -20)
        XCTAssertEqual(scrolledTo(try scroll(object(("offset", object(("x", 0), ("y", 68))))))?["y"], 68)
        let automatic = try scroll(object(("row", "r1")))
        XCTAssertFalse(eventTypes(automatic).contains("didScroll"), "r1 already shows entirely")
    }

    func testStatelessLayout() throws {
        let reply = try server.request("POST", "/v1/layout", json: object(
            ("axis", "horizontal"), ("viewport", object(("width", 100), ("height", 50))),
            ("rows", [row("a", 30), row("b", 30)])))
        XCTAssertEqual(reply.status, 200, reply.text)
        XCTAssertNil(reply["revision"])
        XCTAssertEqual(reply["contentSize"], object(("width", 124), ("height", 50)))
        XCTAssertEqual(reply["rows[1].frame"], object(("x", 62), ("y", 0), ("width", 62), ("height", 50)))
        XCTAssertEqual(reply["rows[0].separatorFrame"], object(("x", 61), ("y", 0), ("width", 1), ("height", 50)))
        XCTAssertEqual(reply["visibleRows"], ["a", "b"])
        XCTAssertEqual(try server.request("GET", "/v1/stacks").json, [])
    }
}
