import Foundation
import JSONCodec
import XCTest

// Audit against upstream (rechsteiner/Pile, PileTests/PileViewSpec.swift): all ten `it`
// examples of PileViewSpec are translated below; none is left out. Upstream's
// `handleAnimationCallback()` (the end of a push or pop animation) is the plan's end state
// here: `removed` and the frames of the views left on screen.

/// Pile's `PileViewSpec`, translated to HTTP: each test is named `testPileViewSpec_<describe>_<it>`.
/// A view on screen (upstream: its `superview` is the pile) is the active view here, the only
/// one answered with a frame; the `removalStack` is what the change's plan moves off screen.
/// Upstream lets the same view be pushed twice; here view ids are unique, so that push is
/// refused and the pile keeps its active view, which is what the upstream spec checks.
final class UpstreamPileTests: XCTestCase {
    var server: ServerHarness!

    override func setUpWithError() throws {
        server = try ServerHarness()
        let created = try server.request("POST", "/v1/piles", json: object(("id", "p"), ("bounds", object(("width", 100), ("height", 30)))))
        XCTAssertEqual(created.status, 201, created.text)
    }

    override func tearDown() { server.stop() }

    func view(_ id: String, _ type: String = "Label") -> JSON { object(("id", .string(id)), ("view", object(("type", .string(type))))) }

    @discardableResult
    func set(_ ids: [String]) throws -> Reply {
        let reply = try server.request("POST", "/v1/piles/p/set", json: object(("views", .array(ids.map { view($0) }))))
        XCTAssertEqual(reply.status, 200, reply.text)
        return reply
    }

    func ids(_ reply: Reply) -> [String] { reply["pile.views"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? [] }

    /// The views answered with a frame: those on screen.
    func onScreen(_ reply: Reply) -> [String] {
        reply["pile.views"]?.arrayValue?.filter { $0["frame"] != nil }.compactMap { $0["id"]?.stringValue } ?? []
    }

    func testPileViewSpec_whenAnArrayOfViewsIsSet_addsTheViewsToTheStack() throws {
        XCTAssertEqual(ids(try set(["first", "second"])), ["first", "second"])
    }

    func testPileViewSpec_whenAnArrayOfViewsIsSet_setsTheLastViewAsTheActive() throws {
        let reply = try set(["first", "second"])
        XCTAssertEqual(reply["pile.active"]?.stringValue, "second")
        XCTAssertEqual(onScreen(reply), ["second"])
    }

    func testPileViewSpec_whenAViewIsPushed_setsTheViewAsActive() throws {
        try set(["first"])
        let pushed = try server.request("POST", "/v1/piles/p/push", json: view("second"))
        XCTAssertEqual(pushed["pile.active"]?.stringValue, "second")
        XCTAssertEqual(ids(pushed).last, "second")
        XCTAssertEqual(onScreen(pushed), ["second"])
    }

    /// The removal stack holds `first`: the plan moves it off screen (active → trailing),
    /// and it stays in the pile.
    func testPileViewSpec_whenAViewIsPushed_removesThePreviousView() throws {
        try set(["first"])
        let pushed = try server.request("POST", "/v1/piles/p/push", json: object(("id", "second"), ("view", object(("type", "Label"))), ("animation", true)))
        let leaving = pushed["transition.views"]?.arrayValue?.first { $0["id"]?.stringValue == "first" }
        XCTAssertEqual(leaving?["to"]?["alpha"]?.doubleValue, 0, "off screen after the animation")
        XCTAssertEqual(leaving?["removed"]?.boolValue, false)
        XCTAssertFalse(onScreen(pushed).contains("first"))
    }

    func testPileViewSpec_whenTheActiveViewGetsPushedTwice_setsTheViewAsActive() throws {
        try set(["first"])
        XCTAssertEqual(try server.request("POST", "/v1/piles/p/push", json: view("second")).status, 200)
        let again = try server.request("POST", "/v1/piles/p/push", json: view("second"))
        XCTAssertEqual(again.status, 409, again.text)
        let pile = try server.request("GET", "/v1/piles/p")
        XCTAssertEqual(pile["active"]?.stringValue, "second")
    }

    func testPileViewSpec_whenTheActiveViewGetsPushedTwice_doesNotRemoveTheActiveView() throws {
        try set(["first"])
        XCTAssertEqual(try server.request("POST", "/v1/piles/p/push", json: view("second")).status, 200)
        _ = try server.request("POST", "/v1/piles/p/push", json: view("second"))
        let pile = try server.request("GET", "/v1/piles/p")
        XCTAssertEqual(pile.json?["views"]?.arrayValue?.compactMap { $0["id"]?.stringValue }, ["first", "second"])
        XCTAssertEqual(pile.json?["views"]?.arrayValue?.filter { $0["frame"] != nil }.compactMap { $0["id"]?.stringValue }, ["second"])
    }

    func testPileViewSpec_whenAViewIsPopped_setsThePreviousViewAsActive() throws {
        try set(["first", "second"])
        let popped = try server.request("POST", "/v1/piles/p/pop", json: object())
        XCTAssertEqual(popped["pile.active"]?.stringValue, "first")
        XCTAssertEqual(ids(popped), ["first"])
    }

    func testPileViewSpec_whenAViewIsPopped_removesTheTopView() throws {
        try set(["first", "second"])
        let popped = try server.request("POST", "/v1/piles/p/pop", json: object(("animation", true)))
        let leaving = popped["transition.views"]?.arrayValue?.first { $0["id"]?.stringValue == "second" }
        XCTAssertEqual(leaving?["removed"]?.boolValue, true)
        XCTAssertEqual(onScreen(popped), ["first"])
    }

    /// Pile silently keeps its last view; here the pop is refused and the pile is unchanged.
    func testPileViewSpec_whenThereIsOneViewOnTheStack_doesNotRemoveTheView() throws {
        try set(["first"])
        let popped = try server.request("POST", "/v1/piles/p/pop", json: object())
        XCTAssertEqual(popped.status, 409, popped.text)
        let pile = try server.request("GET", "/v1/piles/p")
        XCTAssertEqual(pile.json?["views"]?.arrayValue?.count, 1)
        XCTAssertEqual(pile["active"]?.stringValue, "first")
    }

    /// `update` replaces the active view's content in place: one view, the new one.
    func testPileViewSpec_whenAViewIsUpdated_replacesThePreviousViewWithTheNewView() throws {
        try set(["first"])
        let updated = try server.request("POST", "/v1/piles/p/update", json: object(("view", object(("type", "Second")))))
        XCTAssertEqual(updated.status, 200, updated.text)
        XCTAssertEqual(updated["pile.views"]?.arrayValue?.count, 1)
        XCTAssertEqual(updated["pile.views[0].view.type"]?.stringValue, "Second")
    }
}
