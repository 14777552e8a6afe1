import XCTest
import ScrollStackCore
@testable import ScrollStackPiles
import ScrollStackTransitions

/// 3D transforms: Core Animation's matrices and conventions, their composition, and the CSS
/// Transforms Level 2 decomposition and interpolation.
final class Transform3DTests: XCTestCase {
    func assertClose(_ a: Transform3D, _ b: Transform3D, accuracy: Double = 1e-9, _ message: String = "", file: StaticString = #filePath, line: UInt = #line) {
        for i in 0..<16 where abs(a.m[i] - b.m[i]) > accuracy * max(1, abs(a.m[i]), abs(b.m[i])) {
            XCTFail("m\(i / 4 + 1)\(i % 4 + 1): \(a.m[i]) ≠ \(b.m[i]) \(message)\n\(a.m)\n\(b.m)", file: file, line: line)
            return
        }
    }

    /// A deterministic generator (xorshift64*), so failures reproduce.
    struct Generator {
        var state: UInt64
        mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
        mutating func uniform(_ low: Double, _ high: Double) -> Double { low + (high - low) * unit() }
    }

    func testRotationIsCoreAnimationsAndPositiveTurnsXTowardsY() {
        let z = Transform3D.rotation(degrees: 90, x: 0, y: 0, z: 1)
        assertClose(z, Transform3D([0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]))
        // About y, CATransform3DMakeRotation(θ, 0, 1, 0) has m13 = −sin θ and m31 = sin θ.
        let y = Transform3D.rotation(degrees: 30, x: 0, y: 2, z: 0)
        XCTAssertEqual(y[0, 2], -0.5, accuracy: 1e-12)
        XCTAssertEqual(y[2, 0], 0.5, accuracy: 1e-12)
        XCTAssertEqual(y[0, 0], 3.0.squareRoot() / 2, accuracy: 1e-12, "the axis is normalised")
    }

    func testPerspectiveSetsM34() {
        let p = PileTransformOperation.compose([.perspective(1000)])
        XCTAssertEqual(p[2, 3], -0.001)
        XCTAssertEqual(p.m.enumerated().filter { $0.offset != 11 }.map(\.element), Transform3D.identity.m.enumerated().filter { $0.offset != 11 }.map(\.element))
    }

    func testCompositionAppliesTheFirstOperationFirst() {
        // Translate 10 along x, then turn a quarter about z: the origin ends at (0, 10).
        let translateThenRotate = PileTransformOperation.compose([.translate(x: 10, y: 0, z: 0), .rotate(degrees: 90, x: 0, y: 0, z: 1)])
        XCTAssertEqual(translateThenRotate[3, 0], 0, accuracy: 1e-12)
        XCTAssertEqual(translateThenRotate[3, 1], 10, accuracy: 1e-12)
        let rotateThenTranslate = PileTransformOperation.compose([.rotate(degrees: 90, x: 0, y: 0, z: 1), .translate(x: 10, y: 0, z: 0)])
        XCTAssertEqual(rotateThenTranslate[3, 0], 10, accuracy: 1e-12)
        XCTAssertEqual(rotateThenTranslate[3, 1], 0, accuracy: 1e-12)
        // Pile's example, CATransform3DConcat(perspective, rotation): the product P · R.
        let example = PileTransformOperation.compose([.perspective(1000), .rotate(degrees: 90, x: 0, y: 1, z: 0)])
        assertClose(example, Transform3D.perspective(1000).concatenating(.rotation(degrees: 90, x: 0, y: 1, z: 0)))
        XCTAssertEqual(example[2, 3], -0.001, accuracy: 1e-15)
        XCTAssertEqual(PileTransformOperation.compose([]), .identity)
    }

