import JSONCodec
import ScrollStackService
import XCTest

/// No request costs seconds of CPU or gigabytes of memory: text is shaped once per paragraph
/// and size however many sizes and devices a request names, the text caches stay within their
/// bytes, layouts for devices are refused before they run past their budgets, and history and
/// drawings are bounded. Each test counts what was done (shapings, bytes, revisions), never
/// time; limits are lowered so that small requests reach them.
final class RequestCostTests: XCTestCase {
    /// A text row at its own font size.
    func label(_ id: String, _ text: String, size: Double) -> JSON {
        object(("id", .string(id)), ("view", object(("type", "Label"))), ("size", "fit"),
               ("content", object(("text", .string(text)), ("font", object(("family", "Inter"), ("size", .number(size)))))))
    }

    func textRows(_ count: Int, words: Int = 12) -> [JSON] {
        (0..<count).map { i in
            label("t\(i)", (0..<words).map { "word\(($0 * 31 + i) % 97)" }.joined(separator: " "), size: 8 + Double(i) / 16)
        }
    }

    func shaped(_ server: ServerHarness) throws -> Int { try XCTUnwrap(server.service.textStatistics).paragraphsShaped }

    // MARK: Text sizes × devices

    func testEverySizeIsShapedOnceWhateverTheDevices() throws {
        let server = try ServerHarness(maxBodyBytes: 4 << 20)
        defer { server.stop() }
        // 300 sizes: more than the sized fonts the engine used to keep (256), past which it
        // emptied its whole shape cache, so each device shaped every row again.
        let body = object(("rows", .array(textRows(300))), ("devices", ["iphone-se", "ipad", "ipad-pro-13", "iphone-15"]))
        let before = try shaped(server)
        let answer = try server.request("POST", "/v1/layout", json: body)
        XCTAssertEqual(answer.status, 200, answer.text)
        XCTAssertEqual(answer["layouts"]?.arrayValue?.count, 4)
        XCTAssertEqual(try shaped(server) - before, 300, "each row shaped once, for the first layout; the devices re-break lines")
        let again = try server.request("POST", "/v1/layout", json: body)
        XCTAssertEqual(again.body, answer.body)
        XCTAssertEqual(try shaped(server) - before, 300, "the same request again shapes nothing")
    }

