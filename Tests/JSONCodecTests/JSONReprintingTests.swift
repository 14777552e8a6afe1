import Foundation
import JSONCodec
import TestSeeds
import XCTest

/// `JSON.reprinted(_:realPrecision:)` against parsing and writing again, on seeded random
/// values written by this module (which it must copy) and on those texts mutated byte by byte
/// (which it must either refuse or copy exactly as parsing and writing again gives).
final class JSONReprintingTests: XCTestCase {
    typealias Random = JSONWriterCorpusTests.Random

    /// What parsing and writing again gives, nil when the text does not parse.
    static func reference(_ text: [UInt8], _ precision: Int) -> [UInt8]? {
        (try? JSON.parse(text))?.serialized(realPrecision: precision)
    }

    /// Whether `value` holds what `reprinted` refuses though this module writes it: a NUL in
    /// a string, an object over `JSON.reprintingMaxMembers`.
    static func refused(_ value: JSON) -> Bool {
        switch value {
        case .string(let s): s.utf8.contains(0)
        case .array(let elements): elements.contains(where: refused)
        case .object(let object): object.count > JSON.reprintingMaxMembers || object.contains { $0.key.utf8.contains(0) || refused($0.value) }
        default: false
        }
    }

    /// `text` with one random change: a byte dropped, repeated or replaced; whitespace, an
    /// escape or a number form jansson reads but this module never writes put in.
    static func mutated(_ text: [UInt8], _ random: inout Random) -> [UInt8] {
        var text = text
        guard !text.isEmpty else { return Array(" ".utf8) }
        let at = Int.random(in: 0..<text.count, using: &random)
        let insertions = [" ", "\n", "\\/", "\\u0041", "\\u00e9", "\\u001f", "\\u0000", "\\ud834\\udd1e", "-0", "01", "1e400", "1E2", "1.5e-3",
                          "-", ".", "e", "0", "99999999999999999999", "\u{7F}", "\u{1}", "é", "\"a\":1,", ",", ":", "[", "]", "{", "}", "tru", "null"]
        switch Int.random(in: 0..<5, using: &random) {
        case 0: text.remove(at: at)
        case 1: text.insert(text[at], at: at)
        case 2: text[at] = [0xFF, 0xC3, 0xED, 0xA0, 0x80, 0x22, 0x5C, 0x30][Int.random(in: 0..<8, using: &random)]
        default: text.insert(contentsOf: Array(insertions[Int.random(in: 0..<insertions.count, using: &random)].utf8), at: at)
        }
        return text
    }

    func testReprintingMatchesParsingAndWritingAgain() {
        let seed = TestSeed.seed("JSONReprintingTests")
        var random = Random(state: seed)
        var (copied, mutants, mutantsCopied, mutantsParsed) = (0, 0, 0, 0)
        for i in 0..<10_000 {
            let value = JSONWriterCorpusTests.value(&random, depth: 0)
            let text = value.serialized(realPrecision: [17, 15, 0, 10][i % 4])
            let precision = [15, 17, 6, 31][Int.random(in: 0..<4, using: &random)]
            let reprinted = JSON.reprinted(text, realPrecision: precision)
            if Self.refused(value) {
                XCTAssertTrue(reprinted == nil || reprinted == Self.reference(text, precision), "seed \(seed), value \(i)")
            } else {
                guard let reprinted else { return XCTFail("seed \(seed), value \(i): refused \(String(decoding: text, as: UTF8.self))") }
                XCTAssertEqual(String(decoding: reprinted, as: UTF8.self), Self.reference(text, precision).map { String(decoding: $0, as: UTF8.self) },
                               "seed \(seed), value \(i)")
                copied += 1
            }
            for _ in 0..<3 {
                let mutant = Self.mutated(text, &random)
                let expected = Self.reference(mutant, precision)
                mutants += 1
                if expected != nil { mutantsParsed += 1 }
                guard let got = JSON.reprinted(mutant, realPrecision: precision) else { continue }
                mutantsCopied += 1
                if got != expected {
                    return XCTFail("seed \(seed), value \(i): \(String(decoding: mutant, as: UTF8.self)) reprinted as \(String(decoding: got, as: UTF8.self)), "
                                   + "parsed and written as \(expected.map { String(decoding: $0, as: UTF8.self) } ?? "an error")")
                }
            }
        }
        print("JSONReprintingTests: \(copied) values copied; \(mutants) mutants, \(mutantsParsed) parse, \(mutantsCopied) copied")
        XCTAssertGreaterThan(copied, 8_000, "seed \(seed)")
        XCTAssertGreaterThan(mutantsCopied, 1_000, "seed \(seed): too few mutants copied to compare")
        XCTAssertGreaterThan(mutantsParsed - mutantsCopied, 300, "seed \(seed): too few mutants refused that parse")
    }

    func testTheFormsItRefuses() {
        for text in [" 1", "1 ", "[1, 2]", "\"\\/\"", "\"\\u0041\"", "\"\\u001f\"", "\"\\u0000\"", "-0", "01", "1e400", "9223372036854775808", "-9223372036854775809",
                     "{\"a\":1,\"a\":2}", "\"\u{1}\"", "", "[", "[1,]", "{\"a\"}", "tru", "1 2", "\"\\ud834\\udd1e\""] {
            XCTAssertNil(JSON.reprinted(Array(text.utf8), realPrecision: 15), text)
        }
        XCTAssertNil(JSON.reprinted([0x22, 0xED, 0xA0, 0x80, 0x22], realPrecision: 15), "a surrogate in UTF-8")
        XCTAssertNil(JSON.reprinted(Array(String(repeating: "[", count: JSON.reprintingMaxDepth + 1).utf8) + Array(String(repeating: "]", count: JSON.reprintingMaxDepth + 1).utf8), realPrecision: 15))
        for text in ["9223372036854775807", "-9223372036854775808", "999999999999999999"] {
            XCTAssertEqual(JSON.reprinted(Array(text.utf8), realPrecision: 15), Array(text.utf8), text)
        }
        XCTAssertEqual(JSON.reprinted(Array("{\"x\":[1.2345678901234567,-0.0,1E2,\"\\u001F\\n\",true,null,-12]}".utf8), realPrecision: 6).map { String(decoding: $0, as: UTF8.self) },
                       "{\"x\":[1.23457,-0.0,100.0,\"\\u001F\\n\",true,null,-12]}")
        XCTAssertEqual(JSON.reprinted(Array("[1.2345678901234567,0.10000000000000001]".utf8), realPrecision: 15).map { String(decoding: $0, as: UTF8.self) },
                       "[1.2345678901234567,0.1]", "15 digits, or more where fewer would change the real")
    }
}
