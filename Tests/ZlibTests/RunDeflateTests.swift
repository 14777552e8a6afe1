import CZlib
import TestSeeds
import XCTest
@testable import Zlib

final class RunDeflateTests: XCTestCase {
    /// A seeded generator of bytes (a 64-bit LCG's top byte).
    private struct Bytes {
        var state: UInt64
        mutating func next() -> UInt8 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }

    /// `packed` inflated by zlib (which checks the stream's Adler-32), or nil when zlib
    /// refuses it.
    private func inflated(_ packed: [UInt8], expecting count: Int) -> [UInt8]? {
        var output = [UInt8](repeating: 0, count: count + 1)
        var length = uLongf(output.count)
        guard uncompress(&output, &length, packed, uLong(packed.count)) == Z_OK else { return nil }
        return Array(output.prefix(Int(length)))
    }

    /// A picture-like input: rows of `width` bytes, each a filter byte, then runs of one
    /// value, repeats of the row above, repeats of the pixel before, and noise.
    private func pictureRows(_ rows: Int, width: Int, _ bytes: inout Bytes) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(rows * (width + 1))
        for y in 0..<rows {
            out.append(2)
            var x = 0
            while x < width {
                let length = min(width - x, 1 + Int(bytes.next()) % 90)
                switch bytes.next() % 4 {
                case 0:  // a run of one value
                    let value = bytes.next() % 3
                    out += repeatElement(value, count: length)
                case 1 where y > 0:  // the row above
                    let start = out.count - (width + 1)
                    for k in 0..<length { out.append(out[start + k]) }
                case 2 where out.count >= 3:  // the pixel before, again and again
                    for _ in 0..<length { out.append(out[out.count - 3]) }
                default:
                    for _ in 0..<length { out.append(bytes.next()) }
                }
                x += length
            }
        }
        return out
    }

    /// Streams inflate to the input (Adler-32 included) for empty, tiny, noisy, run-only and
    /// picture-like inputs, and for any one to three distances.
    func testStreamsInflateToTheInput() throws {
        let seed = TestSeed.seed("RunDeflateTests")
        var bytes = Bytes(state: seed)
        let noise = (0..<70_000).map { _ in bytes.next() }
        let picture = pictureRows(200, width: 300, &bytes)
        let inputs: [[UInt8]] = [[], [7], Array(noise.prefix(7)), Array(noise.prefix(9)), noise,
                                 [UInt8](repeating: 0, count: 100_000), [UInt8](repeating: 200, count: 259), picture]
        for input in inputs {
            for distances in [[1], [1, 3], [1, 3, 301], [301, 3, 1], [40_000, 3]] {
                let packed = input.withUnsafeBytes { RunDeflate.compress($0, distances: distances) }
                XCTAssertEqual(packed.prefix(2).reduce(0) { $0 << 8 | Int($1) } % 31, 0, "a zlib header's check bits")
                XCTAssertEqual(inflated(packed, expecting: input.count), input, "\(input.count) bytes, distances \(distances), seed \(seed)")
            }
        }
        let zeros = [UInt8](repeating: 0, count: 100_000)
        let packedZeros = zeros.withUnsafeBytes { RunDeflate.compress($0, distances: [1]) }
        XCTAssertLessThan(packedZeros.count, zeros.count / 100, "a run of zeros shrinks a hundredfold")
        // Rows that repeat the row above shrink only when the row is among the distances.
        let row = Array(noise.prefix(301))
        let repeated = Array([[UInt8]](repeating: row, count: 100).joined())
        let byRow = repeated.withUnsafeBytes { RunDeflate.compress($0, distances: [1, 301]) }
        let without = repeated.withUnsafeBytes { RunDeflate.compress($0, distances: [1]) }
        XCTAssertLessThan(byRow.count, repeated.count / 20, "seed \(seed)")
        XCTAssertGreaterThan(without.count, repeated.count / 2, "seed \(seed)")
    }

    /// Input cut into pieces encoded at once is one stream that inflates to the input, for
    /// any number of pieces and a last piece shorter than the others; matches reach back
    /// across the cuts, so it is about as small as one piece.
    func testPiecesEncodedAtOnceMakeOneStream() throws {
        let seed = TestSeed.seed("RunDeflateTests.pieces")
        var bytes = Bytes(state: seed)
        let width = 1_000
        let input = pictureRows((3 * RunDeflate.pieceMinimum + 12_345) / (width + 1), width: width, &bytes)
        let whole = input.withUnsafeBytes { RunDeflate.compress($0, distances: [1, 3, width + 1]) }
        XCTAssertEqual(inflated(whole, expecting: input.count), input, "seed \(seed)")
        for pieces in [2, 3, 4, 16] {
            let packed = input.withUnsafeBytes { RunDeflate.compress($0, distances: [1, 3, width + 1], pieces: pieces) }
            XCTAssertEqual(inflated(packed, expecting: input.count), input, "\(pieces) pieces, seed \(seed)")
            XCTAssertLessThan(packed.count, whole.count * 21 / 20, "\(pieces) pieces against one: \(packed.count) bytes, \(whole.count)")
        }
        // Too little input for two pieces: one piece.
        let small = Array(input.prefix(RunDeflate.pieceMinimum))
        XCTAssertEqual(small.withUnsafeBytes { RunDeflate.compress($0, distances: [1], pieces: 4) },
                       small.withUnsafeBytes { RunDeflate.compress($0, distances: [1]) })
    }

    /// A piece longer than a block is coded as several blocks, each with its own codes, that
    /// inflate as one stream: noise (all literals), then picture rows, then zeros, so that the
    /// blocks' codes differ; a match may run past where a block's tokens stop starting.
    func testAPieceOfManyBlocksInflatesWhole() {
        let seed = TestSeed.seed("RunDeflateTests.blocks")
        var bytes = Bytes(state: seed)
        var input = (0..<(RunDeflate.blockBytes + 77)).map { _ in bytes.next() }
        input += pictureRows(RunDeflate.blockBytes / 1_001, width: 1_000, &bytes)
        input += [UInt8](repeating: 0, count: RunDeflate.blockBytes / 2)
        for pieces in [1, 2] {
            let packed = input.withUnsafeBytes { RunDeflate.compress($0, distances: [1, 3, 1_001], pieces: pieces) }
            XCTAssertEqual(inflated(packed, expecting: input.count), input, "\(pieces) pieces, seed \(seed)")
        }
    }

    /// Code lengths stay within the limit and make a complete code (Kraft sum exactly 1),
    /// even for counts whose Huffman code is far deeper (Fibonacci counts); the most frequent
    /// symbol gets the shortest code.
    func testHuffmanCodesAreLimitedAndComplete() {
        var fibonacci: [UInt32] = [1, 1]
        while fibonacci.count < 30 { fibonacci.append(fibonacci[fibonacci.count - 1] + fibonacci[fibonacci.count - 2]) }
        for (counts, limit) in [(fibonacci, 15), (Array(fibonacci.prefix(19)), 7), ([5, 0, 0, 9], 15), ([0, 0, 3], 15)] {
            let lengths = HuffmanCode.lengths(for: counts, limit: limit, atLeast: 2)
            XCTAssertLessThanOrEqual(Int(lengths.max() ?? 0), limit, "\(counts)")
            let kraft = lengths.filter { $0 > 0 }.reduce(0.0) { $0 + 1 / Double(1 << Int($1)) }
            XCTAssertEqual(kraft, 1, "a complete code for \(counts): \(lengths)")
            XCTAssertGreaterThanOrEqual(lengths.filter { $0 > 0 }.count, 2, "two codes at least")
            let most = counts.indices.max { counts[$0] < counts[$1] }!
            XCTAssertEqual(lengths[most], lengths.filter { $0 > 0 }.min(), "\(counts): \(lengths)")
        }
    }

    /// The Adler-32 kept by the encoder is zlib's, over zeros, noise and both mixed.
    func testAdler32IsZlibs() {
        let seed = TestSeed.seed("RunDeflateTests.adler")
        var bytes = Bytes(state: seed)
        var input: [UInt8] = []
        for block in 0..<400 { input += (0..<(block % 37 + 1) * 40).map { _ in block % 3 == 0 ? bytes.next() : 0 } }
        for count in [0, 1, 15, 16, 17, 5_552, input.count] {
            var sum = Adler32()
            input.withUnsafeBufferPointer { sum.add($0.baseAddress!, count: count) }
            let expected = input.withUnsafeBufferPointer { UInt32(adler32(1, $0.baseAddress, uInt(count))) }
            XCTAssertEqual(sum.value, expected, "\(count) bytes, seed \(seed)")
        }
    }

    /// The check value of CRC-32/ISO-HDLC, and a CRC continued over two parts.
    func testCRC32() {
        let check = Array("123456789".utf8)
        XCTAssertEqual(check.withUnsafeBytes { CRC32.checksum($0) }, 0xCBF4_3926)
        let first = check[0..<4].withUnsafeBytes { CRC32.checksum($0) }
        XCTAssertEqual(check[4...].withUnsafeBytes { CRC32.checksum($0, continuing: first) }, 0xCBF4_3926)
    }
}
