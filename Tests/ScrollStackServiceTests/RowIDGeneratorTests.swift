import Foundation
@testable import ScrollStackService
import TestHTTPClient
import TestSeeds
import XCTest

/// Generated row ids are `r-` and 12 hex digits of the FNV-1a hash of
/// `"<stack>#<revision>#<attempt>"`: journals replay them, so the spelling may never change.
/// The generator hashes those bytes without making the string; these tests hash the string.
final class RowIDGeneratorTests: XCTestCase {
    /// The rule, spelled out: the string made, hashed, and formatted.
    static func expectedID(stack: String, revision: Int, attempt: Int) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in "\(stack)#\(revision)#\(attempt)".utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        let digits = String(hash & 0xFFFF_FFFF_FFFF, radix: 16)
        return "r-" + String(repeating: "0", count: 12 - digits.count) + digits
    }

    func testAKnownIDIsSpelledAsBefore() {
        // Computed independently (Python) from the string "bench#12#0".
        var generator = RowIDGenerator(stack: "bench", revision: 12)
        XCTAssertEqual(generator.next { _ in false }, "r-591eae15dace")
    }

    func testIDsAreTheHashOfTheStringForRandomStacksRevisionsAndAttempts() {
        let seed = TestSeed.seed("RowIDGeneratorTests")
        var rng = SeededRandom(seed)
        let alphabet = Array("abcXYZ019-_.~é漢🙂")
        for trial in 0..<500 {
            let stack = String((0..<(1 + Int(rng.next() % 20))).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] })
            let revision = [0, 1, 9, 10, 99, 100, Int.max, Int(rng.next() % 1_000_000_000)][Int(rng.next() % 8)]
            let taken = Int(rng.next() % 4)
            var generator = RowIDGenerator(stack: stack, revision: revision)
            var attempt = 0
            // The first `taken` candidates are refused: the id is the attempt after them.
            let id = generator.next { _ in
                attempt += 1
                return attempt <= taken
            }
            XCTAssertEqual(id, Self.expectedID(stack: stack, revision: revision, attempt: taken), "seed \(seed) trial \(trial)")
            XCTAssertEqual(generator.next { _ in false }, Self.expectedID(stack: stack, revision: revision, attempt: taken + 1),
                           "seed \(seed) trial \(trial): the count goes on")
        }
    }
}
