import XCTest
import ScrollStackCore
@testable import ScrollStackPiles
import ScrollStackTransitions

/// Pile's push, pop, set and update, with default and custom metrics.
final class PileTests: XCTestCase {
    let bounds = Rect(x: 0, y: 0, width: 320, height: 480)

    func view(_ id: String) -> PileView { PileView(id: id, content: .view(ViewDescriptor(type: "Card"))) }

    func testDefaultMetricsAreBoundsAndShiftedByTheHeight() {
        let metrics = PileMetrics()
        XCTAssertEqual(metrics.active.state(in: bounds), PileViewState(frame: bounds, alpha: 1, translate: .zero, scale: 1))
        XCTAssertEqual(metrics.leading.state(in: bounds), PileViewState(frame: Rect(x: 0, y: -480, width: 320, height: 480), alpha: 0, translate: .zero, scale: 1))
        XCTAssertEqual(metrics.trailing.state(in: bounds), PileViewState(frame: Rect(x: 0, y: 480, width: 320, height: 480), alpha: 0, translate: .zero, scale: 1))
        XCTAssertEqual(AnimationTiming.pile, AnimationTiming(duration: 0.6, delay: 0, damping: 0.6, initialVelocity: 0))
    }

    func testPushMovesTheActiveViewToTrailingAndTheNewOneFromLeading() throws {
        var pile = try Pile(bounds: bounds)
        let first = try pile.push(view("a"))
        XCTAssertEqual(first.motions.map(\.id), ["a"], "nothing to push away")
        XCTAssertEqual(first.motions[0].from, PileMetric.leading.state(in: bounds))
        XCTAssertEqual(first.motions[0].to, PileMetric.active.state(in: bounds))
        let second = try pile.push(view("b"))
        XCTAssertEqual(second.motions.map(\.id), ["a", "b"])
        XCTAssertEqual(second.motions[0].role, .exit)
        XCTAssertFalse(second.motions[0].removed, "a stays in the pile")
        XCTAssertEqual(second.motions[0].to, PileMetric.trailing.state(in: bounds))
        XCTAssertEqual(second.motions[1].from, PileMetric.leading.state(in: bounds))
        XCTAssertEqual(pile.views.map(\.id), ["a", "b"])
        XCTAssertEqual(pile.active?.id, "b")
        XCTAssertEqual(second.events, [.viewPushed(id: "b", index: 1), .activeChanged(from: "a", to: "b")])
        XCTAssertThrowsError(try pile.push(view("a"))) { XCTAssertEqual(($0 as? PileError)?.kind, .duplicateID) }
    }

    func testPopMovesTheTopViewToLeadingAsPilesCodeDoes() throws {
        var pile = try Pile(bounds: bounds, views: [view("a"), view("b")])
        let change = try pile.pop()
        XCTAssertEqual(change.motions[0].id, "b")
        XCTAssertTrue(change.motions[0].removed)
        XCTAssertEqual(change.motions[0].from, PileMetric.active.state(in: bounds))
        XCTAssertEqual(change.motions[0].to, PileMetric.leading.state(in: bounds), "the code pops to leading, not the README's trailing")
        XCTAssertEqual(change.motions[1].id, "a")
        XCTAssertEqual(change.motions[1].from, PileMetric.trailing.state(in: bounds))
        XCTAssertEqual(change.motions[1].to, PileMetric.active.state(in: bounds))
        XCTAssertEqual(pile.views.map(\.id), ["a"])
        XCTAssertThrowsError(try pile.pop()) { XCTAssertEqual(($0 as? PileError)?.kind, .lastView) }
        var empty = try Pile(bounds: bounds)
        XCTAssertThrowsError(try empty.pop()) { XCTAssertEqual(($0 as? PileError)?.kind, .empty) }
    }

    func testSetAndUpdate() throws {
        var pile = try Pile(bounds: bounds, views: [view("a")])
        let set = try pile.set([view("x"), view("y")])
        XCTAssertEqual(pile.views.map(\.id), ["x", "y"])
        XCTAssertEqual(set.motions.map(\.id), ["a", "y"])
        XCTAssertTrue(set.motions[0].removed)
        XCTAssertThrowsError(try pile.set([view("x"), view("x")])) { XCTAssertEqual(($0 as? PileError)?.field, "views[1].id") }
        XCTAssertEqual(pile.views.map(\.id), ["x", "y"], "a refused set changes nothing")
        let update = try pile.update("x", content: .controller(ControllerDescriptor(type: "Detail")))
        XCTAssertEqual(update.motions, [])
        XCTAssertEqual(pile.views[0].content.typeName, "Detail")
        XCTAssertThrowsError(try pile.update("nope", content: .view(ViewDescriptor(type: "V")))) {
            XCTAssertEqual(($0 as? PileError)?.kind, .unknownView)
        }
    }

    func testCustomMetrics() throws {
        let metrics = PileMetrics(
            leading: PileMetric(alpha: 0.2, insets: EdgeInsets(top: 10, left: 20, bottom: 10, right: 20), relativeOffset: Point(x: 0.5, y: 0),
                                scale: 0.5, translate: Point(x: 0, y: 30)),
            active: PileMetric(alpha: 1, offset: Point(x: 5, y: 0)),
            trailing: PileMetric(alpha: 0, relativeOffset: Point(x: -0.5, y: 0), scale: 2))
        var pile = try Pile(bounds: Rect(x: 10, y: 20, width: 200, height: 100), metrics: metrics)
        let push = try pile.push(view("a"))
        XCTAssertEqual(push.motions[0].from, PileViewState(frame: Rect(x: 10 + 20 + 100, y: 30, width: 160, height: 80), alpha: 0.2,
                                                           translate: Point(x: 0, y: 30), scale: 0.5))
        XCTAssertEqual(push.motions[0].to.frame, Rect(x: 15, y: 20, width: 200, height: 100))
        let next = try pile.push(view("b"))
        XCTAssertEqual(next.motions[0].to, PileViewState(frame: Rect(x: -90, y: 20, width: 200, height: 100), alpha: 0, translate: .zero, scale: 2))
        XCTAssertEqual(PileMetric(alpha: 2).violation(in: bounds)?.member, "alpha")
        XCTAssertEqual(PileMetric(insets: EdgeInsets(left: 200, right: 200)).violation(in: bounds)?.member, "insets")
    }

    func testPlanKeyframesEndAtTheTargets() throws {
        var pile = try Pile(bounds: bounds, views: [view("a")])
        let change = try pile.push(view("b"))
        let plan = PilePlan(animated: true, timing: .pile, motions: change.motions)
        let frames = plan.keyframes(fps: 60)
        XCTAssertEqual(frames.first?.progress, 0)
        XCTAssertEqual(frames.last?.time, AnimationTiming.pile.restTime)
        XCTAssertEqual(frames.last?.views.map(\.state), change.motions.map(\.to))
        XCTAssertEqual(frames.first?.views.map(\.state.frame), change.motions.map(\.from.frame))
    }
}
