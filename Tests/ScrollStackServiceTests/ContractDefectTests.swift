import JSONCodec
import XCTest

/// Defects checking the API against its contract found: error paths for keys holding path syntax, `Allow`
/// on 405 answers, and springs too slow to sample.
final class ContractDefectTests: XCTestCase {
    var server: ServerHarness!

    override func setUpWithError() throws {
        server = try ServerHarness()
        let created = try server.request("POST", "/v1/stacks", json: object(("id", "s"), ("rows", [row("a"), row("b")])))
        XCTAssertEqual(created.status, 201, created.text)
    }

    override func tearDown() { server.stop() }

    /// A key holding `.`, `[`, `]`, `"`, `\`, a control character, or no character at all is
    /// written in brackets as a JSON string; a plain key after a dot (Docs/API.md).
    func testErrorPathsBracketKeysThatHoldPathSyntax() throws {
        let cases: [(key: String, path: String)] = [
            ("a.b", #"rows[0]["a.b"]"#),
            ("x[0]", #"rows[0]["x[0]"]"#),
            ("]", #"rows[0]["]"]"#),
            ("say \"hi\"", #"rows[0]["say \"hi\""]"#),
            ("back\\slash", #"rows[0]["back\\slash"]"#),
            ("tab\there", #"rows[0]["tab\there"]"#),
            ("", #"rows[0][""]"#),
            ("plain-key é", "rows[0].plain-key é"),
        ]
        for (key, path) in cases {
            var member = row("n").objectValue!
            member[key] = .integer(1)
            let reply = try server.request("POST", "/v1/stacks/s/rows", json: object(("rows", [.object(member)])))
            XCTAssertEqual(reply.status, 422, reply.text)
            XCTAssertEqual(reply.errorCode, "unknown_field", reply.text)
            XCTAssertEqual(reply.errorField, path, "key \(key.debugDescription)")
        }
        // At the top level, no dot before a plain key and brackets alone for the others.
        let top = try server.request("POST", "/v1/stacks/s/rows", json: object(("rows", []), ("a.b", 1)))
        XCTAssertEqual(top.errorField, #"["a.b"]"#, top.text)
        let plain = try server.request("POST", "/v1/stacks/s/rows", json: object(("rows", []), ("zz", 1)))
        XCTAssertEqual(plain.errorField, "zz", plain.text)
        // A member of a bracketed key continues with a dot.
        var nested = row("n").objectValue!
        nested["size"] = object(("fixed", 10), ("k.k", object()))
        let deeper = try server.request("POST", "/v1/stacks/s/rows", json: object(("rows", [.object(nested)])))
        XCTAssertEqual(deeper.errorField, #"rows[0].size["k.k"]"#, deeper.text)
    }

    /// A model rule naming a place below a member (`relativeOffset.y`) keeps the dots.
    func testRulePathsBelowAMemberKeepTheirDots() throws {
        let pile = object(("id", "p"), ("bounds", object(("width", 320), ("height", 480))),
                          ("metrics", object(("trailing", object(("relativeOffset", object(("y", -5e14))))))))
        let reply = try server.request("POST", "/v1/piles", json: pile)
        XCTAssertEqual(reply.status, 422, reply.text)
        XCTAssertEqual(reply.errorField, "metrics.trailing.relativeOffset.y", reply.text)
        let timing = try server.request("POST", "/v1/stacks/s/rows", json: object(("rows", [row("n")]), ("animation", object(("duration", -1)))))
        XCTAssertEqual(timing.errorField, "animation.duration", timing.text)
    }

    /// A 405 lists every method the path answers, OPTIONS included: the same list as the 204
    /// answer to OPTIONS on that path.
    func testMethodNotAllowedListsOptionsLikeTheOptionsAnswer() throws {
        for path in ["/v1/stacks", "/v1/stacks/s", "/v1/stacks/s/rows", "/v1/stacks/s/rows/batch", "/v1/stacks/s/layout", "/healthz", "/v1/piles"] {
            let options = try server.request("OPTIONS", path)
            XCTAssertEqual(options.status, 204, path)
            let refused = try server.request("TRACE", path)
            XCTAssertEqual(refused.status, 405, path)
            XCTAssertEqual(refused.header("allow"), options.header("allow"), path)
            XCTAssertEqual(refused.header("allow")?.hasSuffix(", OPTIONS"), true, path)
        }
    }

    /// A spring whose damping makes it ring for ~10³⁰¹ s is refused from its frame count,
    /// which is computed, not sampled (the server used to build the frames first and ran out
    /// of memory); so is sampling a kept plan of such a spring.
    func testASpringTooSlowToSampleIsRefusedAtOnce() throws {
        let slow = object(("damping", 1e-300), ("duration", 1))
        let sampled = try server.request("POST", "/v1/stacks/s/rows", json: object(("rows", [row("n")]), ("animation", slow), ("fps", 60)))
        XCTAssertEqual(sampled.status, 422, sampled.text)
        XCTAssertEqual(sampled.errorField, "fps", sampled.text)
        XCTAssertTrue(sampled.text.contains("gives more than 10^15 keyframes"), sampled.text)
        let kept = try server.request("POST", "/v1/stacks/s/rows", json: object(("rows", [row("m")]), ("animation", slow)))
        XCTAssertEqual(kept.status, 200, kept.text)
        let revision = try XCTUnwrap(kept["revision"]?.int64Value)
        let later = try server.request("GET", "/v1/stacks/s/transitions/\(revision)?fps=240")
        XCTAssertEqual(later.status, 422, later.text)
        XCTAssertEqual(later.errorCode, "invalid_value", later.text)
        XCTAssertEqual(later.errorField, "fps", later.text)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s/transitions/\(revision)").status, 200, "the plan itself is kept")
        XCTAssertEqual(try server.request("GET", "/healthz").status, 200)
    }

    /// A duration so short that the spring's stiffness (2π / duration)² would overflow to
    /// infinity (schemathesis sent 5.25e-212 s and got `"stiffness": null`) is refused, as is
    /// anything under a millisecond; a millisecond itself is accepted with a finite stiffness.
    func testADurationUnderAMillisecondIsRefused() throws {
        for duration in [5.251998305341398e-212, 1e-154, 0.000999] {
            let answer = try server.request("POST", "/v1/stacks/s/scroll", json: object(("offset", object()), ("animation", object(("duration", .real(duration)))), ("fps", 60)))
            XCTAssertEqual(answer.status, 422, answer.text)
            XCTAssertEqual(answer.errorField, "animation.duration", answer.text)
            XCTAssertTrue(answer.text.contains("between 0.001 and 3600"), answer.text)
        }
        let shortest = try server.request("POST", "/v1/stacks/s/scroll", json: object(("offset", object()), ("animation", object(("duration", .real(0.001)))), ("fps", 60)))
        XCTAssertEqual(shortest.status, 200, shortest.text)
        XCTAssertTrue(shortest.text.contains(#""stiffness":39478417.604357,"#), shortest.text)  // (2π / 0.001)²
    }

    /// A damping so close to 0 (2.2e-309, a subnormal, found by schemathesis) that the settle time overflows
    /// to infinity (then written as `"settleTime": null`) is refused naming the damping; 1e-300
    /// still settles in finite (if astronomical) time and is kept.
    func testADampingWhoseSettleTimeOverflowsIsRefused() throws {
        let refused = try server.request("PATCH", "/v1/stacks/s/rows/a", json: object(("hidden", true), ("animation", object(("duration", .real(1.900427)), ("damping", .real(Double.leastNormalMagnitude / 10))))))
        XCTAssertEqual(refused.status, 422, refused.text)
        XCTAssertEqual(refused.errorField, "animation.damping", refused.text)
        XCTAssertTrue(refused.text.contains("never to settle") || refused.text.contains("ever to settle"), refused.text)
        let kept = try server.request("PATCH", "/v1/stacks/s/rows/a", json: object(("hidden", true), ("animation", object(("duration", .real(1.900427)), ("damping", .real(1e-300))))))
        XCTAssertEqual(kept.status, 200, kept.text)
        XCTAssertFalse(kept.text.contains(#""settleTime":null"#), kept.text)
    }
}
