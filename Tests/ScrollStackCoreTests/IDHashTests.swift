import TestSeeds
import XCTest
@testable import ScrollStackCore

/// `IDHash` agrees with `String`'s `==` (canonical equivalence), at every length its folding
/// treats apart (0, 1–3, 4–7, 8–16, over 16 bytes), and `IDIndex` over it finds what a
/// `Dictionary` finds.
final class IDHashTests: XCTestCase {
    func testCanonicallyEquivalentIDsHashAlike() {
        let pad = String(repeating: "x", count: 20)
        let pairs: [(String, String)] = [
            ("K", "\u{212A}"),  // KELVIN SIGN is K
            (";", "\u{037E}"),  // GREEK QUESTION MARK is ;
            ("é", "e\u{301}"),
            ("row-K", "row-\u{212A}"),
            ("cell-é-12", "cell-e\u{301}-12"),
            (pad + "K" + pad, pad + "\u{212A}" + pad),
            (pad + "é", pad + "e\u{301}"),
            ("\u{1E69}", "s\u{323}\u{307}"),  // ṩ, and s with its two marks
            ("\u{AC00}", "\u{1100}\u{1161}"),  // 가, and its jamo
        ]
        for (a, b) in pairs {
            XCTAssertEqual(a, b, "the pair \(a.unicodeScalars.map(\.value)) is not equal as Strings")
            XCTAssertEqual(IDIndex.hash(a), IDIndex.hash(b), "\(a.unicodeScalars.map(\.value)) vs \(b.unicodeScalars.map(\.value))")
        }
    }

    /// The rule of Semantics.md: ids equal under canonical equivalence are one id.
    func testAStackTreatsCanonicallyEquivalentIDsAsOne() throws {
        let cell = RowContent.view(ViewDescriptor(type: "Cell"))
        var stack = try ScrollStack(rows: [Row(id: "K", content: cell, size: .fixed(10)), Row(id: "e\u{301}", content: cell, size: .fixed(10))])
        XCTAssertEqual(stack.index(ofID: "\u{212A}"), 0)
        XCTAssertEqual(stack.index(ofID: "é"), 1)
        XCTAssertThrowsError(try stack.insert([Row(id: "\u{212A}", content: cell, size: .fixed(10))])) { error in
            XCTAssertEqual((error as? StackError)?.code, .duplicateID)
        }
        var batch = RowBatch()
        for i in 0..<100 { batch.append(id: "b\(i)", content: cell, size: .fixed(10)) }
        batch.append(id: "\u{212A}", content: cell, size: .fixed(10))
        XCTAssertThrowsError(try stack.insert(batch)) { error in
            XCTAssertEqual((error as? StackError)?.code, .duplicateID)
            XCTAssertEqual((error as? StackError)?.field, "rows[100].id")
        }
        stack.checkInvariants()
        // Compared by code points: `==` would not tell the spellings apart.
        XCTAssertEqual(stack.rows.map { $0.id.unicodeScalars.map(\.value) }, [[0x4B], [0x65, 0x301]], "the ids keep their spelling")
    }

    func testDistinctIDsOfEveryLengthHashApart() {
        // Ids that differ in one byte, at every position, for lengths 1…40: a fold that
        // skipped a byte would give two of them one hash. 32-bit hashes of ~800 ids collide
        // by chance with probability ~1e-4, so at most one collision is allowed.
        var seen: [UInt32: String] = [:]
        var collisions = 0
        for length in 1...40 {
            for position in 0..<length {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                bytes[position] = UInt8(ascii: "b")
                let id = String(decoding: bytes, as: UTF8.self)
                if seen.updateValue(id, forKey: IDIndex.hash(id)) != nil { collisions += 1 }
            }
        }
        XCTAssertLessThanOrEqual(collisions, 1)
        XCTAssertNotEqual(IDIndex.hash(""), IDIndex.hash("\0"), "the length is part of the hash")
    }

    func testIndexFindsWhatADictionaryFinds() {
        let seed = TestSeed.seed("IDHashTests.testIndexFindsWhatADictionaryFinds")
        var rng = SplitMix64(seed: seed)
        let pieces = ["a", "b", "K", "\u{212A}", "é", "e\u{301}", "-", "7", "가", "\u{1100}\u{1161}", "🙂", "row"]
        func randomID() -> String {
            let count = Int(rng.next() % 24)
            return (0..<count).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
        }
        var index = IDIndex()
        var keys: [String] = []
        var expected: [String: Int32] = [:]
        for _ in 0..<4000 {
            let id = randomID()
            let handle = Int32(keys.count)
            keys.append(id)
            let found = index.insertIfAbsent(id, handle: handle, keys: keys)
            XCTAssertEqual(found, expected[id], "seed \(seed): inserting \(id.unicodeScalars.map(\.value))")
            if expected[id] == nil { expected[id] = handle }
        }
        XCTAssertEqual(index.count, expected.count, "seed \(seed)")
        for _ in 0..<4000 {
            let probe = randomID()
            XCTAssertEqual(index.find(probe, keys: keys), expected[probe], "seed \(seed): finding \(probe.unicodeScalars.map(\.value))")
        }
        // Built in bulk over the first handle of each id, the index finds the same.
        let firstKeys = keys.indices.filter { expected[keys[$0]] == Int32($0) }.map { keys[$0] }
        var built = IDIndex()
        XCTAssertTrue(built.build(keys: firstKeys), "seed \(seed)")
        for (k, id) in firstKeys.enumerated() { XCTAssertEqual(built.find(id, keys: firstKeys), Int32(k), "seed \(seed)") }
        var repeated = IDIndex()
        XCTAssertFalse(repeated.build(keys: firstKeys + [firstKeys[0]]), "seed \(seed): a repeated id")
    }
}
