import Foundation
import JSONCodec
@testable import ScrollStackCore
@testable import ScrollStackService
import ScrollStackTransitions
import TestSeeds
import XCTest

/// A transition plan's text (`ModelEncoding.planText`, `writePlan`, and `mutationText` with a
/// `transition`), on plans the planner makes for seeded random stacks and operations, then
/// perturbed with looks, odd reals and timings it rarely makes: the journal's copy read back
/// is written the same at both precisions, and keyframes and the mutation answer add their
/// members to it and change nothing else.
final class PlanTextTests: XCTestCase {
    static func real(_ r: inout SplitMix64) -> Double {
        switch Int.random(in: 0..<6, using: &r) {
        case 0: Double(Int.random(in: -500...500, using: &r))
        case 1: Double.random(in: -1e6...1e6, using: &r)
        case 2: Double.random(in: 0...1, using: &r) / 3
        case 3: [Double.infinity, -Double.infinity, .nan, 2e12, -0.0, 1e-7, 9_007_199_254_740_993][Int.random(in: 0..<7, using: &r)]
        case 4: Double(Int.random(in: 0...3000, using: &r)) / 4
        default: Double(Int.random(in: 0...3000, using: &r)) / 3
        }
    }

    static func rect(_ r: inout SplitMix64) -> Rect {
        Rect(origin: Point(x: real(&r), y: real(&r)), size: Size(width: real(&r), height: real(&r)))
    }

    /// `plan` with some of its members replaced by random ones.
    static func perturbed(_ plan: TransitionPlan, _ r: inout SplitMix64) -> TransitionPlan {
        var plan = plan
        if Bool.random(using: &r) {
            plan.timing = AnimationTiming(duration: abs(real(&r)), delay: real(&r), damping: real(&r), initialVelocity: real(&r))
        }
        if Bool.random(using: &r) { plan.viewport.to = Size(width: real(&r), height: real(&r)) }
        if Bool.random(using: &r) { plan.contentSize.from = Size(width: real(&r), height: real(&r)) }
        if Bool.random(using: &r) { plan.offset.to = Point(x: real(&r), y: real(&r)) }
        for i in plan.rows.indices where Int.random(in: 0..<3, using: &r) == 0 {
            var state = Bool.random(using: &r) ? plan.rows[i].from : plan.rows[i].to
            switch Int.random(in: 0..<5, using: &r) {
            case 0: state.index = Bool.random(using: &r) ? nil : Int.random(in: 0..<1_000_000, using: &r)
            case 1: state.separatorFrame = Bool.random(using: &r) ? nil : rect(&r)
            case 2: state.translate = Point(x: real(&r), y: real(&r))
                    state.scale = real(&r)
            case 3: state.alpha = real(&r)
            default: state.frame = rect(&r)
                     state.contentFrame = rect(&r)
            }
            if Bool.random(using: &r) { plan.rows[i].from = state } else { plan.rows[i].to = state }
            plan.rows[i].id = ["r\"\(i)", "ü/\(i)", "t\t\(i)", "row-\(i)"][Int.random(in: 0..<4, using: &r)]
        }
        return plan
    }

    func testAPlanReadBackIsWrittenTheSameAndKeyframesOnlyAddMembers() throws {
        let seed = TestSeed.seed("PlanTextTests")
        var r = SplitMix64(seed: seed)
        let service = StackService()
        var compared = 0
        var readBack = 0
        var sampled = 0
        for _ in 0..<40 {
            guard var stack = try? service.decodeStack(ObjectReader(object: MutationTextTests.stackBody(&r, rows: Int.random(in: 0..<30, using: &r)), path: ""), id: "s"),
                  let spare = try? service.decodeStack(ObjectReader(object: MutationTextTests.stackBody(&r, rows: 12), path: ""), id: "t") else { continue }
            var fresh = 0
            for revision in 2...20 {
                let operation = MutationTextTests.randomOperation(&r, on: stack, spare: spare, fresh: &fresh, changingAxis: true)
                let capture = TransitionCapture(stack, targets: nil)
                guard let result = try? operation.apply(to: &stack) else { continue }
                let planned = TransitionPlanner.plan(from: capture, to: stack, result: result, timing: .rows, animated: Bool.random(using: &r))
                for plan in [planned, Self.perturbed(planned, &r)] {
                    // A real that is not finite (a perturbed one, or an undamped spring's settle
                    // time) is kept as null, which reads back as something else: such plans are left out.
                    let journaled = ModelEncoding.planText(plan, revision: revision, realPrecision: 17)
                    let finite = !String(decoding: journaled, as: UTF8.self).replacingOccurrences(of: #""separatorFrame":null"#, with: "").contains("null")
                    if finite, let kept = ModelDecoding.storedPlan(try JSON.parse(journaled)) {
                        // The timing's derived physics (stiffness, settle time) are computed again
                        // from what was kept, so only its given members are compared.
                        for precision in [15, 17] {
                            func fromAxis(_ p: TransitionPlan) -> Substring {
                                let text = String(decoding: ModelEncoding.planText(p, revision: revision, realPrecision: precision), as: UTF8.self)
                                return text[(text.range(of: #","axis":"#)?.lowerBound ?? text.startIndex)...]
                            }
                            XCTAssertEqual(fromAxis(kept), fromAxis(plan), "seed \(seed)")
                        }
                        XCTAssertEqual([kept.timing.duration, kept.timing.delay, kept.timing.damping, kept.timing.initialVelocity],
                                       [plan.timing.duration, plan.timing.delay, plan.timing.damping, plan.timing.initialVelocity], "seed \(seed)")
                        readBack += 1
                        // Keyframes are sampled from the copy read back, so its frames are the ones
                        // to bound: a damping of −0 settles at once, the 0 it is written as never.
                        if kept.timing.duration > 0, kept.timing.duration < 2, KeyframeSampler.frameCount(kept.timing, fps: 30) <= 100 {
                            var w = JSONWriter()
                            ModelEncoding.writePlan(plan, revision: revision, fps: 30, into: &w)
                            let text = ModelEncoding.planText(plan, revision: revision, realPrecision: 15)
                            let withKeyframes = w.take()
                            XCTAssertEqual(Array(withKeyframes.prefix(text.count - 1)), Array(text.dropLast()), "seed \(seed)")
                            let keyframes = try JSON.parse(withKeyframes)["keyframes"]?.arrayValue ?? []
                            XCTAssertEqual(keyframes.count, KeyframeSampler.frameCount(kept.timing, fps: 30), "seed \(seed)")
                            XCTAssertEqual(keyframes.last?["rows"]?.arrayValue?.count, kept.rows.count, "seed \(seed)")
                            sampled += 1
                        }
                    }
                    // The answer with its plan is the answer without it, with the plan's text as its last member.
                    let bare = ModelEncoding.mutationText(revision: revision, result, in: stack)
                    let text = ModelEncoding.planText(plan, revision: revision, realPrecision: 15)
                    XCTAssertEqual(ModelEncoding.mutationText(revision: revision, result, in: stack, transition: plan),
                                   bare.dropLast() + Array(#","transition":"#.utf8) + text + [UInt8(ascii: "}")], "seed \(seed)")
                }
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, 300, "seed \(seed): too few operations applied to compare")
        XCTAssertGreaterThan(readBack, 300, "seed \(seed): too few plans read back")
        XCTAssertGreaterThan(sampled, 100, "seed \(seed): too few plans sampled")
    }
}