    func testViolationsNameTheOperationsMember() {
        let metric = PileMetric(transform: [.perspective(500), .rotate(degrees: 40_000, x: 0, y: 1, z: 0)])
        XCTAssertEqual(metric.violation(in: Rect(x: 0, y: 0, width: 10, height: 10))?.member, "transform[1].rotate.angle")
        XCTAssertEqual(PileTransformOperation.rotate(degrees: 10, x: 0, y: 0, z: 0).violation()?.member, "rotate")
        XCTAssertEqual(PileTransformOperation.perspective(0).violation()?.member, "perspective")
        XCTAssertEqual(PileTransformOperation.scale(x: 1, y: .infinity, z: 1).violation()?.member, "scale.y")
        XCTAssertEqual(PileTransformOperation.translate(x: 0, y: 0, z: 2e9).violation()?.member, "translate.z")
        XCTAssertNil(PileTransformOperation.scale(x: -1, y: 0, z: 1).violation())
        let huge = PileMetric(transform: Array(repeating: .scale(x: 1e9, y: 1, z: 1), count: 40))
        XCTAssertEqual(huge.violation(in: Rect(x: 0, y: 0, width: 10, height: 10))?.member, "transform", "1e360 is no double")
    }

    func testDecompositionRecomposesRandomMatrices() {
        var random = Generator(state: 0x5EED_0042)
        for trial in 0..<500 {
            let operations: [PileTransformOperation] = [
                .perspective(random.uniform(200, 3000)),
                .scale(x: random.uniform(0.2, 3) * (random.unit() < 0.2 ? -1 : 1), y: random.uniform(0.2, 3), z: random.uniform(0.2, 3)),
                .rotate(degrees: random.uniform(-180, 180), x: random.uniform(-1, 1), y: random.uniform(-1, 1), z: random.uniform(-1, 1)),
                .translate(x: random.uniform(-300, 300), y: random.uniform(-300, 300), z: random.uniform(-300, 300)),
                .rotate(degrees: random.uniform(-180, 180), x: random.uniform(-1, 1), y: random.uniform(-1, 1), z: random.uniform(-1, 1)),
            ].shuffled(using: &random)
            let matrix = PileTransformOperation.compose(operations)
            guard let parts = matrix.decomposed() else { return XCTFail("trial \(trial): not decomposable") }
            XCTAssertEqual(Transform3D.dot4(parts.quaternion, parts.quaternion), 1, accuracy: 1e-12)
            // The spec's decomposition divides by m44 first: the same transform, normalised.
            XCTAssertEqual(Transform3D(recomposing: parts)[3, 3], 1, accuracy: 1e-12)
            assertClose(Transform3D(recomposing: parts), Transform3D(matrix.m.map { $0 / matrix[3, 3] }), accuracy: 1e-8, "trial \(trial)")
        }
    }

    func testHalfTurnsAndMirrorsRecompose() {
        for matrix in [Transform3D.rotation(degrees: 180, x: 1, y: 1, z: 0), .rotation(degrees: 180, x: 0, y: 1, z: 0),
                       .rotation(degrees: 179.9999, x: 1, y: -2, z: 0.5), .scale(x: -1, y: 1, z: 1), .scale(x: 2, y: -3, z: -1)] {
            guard let parts = matrix.decomposed() else { return XCTFail("\(matrix.m) not decomposable") }
            assertClose(Transform3D(recomposing: parts), matrix)
        }
    }

    func testTwoDMatricesDecomposeInThePlane() throws {
        let mirrored = PileTransformOperation.compose([.scale(x: -2, y: 1, z: 1), .rotate(degrees: 30, x: 0, y: 0, z: 1), .translate(x: 5, y: -7, z: 0)])
        XCTAssertTrue(mirrored.is2D)
        let parts = try XCTUnwrap(mirrored.decomposed())
        XCTAssertEqual(parts.scale[2], 1, "one axis negated, not all three")
        XCTAssertEqual(parts.quaternion[0], 0)
        XCTAssertEqual(parts.quaternion[1], 0)
        assertClose(Transform3D(recomposing: parts), mirrored)
        // Halfway from the identity, a mirror stays in the plane (the 3D rule would turn it through z).
        let halfway = Transform3D.interpolate(.identity, mirrored, 0.5)
        XCTAssertTrue(halfway.is2D, "no turn through 3D: \(halfway.m)")
        XCTAssertNil(Transform3D.scale(x: 0, y: 1, z: 1).decomposed())
    }

