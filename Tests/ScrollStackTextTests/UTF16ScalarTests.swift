@testable import ScrollStackText
import TestSeeds
import XCTest

/// The shaper walks a paragraph's UTF-16 units scalar by scalar without making a `String`:
/// it must read exactly the scalars, and widths, that `String(decoding:as: UTF16.self)` reads,
/// unpaired surrogates included.
final class UTF16ScalarTests: XCTestCase {
    /// The scalars and their widths as the standard library decodes `units`.
    func reference(_ units: [UInt16]) -> [(UInt32, Int)] {
        String(decoding: units, as: UTF16.self).unicodeScalars.map { ($0.value, $0.utf16.count) }
    }

    func decoded(_ units: [UInt16]) -> [(UInt32, Int)] {
        var out: [(UInt32, Int)] = []
        var i = 0
        while i < units.count {
            let (value, width) = Shaper.scalar(in: units, at: i)
            out.append((value, width))
            i += width
        }
        return out
    }

    func testKnownUnits() {
        let cases: [[UInt16]] = [
            [], Array("abc".utf16), Array("日本語 🎉 مرحبا".utf16),
            [0xD83C], [0xDF89], [0xD83C, 0x0041], [0x0041, 0xDF89, 0xD83C, 0xDF89], [0xD800, 0xD800, 0xDC00], [0xFFFF, 0xE000],
        ]
        for units in cases {
            XCTAssertTrue(decoded(units).elementsEqual(reference(units), by: ==), "\(units)")
        }
    }

    func testRandomUnitsWithSurrogates() {
        let seed = TestSeed.seed("UTF16ScalarTests.random")
        var rng = SplitMix(seed: seed)
        // Units drawn mostly near the surrogate range, so that pairs, lone halves and
        // reversed pairs all come up often.
        let pools: [ClosedRange<UInt16>] = [0x0000...0x007F, 0xD7F0...0xD800, 0xD800...0xDBFF, 0xDC00...0xDFFF, 0xDFF0...0xE010, 0xFFF0...0xFFFF]
        for trial in 0..<5_000 {
            let units = (0..<rng.next(12)).map { _ -> UInt16 in
                let pool = pools[rng.next(pools.count)]
                return pool.lowerBound + UInt16(rng.next(Int(pool.upperBound - pool.lowerBound) + 1))
            }
            XCTAssertTrue(decoded(units).elementsEqual(reference(units), by: ==), "seed \(seed) trial \(trial): \(units)")
        }
    }
}
