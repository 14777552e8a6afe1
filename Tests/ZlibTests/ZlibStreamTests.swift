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

    /// Input cut into pieces deflated at once is one zlib stream that inflates to the input
    /// (its Adler-32 checked by `uncompress`), for any number of pieces and a last piece
    /// shorter than the others; primed with the bytes before each cut, it is about as small
    /// as one piece.
    func testPiecesDeflatedAtOnceMakeOneStream() throws {
        let seed = TestSeed.seed("ZlibStreamTests.pieces")
        var state = seed
        func next() -> UInt8 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        // Runs, with noise in every 5th block of 1,000: compressible, but not trivially.
        let count = 3 * ZlibStream.pieceMinimum + 12_345
        var input: [UInt8] = []
        input.reserveCapacity(count)
        for i in 0..<count {
            let noisy = i / 1000 % 5 == 0
            input.append(noisy ? next() : UInt8(i / 700 % 3))
        }
        let whole = try input.withUnsafeBytes { try ZlibStream.compress($0, level: 1) }
        for pieces in [2, 3, 4] {
            for level: Int32 in [1, 6, 9] {
                let packed = try input.withUnsafeBytes { try ZlibStream.compress($0, level: level, pieces: pieces) }
                XCTAssertEqual(packed.prefix(2).reduce(0) { $0 << 8 | Int($1) } % 31, 0, "a zlib header's check bits")
                var output = [UInt8](repeating: 0, count: input.count + 1)
                var length = uLongf(output.count)
                XCTAssertEqual(uncompress(&output, &length, packed, uLong(packed.count)), Z_OK, "\(pieces) pieces, level \(level), seed \(seed)")
                XCTAssertEqual(Int(length), input.count)
                XCTAssertTrue(output.prefix(Int(length)).elementsEqual(input), "\(pieces) pieces, level \(level), seed \(seed)")
                if level == 1 { XCTAssertLessThan(packed.count, whole.count * 21 / 20, "\(pieces) pieces against one: \(packed.count) bytes, \(whole.count)") }
            }
        }
        // Too little input for two pieces: one ordinary stream.
        let small = Array(input.prefix(ZlibStream.pieceMinimum))
        let one = try small.withUnsafeBytes { try ZlibStream.compress($0, level: 1) }
        XCTAssertEqual(try small.withUnsafeBytes { try ZlibStream.compress($0, level: 1, pieces: 4) }, one)
    }

    /// The check value of CRC-32/ISO-HDLC, and a CRC continued over two parts.
    func testCRC32() {
        let check = Array("123456789".utf8)
        XCTAssertEqual(check.withUnsafeBytes { ZlibStream.crc32($0) }, 0xCBF4_3926)
        let first = check[0..<4].withUnsafeBytes { ZlibStream.crc32($0) }
        XCTAssertEqual(check[4...].withUnsafeBytes { ZlibStream.crc32($0, continuing: first) }, 0xCBF4_3926)
    }
}
