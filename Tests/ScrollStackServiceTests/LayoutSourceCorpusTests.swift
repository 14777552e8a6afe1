import Foundation
import JSONCodec
@testable import MicroHTTP
@testable import ScrollStackCore
@testable import ScrollStackService
import TestSeeds
import XCTest

/// The streamed full layout (rows written from a `LayoutBuffer` filled once, or laid out per
/// piece) against the whole-body writer on seeded random stacks, offsets and piece sizes: the
/// same bytes, whatever the pieces' boundaries.
final class LayoutSourceCorpusTests: XCTestCase {
    /// Every byte `source` produces, read as libmicrohttpd reads it, in reads of `chunk` bytes.
    func drain(_ source: HTTPBodySource, chunk: Int) -> [UInt8] {
        var body: [UInt8] = []
        var buffer = [CChar](repeating: 0, count: chunk)
        while true {
            let count = buffer.withUnsafeMutableBufferPointer { source.read(into: $0.baseAddress!, capacity: chunk) }
            guard count >= 0, count <= chunk else { return body }
            body += buffer[..<count].map { UInt8(bitPattern: $0) }
        }
    }

    func testStreamedLayoutMatchesTheWholeWriterAtEveryPieceSize() throws {
        let seed = TestSeed.seed("LayoutSourceCorpusTests")
        var r = SplitMix64(seed: seed)
        let service = StackService()
        var compared = 0
        for stackNumber in 0..<200 {
            let body = LayoutWriterCorpusTests.stackBody(&r)
            let stack: ScrollStack
            do { stack = try service.decodeStack(ObjectReader(object: body, path: ""), id: "s") } catch { continue }
            for queryNumber in 0..<4 {
                let offset: Point? = Bool.random(using: &r) ? nil : Point(x: Double.random(in: -50...500, using: &r), y: Double.random(in: -50...3000, using: &r))
                let revision: Int? = Bool.random(using: &r) ? Int.random(in: 1...1_000_000, using: &r) : nil
                let frames = Int.random(in: 0..<3, using: &r) == 0
                let piece = Int.random(in: 1...max(1, stack.count + 1), using: &r)

                var w = JSONWriter()
                ModelEncoding.writeLayout(&w, revision: revision, LaidOut(stack: stack, layout: stack.layout(offset: offset), window: nil),
                                          page: nil, next: nil, contentFrames: frames)
                let buffered = Bool.random(using: &r)  // laid out whole into a LayoutBuffer, or per piece
                let source = ModelEncoding.layoutSource(revision: revision, stack, offset: offset, contentFrames: frames,
                                                        rowsPerPiece: piece, bufferedRows: buffered ? .max : 0)
                let streamed = drain(source, chunk: Int.random(in: 1...4096, using: &r))
                guard streamed == w.bytes else {
                    XCTFail("seed \(seed), stack \(stackNumber), query \(queryNumber), \(piece) rows per piece, buffered \(buffered):\nstreamed \(String(decoding: streamed, as: UTF8.self))\nwhole    \(String(decoding: w.bytes, as: UTF8.self))")
                    return
                }
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, 400, "most random stacks are valid")
    }
}
