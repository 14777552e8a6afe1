import JSONCodec
import TestSeeds
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// The writer against jansson's own writer on seeded random values: the same bytes, always,
/// except for the writer's one departure (a precision of 15 or 16 never changes a real; see
/// `JanssonDump.writerText`).
final class JSONWriterCorpusTests: XCTestCase {
    /// A small deterministic generator (SplitMix64), so a seed replays a failure.
    struct Random: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Reals of every kind the service writes: layout values rounded to 10⁻⁶, integers held as
    /// reals, thirds, tiny and huge magnitudes, arbitrary bit patterns, negative zero.
    static func real(_ random: inout Random) -> Double {
        switch Int.random(in: 0..<8, using: &random) {
        case 0: return (Double.random(in: -1e6...1e6, using: &random) * 1e6).rounded() / 1e6
        case 1: return Double(Int.random(in: -100_000...100_000, using: &random)) / Double([1, 2, 4, 3, 7, 64, 1000][Int.random(in: 0..<7, using: &random)])
        case 2: return Double(Int64.random(in: -(1 << 60)...(1 << 60), using: &random))
        case 3: return Double(sign: .plus, exponent: Int.random(in: -1074...1023, using: &random), significand: Double.random(in: 1..<2, using: &random))
        case 4: return Double(bitPattern: random.next())
        case 5: return [0.0, -0.0, 0.1, 1e-5, 1e-4, 1e15, 1e16, 123456789012345.0, 1234567890123456.0, 0.000123456789012345][Int.random(in: 0..<10, using: &random)]
        case 6: return Double.random(in: 0..<1, using: &random) * pow(10, Double(Int.random(in: -20...20, using: &random)))
        default: return (Double.random(in: -1000...1000, using: &random) * 100).rounded() / 100
        }
    }

    static func string(_ random: inout Random) -> String {
        let pieces = ["a", "row-", "é", "✓", "𝄞", "中", "\"", "\\", "/", "\n", "\t", "\r", "\u{8}", "\u{C}", "\u{0}", "\u{1}", "\u{1F}", "\u{7F}", "\u{2028}", " ", "0"]
        return (0..<Int.random(in: 0..<12, using: &random)).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &random)] }.joined()
    }

    static func value(_ random: inout Random, depth: Int) -> JSON {
        switch Int.random(in: 0..<(depth > 4 ? 6 : 9), using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return .integer(Int64.random(in: .min ... .max, using: &random) >> Int64.random(in: 0..<64, using: &random))
        case 3, 4: return .real(real(&random))
        case 5: return .string(string(&random))
        case 6: return .number(real(&random))
        case 7: return .array((0..<Int.random(in: 0..<6, using: &random)).map { _ in value(&random, depth: depth + 1) })
        default:
            return .object(JSONObject((0..<Int.random(in: 0..<6, using: &random)).map { _ in (string(&random), value(&random, depth: depth + 1)) }))
        }
    }

    func testWriterMatchesJanssonOnRandomValues() {
        let seed = TestSeed.seed("JSONWriterCorpusTests.testWriterMatchesJanssonOnRandomValues")
        var random = Random(state: seed)
        for i in 0..<20_000 {
            let value = Self.value(&random, depth: 0)
            let precision = [15, 15, 17, 0, 1, 6, 16, 31][i % 8]
            let expected = JanssonDump.writerText(of: value, realPrecision: precision)
            let written = value.serialized(realPrecision: precision)
            if written != expected {
                XCTFail("seed \(seed), value \(i), precision \(precision): wrote \(String(decoding: written, as: UTF8.self)), jansson \(String(decoding: expected, as: UTF8.self))")
                return
            }
        }
    }

    /// A value written as text by one writer and given whole to another (`json(_:)`) reads
    /// as if the second had written it, between siblings and as a member.
    func testTextOfAValueSplicesInWithItsCommas() {
        let seed = TestSeed.seed("JSONWriterCorpusTests.testTextOfAValueSplicesInWithItsCommas")
        var random = Random(state: seed)
        for i in 0..<2_000 {
            let (first, second) = (Self.value(&random, depth: 1), Self.value(&random, depth: 1))
            var inner = JSONWriter()
            inner.value(second)
            var w = JSONWriter()
            w.beginArray()
            w.value(first)
            w.json(inner.take())
            w.beginObject()
            w.key("k")
            w.json(first.serialized())
            w.endObject()
            w.endArray()
            let expected = JSON.array([first, second, .object(JSONObject([("k", first)]))]).serialized()
            if w.take() != expected {
                XCTFail("seed \(seed), value \(i): spliced text differs")
                return
            }
        }
    }

    func testRealsMatchJansson() {
        let seed = TestSeed.seed("JSONWriterCorpusTests.testRealsMatchJansson")
        var random = Random(state: seed)
        var failures = 0
        for _ in 0..<100_000 where failures < 5 {
            let value = Self.real(&random)
            for precision in [15, 16, 17, 6] {
                let written = JSON.real(value).serialized(realPrecision: precision)
                let expected = precision < 15 ? JanssonDump.text(of: .real(value), realPrecision: precision)
                    : JanssonDump.realText(value, realPrecision: precision)
                if written != expected {
                    failures += 1
                    XCTFail("seed \(seed), \(value.bitPattern) at \(precision): \(String(decoding: written, as: UTF8.self)) vs \(String(decoding: expected, as: UTF8.self))")
                }
            }
        }
    }
}
