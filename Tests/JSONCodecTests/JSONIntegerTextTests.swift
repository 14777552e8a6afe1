import JSONCodec
import TestSeeds
import XCTest

/// Integers as the writer and a cursor write them, against Swift's own decimal text: every
/// digit count, both sides of every power of ten, and seeded random values of every size.
final class JSONIntegerTextTests: XCTestCase {
    /// The value written alone by a writer, and by a cursor after a comma.
    func texts(_ value: Int64) -> (writer: String, cursor: String) {
        var w = JSONWriter()
        w.integer(value)
        var c = JSONWriter()
        c.beginArray()
        c.integer(0)
        c.write(room: JSONCursor.integerRoom + 1) { $0.integer(value) }
        c.endArray()
        return (String(decoding: w.take(), as: UTF8.self), String(decoding: c.take(), as: UTF8.self))
    }

    func check(_ value: Int64, file: StaticString = #filePath, line: UInt = #line) {
        let (writer, cursor) = texts(value)
        XCTAssertEqual(writer, String(value), file: file, line: line)
        XCTAssertEqual(cursor, "[0,\(value)]", file: file, line: line)
    }

    func testEveryPowerOfTenAndItsNeighbours() {
        var power: Int64 = 1
        for exponent in 0...18 {
            for value in [power - 1, power, power + 1, power * 2 - 1, power * 5, power * 9 + 7] {
                check(value)
                check(-value)
            }
            if exponent < 18 { power *= 10 }
        }
        for value in [Int64.max, Int64.min, Int64.max - 1, Int64.min + 1, 0, 7, 42, 100, 999, 1_000, 9_999, 10_000, 10_001, 99_999_999, 100_000_000] {
            check(value)
        }
    }

    func testSeededRandomValuesOfEverySize() {
        let seed = TestSeed.seed("JSONIntegerTextTests")
        var random = JSONWriterCorpusTests.Random(state: seed)
        for _ in 0..<20_000 {
            let bits = Int.random(in: 1...63, using: &random)
            let magnitude = Int64.random(in: 0...(Int64.max >> (63 - bits)), using: &random)
            check(Bool.random(using: &random) ? magnitude : -magnitude)
        }
    }
}
