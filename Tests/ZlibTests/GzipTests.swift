import TestSeeds
import XCTest
import Zlib

final class GzipTests: XCTestCase {
    func testRoundTripsAndWritesGzipMembers() throws {
        let seed = TestSeed.seed("GzipTests")
        var state = seed
        func next() -> UInt8 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        let text = Array(String(repeating: #"{"id":"row","frame":{"x":0,"y":44}},"#, count: 2000).utf8)
        let noise = (0..<100_000).map { _ in next() }
        for input in [[], text, noise] {
            let packed = try Gzip.compress(input)
            XCTAssertEqual(Array(packed.prefix(3)), [0x1F, 0x8B, 8], "a gzip member (seed \(seed))")
            XCTAssertEqual(try Gzip.decompress(packed), input, "seed \(seed)")
        }
        XCTAssertLessThan(try Gzip.compress(text).count, text.count / 20, "repetitive JSON shrinks")
        let two = try Gzip.compress(Array("ab".utf8)) + Gzip.compress(Array("cd".utf8))
        XCTAssertEqual(try Gzip.decompress(two), Array("abcd".utf8), "concatenated members")
    }

    func testRejectsBrokenStreams() throws {
        let packed = try Gzip.compress(Array(repeating: 65, count: 10_000))
        XCTAssertThrowsError(try Gzip.decompress(Array(packed.dropLast(6))), "truncated")
        XCTAssertThrowsError(try Gzip.decompress(Array("not gzip".utf8)))
        XCTAssertThrowsError(try Gzip.decompress(packed, limit: 100), "over the limit")
    }
}
