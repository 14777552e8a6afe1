import CZlib
import Dispatch

/// zlib-format streams (RFC 1950) and CRC-32, for file formats that embed them (PNG). Knows
/// nothing of those formats.
public enum ZlibStream {
    /// `bytes` compressed as one zlib stream at `level` (1 fastest … 9 smallest).
    ///
    /// Input of at least `2 × pieceMinimum` bytes is cut into up to `pieces` pieces deflated
    /// at once, on as many threads (as pigz does): each piece is a raw deflate stream primed
    /// with the 32 KiB before it (`deflateSetDictionary`, so matches reach back across the
    /// cut as in one stream) and ended by a sync flush (byte-aligned, not final) except the
    /// last; the zlib header, the pieces in order and the Adler-32 of the whole (combined
    /// from the pieces') make one ordinary zlib stream.
    ///
    /// - Complexity: O(n) work, about n / pieces of it on each thread; output buffers sized
    ///   by `deflateBound` (pages the output never reaches are never touched).
    public static func compress(_ bytes: UnsafeRawBufferPointer, level: Int32, pieces: Int = 1) throws(Gzip.Failure) -> [UInt8] {
        let count = min(max(1, pieces), max(1, bytes.count / pieceMinimum), 16)
        guard count > 1, let base = bytes.baseAddress else { return try deflatePiece(bytes, level: level, raw: false, dictionary: nil, last: true) }
        let size = (bytes.count + count - 1) / count
        var outputs = [Result<[UInt8], Gzip.Failure>](repeating: .success([]), count: count)
        var sums = [UInt](repeating: 1, count: count)
        outputs.withUnsafeMutableBufferPointer { outputs in
            sums.withUnsafeMutableBufferPointer { sums in
                // Each iteration writes only its own slot of each buffer.
                nonisolated(unsafe) let outputs = outputs, sums = sums, bytes = bytes, base = base
                DispatchQueue.concurrentPerform(iterations: count) { i in
                    let lower = i * size, upper = min(bytes.count, lower + size)
                    let piece = UnsafeRawBufferPointer(start: base + lower, count: upper - lower)
                    let window = min(lower, 32_768)
                    let dictionary = window > 0 ? UnsafeRawBufferPointer(start: base + lower - window, count: window) : nil
                    outputs[i] = Result { () throws(Gzip.Failure) in
                        try deflatePiece(piece, level: level, raw: true, dictionary: dictionary, last: i == count - 1)
                    }
                    sums[i] = UInt(adler32(1, piece.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(piece.count)))
                }
            }
        }
        var adler = sums[0]
        for i in 1..<count {
            adler = UInt(adler32_combine(uLong(adler), uLong(sums[i]), off_t(min(bytes.count, (i + 1) * size) - i * size)))
        }
        // CMF: deflate, 32 KiB window; FLG: the level's FLEVEL, and the check bits.
        let flag: UInt8 = level == 0 || level == 1 ? 0x01 : level > 1 && level < 6 ? 0x5E : level == 6 || level < 0 ? 0x9C : 0xDA
        var stream: [UInt8] = [0x78, flag]
        for output in outputs { stream += try output.get() }
        stream += [UInt8(truncatingIfNeeded: adler >> 24), UInt8(truncatingIfNeeded: adler >> 16),
                   UInt8(truncatingIfNeeded: adler >> 8), UInt8(truncatingIfNeeded: adler)]
        return stream
    }

    /// The smallest piece `compress` deflates on a thread of its own.
    public static let pieceMinimum = 256 << 10

    /// `bytes` deflated as a zlib stream, or as raw deflate (`raw`) primed with `dictionary`
    /// and ending in a final block (`last`) or a sync flush.
    private static func deflatePiece(_ bytes: UnsafeRawBufferPointer, level: Int32, raw: Bool,
                                     dictionary: UnsafeRawBufferPointer?, last: Bool) throws(Gzip.Failure) -> [UInt8] {
        var stream = z_stream()
        var code = deflateInit2_(&stream, level, Z_DEFLATED, raw ? -15 : 15, 8, Z_DEFAULT_STRATEGY,
                                 zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard code == Z_OK else { throw Gzip.Failure(code: code, message: "deflateInit2 failed") }
        defer { deflateEnd(&stream) }
        if let dictionary, dictionary.count > 0 {
            code = deflateSetDictionary(&stream, dictionary.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(dictionary.count))
            guard code == Z_OK else { throw Gzip.Failure(code: code, message: "deflateSetDictionary failed") }
        }
        let capacity = Int(deflateBound(&stream, uLong(bytes.count))) + 16
        var failure: Int32?
        let output = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            stream.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress?.assumingMemoryBound(to: Bytef.self))
            stream.avail_in = uInt(bytes.count)
            stream.next_out = buffer.baseAddress
            stream.avail_out = uInt(buffer.count)
            let code = deflate(&stream, last ? Z_FINISH : Z_SYNC_FLUSH)
            if code != (last ? Z_STREAM_END : Z_OK) || stream.avail_in != 0 || stream.avail_out == 0 { failure = code }
            initialized = buffer.count - Int(stream.avail_out)
        }
        if let failure { throw Gzip.Failure(code: failure, message: "deflate did not finish") }
        return output
    }

    /// The CRC-32 (ISO 3309, as PNG and gzip use it) of `bytes`, continuing `crc` (0 to start).
    ///
    /// - Complexity: O(n).
    public static func crc32(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        UInt32(CZlib.crc32(uLong(crc), bytes.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(bytes.count)))
    }
}
