import CZlib
import TestSeeds
import XCTest
import Zlib

final class ZlibStreamTests: XCTestCase {
    /// Zlib streams (RFC 1950 header) that inflate to the input, at the fastest and the
    /// smallest levels.
    func testStreamsRoundTrip() throws {
        let seed = TestSeed.seed("ZlibStreamTests")
        var state = seed
        func next() -> UInt8 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        let runs = (0..<50_000).map { UInt8(($0 / 700) % 3) }
        let noise = (0..<50_000).map { _ in next() }
        for input in [[], runs, noise] {
            for level: Int32 in [1, 9] {
                let packed = try input.withUnsafeBytes { try ZlibStream.compress($0, level: level) }
                XCTAssertEqual(packed.first, 0x78, "a zlib header (seed \(seed))")
                var output = [UInt8](repeating: 0, count: input.count + 1)
                var length = uLongf(output.count)
                XCTAssertEqual(uncompress(&output, &length, packed, uLong(packed.count)), Z_OK, "seed \(seed)")
                XCTAssertEqual(Array(output.prefix(Int(length))), input, "level \(level), seed \(seed)")
            }
        }
        let packedRuns = try runs.withUnsafeBytes { try ZlibStream.compress($0, level: 1) }
        XCTAssertLessThan(packedRuns.count, runs.count / 50, "runs shrink")
    }

    /// The check value of CRC-32/ISO-HDLC, and a CRC continued over two parts.
    func testCRC32() {
        let check = Array("123456789".utf8)
        XCTAssertEqual(check.withUnsafeBytes { ZlibStream.crc32($0) }, 0xCBF4_3926)
        let first = check[0..<4].withUnsafeBytes { ZlibStream.crc32($0) }
        XCTAssertEqual(check[4...].withUnsafeBytes { ZlibStream.crc32($0, continuing: first) }, 0xCBF4_3926)
    }
}