    func testADeviceNamedTwiceIsLaidOutOnce() throws {
        let server = try ServerHarness()
        defer { server.stop() }
        let rows = (0..<5).map { row("r\($0)") }
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: object(("id", "s"), ("rows", .array(rows)))).status, 201)
        let query = try server.request("GET", "/v1/stacks/s/layout?devices=iphone-se,ipad,iphone-se,ipad,iphone-se")
        XCTAssertEqual(query.status, 200, query.text)
        XCTAssertEqual(query["layouts"]?.arrayValue?.compactMap { $0["device"]?["name"]?.stringValue }, ["iphone-se", "ipad"])
        let custom = object(("name", "wall"), ("width", 300), ("height", 500))
        let body = try server.request("POST", "/v1/layout", json: object(("rows", .array(rows)), ("devices", [custom, "ipad", custom, "ipad"])))
        XCTAssertEqual(body.status, 200, body.text)
        XCTAssertEqual(body["layouts"]?.arrayValue?.compactMap { $0["device"]?["name"]?.stringValue }, ["wall", "ipad"])
        // Seventeen names are too many, repeats included (the contract's maxItems).
        let many = (0..<17).map { object(("name", .string("d\($0)")), ("width", .number(300 + Double($0))), ("height", 500)) }
        let refused = try server.request("POST", "/v1/layout", json: object(("rows", .array(rows)), ("devices", .array(many))))
        XCTAssertEqual(refused.status, 422, refused.text)
        XCTAssertEqual(refused.errorField, "devices")
        XCTAssertEqual(refused["error.message"]?.stringValue, "must name 1 to 16 devices")
        let repeated = try server.request("GET", "/v1/stacks/s/layout?devices=" + Array(repeating: "ipad", count: 17).joined(separator: ","))
        XCTAssertEqual(repeated.status, 400, repeated.text)
        XCTAssertEqual(repeated.errorField, "devices")
    }

    func testTextTimesDevicesPastTheBudgetIsRefusedBeforeAnyLayout() throws {
        let rows = textRows(100)
        let text = rows.reduce(0) { $0 + ($1["content"]?["text"]?.stringValue?.utf8.count ?? 0) }
        // Room for two devices' layouts of the text, not three.
        var limits = ServiceLimits()
        limits.deviceLayoutTextBytes = text * 5 / 2
        let server = try ServerHarness(service: StackService(limits: limits), maxBodyBytes: 4 << 20)
        defer { server.stop() }
        // The stack's own viewport is iphone-se's (375 × 667).
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: object(("id", "s"), ("rows", .array(rows)))).status, 201)
        let before = try shaped(server)

        let two = try server.request("GET", "/v1/stacks/s/layout?window=visible&devices=iphone-15,ipad")
        XCTAssertEqual(two.status, 200, two.text)
        let three = try server.request("GET", "/v1/stacks/s/layout?window=visible&devices=iphone-15,ipad,ipad-pro-13")
        XCTAssertEqual(three.status, 422, three.text)
        XCTAssertEqual(three.errorCode, "work_budget_exceeded")
        XCTAssertEqual(three.errorField, "devices")
        XCTAssertEqual(three["error.message"]?.stringValue,
                       "laying out \(text) bytes of text for 3 devices would break \(text) × 3 bytes into lines, more than the \(text * 5 / 2) one request may (--device-layout-text-bytes): name fewer devices")
        // Duplicates do not count, nor does a device of the stack's own viewport (nothing to re-measure).
        let repeated = try server.request("GET", "/v1/stacks/s/layout?window=visible&devices=iphone-15,ipad,iphone-15,ipad,iphone-se")
        XCTAssertEqual(repeated.status, 200, repeated.text)
        let own = object(("name", "own"), ("width", 375), ("height", 667))
        let stack = try server.request("GET", "/v1/stacks/s")
        var stateless = try XCTUnwrap(stack.json?.objectValue)
        stateless["devices"] = [own, "ipad", "ipad-pro-13"]
        stateless["viewport"] = object(("width", 375), ("height", 667))
        XCTAssertEqual(try server.request("POST", "/v1/layout?window=visible", json: .object(stateless)).status, 200)
        stateless["devices"] = ["iphone-15", "ipad", "ipad-pro-13"]
        let refused = try server.request("POST", "/v1/layout?window=visible", json: .object(stateless))
        XCTAssertEqual(refused.status, 422, refused.text)
        XCTAssertEqual(refused.errorCode, "work_budget_exceeded")
        XCTAssertEqual(refused.errorField, "devices")
        // Every paragraph was shaped once, by the create: layouts at other widths only break
        // lines again; and nothing was stored.
        XCTAssertEqual(try shaped(server) - before, 0)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s")["revision"], 1)
    }

    func testRowsTimesDevicesPastTheBudgetIsRefused() throws {
        var limits = ServiceLimits()
        limits.deviceLayoutRows = 100
        let server = try ServerHarness(service: StackService(limits: limits))
        defer { server.stop() }
        let rows = (0..<60).map { row("r\($0)") }
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: object(("id", "s"), ("rows", .array(rows)))).status, 201)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s/layout?window=visible&devices=ipad").status, 200)
        let two = try server.request("GET", "/v1/stacks/s/layout.svg?window=visible&devices=ipad,ipad-mini")
        XCTAssertEqual(two.status, 422, two.text)
        XCTAssertEqual(two.errorCode, "work_budget_exceeded")
        XCTAssertEqual(two.errorField, "devices")
        XCTAssertEqual(two["error.message"]?.stringValue,
                       "laying out 60 rows for 2 devices would compute 60 × 2 row layouts, more than the 100 one request may (--device-layout-rows): name fewer devices")
    }

    // MARK: The text caches' bytes

    func testTheTextCachesStayWithinTheirBytes() throws {
        var limits = ServiceLimits()
        limits.textCacheBytes = 256 << 10
        limits.fontCacheBytes = 1 << 20
        let server = try ServerHarness(service: StackService(limits: limits), maxBodyBytes: 4 << 20)
        defer { server.stop() }
        // 25 layouts of distinct text (about 40 KB each, 1 MB in all): each fits, together
        // they are four times the shape cache.
        var shapedBefore = try shaped(server)
        for layout in 0..<25 {
            let rows = (0..<100).map { i in
                label("t\(i)", "row\(i) " + (0..<60).map { "l\(layout)w\(($0 * 13 + i) % 89)" }.joined(separator: " "), size: 10 + Double(layout))
            }
            let answer = try server.request("POST", "/v1/layout?window=visible", json: object(("rows", .array(rows))))
            XCTAssertEqual(answer.status, 200, answer.text)
            let statistics = try XCTUnwrap(server.service.textStatistics)
            XCTAssertEqual(statistics.paragraphsShaped - shapedBefore, 100, "layout \(layout)")
            shapedBefore = statistics.paragraphsShaped
            XCTAssertLessThanOrEqual(statistics.shapeCacheBytes, 256 << 10, "after layout \(layout)")
            XCTAssertLessThanOrEqual(statistics.fontCacheBytes, 1 << 20, "after layout \(layout)")
        }
        XCTAssertLessThan(try XCTUnwrap(server.service.textStatistics).cachedParagraphs, 2500, "older layouts' text was evicted")
    }

    // MARK: Drawings

    func testADrawingOfTooManyRowsIsRefusedBeforeItIsLaidOut() throws {
        var limits = ServiceLimits()
        limits.devicesDrawnRows = 100
        let server = try ServerHarness(service: StackService(limits: limits))
        defer { server.stop() }
        let rows = (0..<150).map { row("r\($0)") }
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: object(("id", "s"), ("rows", .array(rows)))).status, 201)
        let whole = try server.request("GET", "/v1/stacks/s/layout.svg")
        XCTAssertEqual(whole.status, 422, whole.text)
        XCTAssertEqual(whole.errorCode, "work_budget_exceeded")
        XCTAssertEqual(whole.errorField, "window")
        XCTAssertEqual(whole["error.message"]?.stringValue,
                       "the drawing would hold 150 rows, more than the 100 a drawing may: ask window=visible or a page (from, limit)")
        let accept = try server.request("GET", "/v1/stacks/s/layout", headers: [("Accept", "image/svg+xml")])
        XCTAssertEqual(accept.errorCode, "work_budget_exceeded")
        for path in ["/v1/stacks/s/layout.svg?window=visible", "/v1/stacks/s/layout.svg?from=100&limit=100"] {
            let drawn = try server.request("GET", path)
            XCTAssertEqual(drawn.status, 200, path)
            XCTAssertTrue(drawn.text.hasPrefix("<svg") || drawn.text.hasPrefix("<?xml"), path)
        }
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s/layout").status, 200, "the JSON layout is streamed, not drawn")
    }

    /// The visible rows are as many as the whole stack when the viewport holds them all: such a
    /// window is refused once laid out, before anything is drawn.
    func testAWindowOfTooManyRowsIsRefusedToo() throws {
        var limits = ServiceLimits()
        limits.devicesDrawnRows = 100
        let server = try ServerHarness(service: StackService(limits: limits))
        defer { server.stop() }
        let rows = (0..<150).map { row("r\($0)") }
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: object(("id", "s"), ("viewport", object(("width", 100), ("height", 1e9))),
                                                                          ("rows", .array(rows)))).status, 201)
        for path in ["/v1/stacks/s/layout.svg?window=visible", "/v1/stacks/s/layout.png?window=visible"] {
            let refused = try server.request("GET", path)
            XCTAssertEqual(refused.status, 422, path)
            XCTAssertEqual(refused.errorCode, "work_budget_exceeded", path)
            XCTAssertEqual(refused.errorField, "window", path)
            XCTAssertEqual(refused["error.message"]?.stringValue,
                           "the drawing would hold 150 rows, more than the 100 a drawing may: ask a page (from, limit) or a smaller viewport", path)
        }
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s/layout.svg?from=0&limit=100").status, 200, "a page of 100 is drawn")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s/layout?window=visible").status, 200, "the JSON window is not a drawing")
    }
}