    func testInterpolationEndsAreExactAndAQuarterTurnHalvesToAnEighth() {
        let from = Transform3D.identity, to = Transform3D.rotation(degrees: 90, x: 0, y: 0, z: 1)
        XCTAssertEqual(Transform3D.interpolate(from, to, 0), from)
        XCTAssertEqual(Transform3D.interpolate(from, to, 1), to)
        assertClose(Transform3D.interpolate(from, to, 0.5), .rotation(degrees: 45, x: 0, y: 0, z: 1))
        assertClose(Transform3D.interpolate(.rotation(degrees: 90, x: 0, y: 1, z: 0), .rotation(degrees: 0, x: 0, y: 1, z: 0), 0.25),
                    .rotation(degrees: 67.5, x: 0, y: 1, z: 0))
        // The parts other than the rotation follow the progress linearly (and past its ends).
        let moved = Transform3D.interpolate(.translation(x: 0, y: 0, z: 0), .translation(x: 100, y: -50, z: 10), 1.2)
        assertClose(moved, .translation(x: 120, y: -60, z: 12))
        assertClose(Transform3D.interpolate(.scale(x: 1, y: 1, z: 1), .scale(x: 3, y: 2, z: 1), 0.5), .scale(x: 2, y: 1.5, z: 1))
    }

    func testTheShorterArcIsTaken() {
        // −170° to 170° about z goes the 20° through 180°, not the 340° through 0°.
        let halfway = Transform3D.interpolate(.rotation(degrees: -170, x: 0, y: 0, z: 1), .rotation(degrees: 170, x: 0, y: 0, z: 1), 0.5)
        assertClose(halfway, .rotation(degrees: 180, x: 0, y: 0, z: 1))
    }

    func testSingularMatricesSwitchHalfway() {
        let flat = Transform3D.scale(x: 0, y: 1, z: 1), turned = Transform3D.rotation(degrees: 60, x: 0, y: 0, z: 1)
        XCTAssertNil(flat.decomposed())
        XCTAssertNil(Transform3D([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0]).decomposed(), "m44 = 0")
        XCTAssertEqual(Transform3D.interpolate(flat, turned, 0.49), flat)
        XCTAssertEqual(Transform3D.interpolate(flat, turned, 0.5), turned)
        XCTAssertEqual(Transform3D.interpolate(turned, flat, 0.2), turned)
    }

    func testPileStatesCarryMatricesOnlyWhenAMetricHasATransform() throws {
        let bounds = Rect(x: 0, y: 0, width: 320, height: 480)
        let view = { (id: String) in PileView(id: id, content: .view(ViewDescriptor(type: "Card"))) }
        var plain = try Pile(bounds: bounds)
        XCTAssertNil(try plain.push(view("a")).motions[0].from.transform)
        let turned = PileMetric(alpha: 0, transform: [.perspective(1000), .rotate(degrees: 90, x: 0, y: 1, z: 0)])
        var pile = try Pile(bounds: bounds, metrics: PileMetrics(leading: turned))
        _ = try pile.push(view("a"))
        let change = try pile.push(view("b"))
        XCTAssertEqual(change.motions[0].from.transform, .identity, "the active metric has no transform of its own")
        XCTAssertEqual(change.motions[1].from.transform, turned.matrix)
        let plan = PilePlan(animated: true, timing: AnimationTiming(duration: 1, damping: 1, curve: .linear), motions: change.motions)
        let frames = plan.keyframes(fps: 4)
        XCTAssertEqual(frames.first?.views[1].state.transform, turned.matrix)
        XCTAssertEqual(frames.last?.views[1].state.transform, .identity)
        XCTAssertEqual(frames[2].views[1].state.transform, Transform3D.interpolate(turned.matrix, .identity, frames[2].progress))
    }
}

extension Transform3DTests.Generator: RandomNumberGenerator {
    mutating func next() -> UInt64 {
        state ^= state >> 12; state ^= state << 25; state ^= state >> 27
        return state &* 2685821657736338717
    }
}