/// History answers and live catch-ups are bounded by bytes (`ServiceLimits.eventsAnswerBytes`),
/// each holding at least one whole revision; the rest is linked (`next`) or sent after the
/// client reconnects.
final class EventBudgetTests: XCTestCase {
    static let budget = 2000
    var server: ServerHarness!
    /// The revisions made, and the stack's latest.
    var latest = 0

    override func setUpWithError() throws {
        var limits = ServiceLimits()
        limits.eventsAnswerBytes = Self.budget
        server = try ServerHarness(service: StackService(limits: limits))
        // Rows with long ids: removing or restoring all 40 takes more than the budget;
        // inserting one takes far less.
        let rows = (0..<40).map { row("row-\($0)-" + String(repeating: "x", count: 60)) }
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: object(("id", "s"), ("rows", .array(rows)))).status, 201)
        for pair in 0..<2 {
            XCTAssertEqual(try server.request("DELETE", "/v1/stacks/s/rows").status, 200)
            XCTAssertEqual(try server.request("POST", "/v1/stacks/s/revert", json: object(("to", 1))).status, 200)
            for i in 0..<8 {
                XCTAssertEqual(try server.request("POST", "/v1/stacks/s/rows", json: object(("rows", [row("p\(pair)-\(i)")]))).status, 200)
            }
        }
        latest = try XCTUnwrap(server.request("GET", "/v1/stacks/s")["revision"]?.int64Value).int
    }

    override func tearDown() {
        server.stop()
    }

    /// Each revision's events as `GET …/events` answers them, one revision per page.
    func eventsByRevision() throws -> [Int: [JSON]] {
        var byRevision: [Int: [JSON]] = [:]
        var after = 0
        while after < latest {
            let page = try server.request("GET", "/v1/stacks/s/events?after=\(after)&limit=1")
            XCTAssertEqual(page.status, 200, page.text)
            let events = try XCTUnwrap(page["events"]?.arrayValue)
            let revision = try XCTUnwrap(events.first?["revision"]?.int64Value).int
            XCTAssertTrue(events.allSatisfy { $0["revision"]?.int64Value == Int64(revision) })
            byRevision[revision] = events
            after = revision
        }
        return byRevision
    }

    func testHistoryIsPagedByBytesWithANextLink() throws {
        let reference = try eventsByRevision()
        XCTAssertEqual(Set(reference.keys).intersection(2...latest).count, latest - 1, "every mutation after the create")
        var path = "/v1/stacks/s/events?after=0&limit=1000"
        var answered: [JSON] = []
        var pages = 0, severalRevisions = 0, oversized = 0
        while true {
            let page = try server.request("GET", path)
            XCTAssertEqual(page.status, 200, page.text)
            pages += 1
            XCTAssertLessThan(pages, 100, "the pages end")
            let events = try XCTUnwrap(page["events"]?.arrayValue)
            let revisions = Set(events.compactMap { $0["revision"]?.int64Value })
            XCTAssertFalse(revisions.isEmpty)
            let eventBytes = JSON.array(events).serialized().count - 2
            if revisions.count > 1 {
                severalRevisions += 1
                XCTAssertLessThanOrEqual(eventBytes, Self.budget + revisions.count, path)  // (commas between revisions)
            } else if eventBytes > Self.budget {
                oversized += 1
            }
            answered += events
            guard let next = page["next"]?.stringValue else { break }
            XCTAssertEqual(next, "/v1/stacks/s/events?after=\(try XCTUnwrap(events.last?["revision"]?.int64Value))&limit=1000")
            path = next
        }
        XCTAssertEqual(answered, reference.keys.sorted().flatMap { reference[$0]! }, "every event once, in order")
        XCTAssertGreaterThan(severalRevisions, 0, "small revisions share a page")
        XCTAssertGreaterThanOrEqual(oversized, 2, "a revision past the budget fills a page alone")

        // A page cut by `limit` links the rest too; the last page links nothing.
        let three = try server.request("GET", "/v1/stacks/s/events?after=\(latest - 5)&limit=3")
        XCTAssertEqual(three["next"]?.stringValue, "/v1/stacks/s/events?after=\(latest - 2)&limit=3")
        XCTAssertNil(try server.request("GET", "/v1/stacks/s/events?after=\(latest - 2)&limit=3")["next"])
    }

    func testALiveCatchUpIsSentInPiecesAcrossReconnections() throws {
        let reference = try eventsByRevision()
        var received: [Int] = []
        var connections = 0
        var reader: LiveEventsTests.EventReader?
        while received.last != latest {
            connections += 1
            XCTAssertLessThan(connections, 100, "the catch-up ends")
            let current = try LiveEventsTests.EventReader(port: server.port, stack: "s", lastEventID: received.last ?? 0)
            reader = current
            var bytes = 0, messages = 0
            while received.last != latest, let message = try current.next() {
                received.append(message.revision)
                XCTAssertEqual(message.data["events"]?.arrayValue?.count, reference[message.revision]?.count, "revision \(message.revision)")
                messages += 1
                bytes += message.data.serialized().count
            }
            if received.last != latest {
                XCTAssertTrue(messages == 1 || bytes <= Self.budget, "a piece of \(messages) revisions took \(bytes) bytes")
            }
        }
        XCTAssertEqual(received, reference.keys.sorted(), "every revision exactly once, in order")
        XCTAssertGreaterThan(connections, 3, "the backlog came in pieces")
        // The connection that caught up is subscribed: the next revision arrives on it.
        XCTAssertEqual(try server.request("POST", "/v1/stacks/s/rows", json: object(("rows", [row("live")]))).status, 200)
        XCTAssertEqual(try XCTUnwrap(reader?.next()).revision, latest + 1)
    }
}

private extension Int64 {
    var int: Int { Int(self) }
}
