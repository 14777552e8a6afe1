import CZlib

/// zlib-format streams (RFC 1950) and CRC-32, for file formats that embed them (PNG). Knows
/// nothing of those formats.
public enum ZlibStream {
    /// `bytes` compressed as one zlib stream at `level` (1 fastest … 9 smallest).
    ///
    /// - Complexity: O(n); one output buffer sized by `deflateBound`, so a single deflate call.
    public static func compress(_ bytes: UnsafeRawBufferPointer, level: Int32) throws(Gzip.Failure) -> [UInt8] {
        var stream = z_stream()
        var code = deflateInit2_(&stream, level, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY,
                                 zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard code == Z_OK else { throw Gzip.Failure(code: code, message: "deflateInit2 failed") }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 16)
        let produced = output.withUnsafeMutableBufferPointer { outBuffer -> Int in
            stream.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress?.assumingMemoryBound(to: Bytef.self))
            stream.avail_in = uInt(bytes.count)
            stream.next_out = outBuffer.baseAddress
            stream.avail_out = uInt(outBuffer.count)
            code = deflate(&stream, Z_FINISH)
            return outBuffer.count - Int(stream.avail_out)
        }
        guard code == Z_STREAM_END else { throw Gzip.Failure(code: code, message: "deflate did not finish") }
        output.removeSubrange(produced...)
        return output
    }

    /// The CRC-32 (ISO 3309, as PNG and gzip use it) of `bytes`, continuing `crc` (0 to start).
    ///
    /// - Complexity: O(n).
    public static func crc32(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        UInt32(CZlib.crc32(uLong(crc), bytes.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(bytes.count)))
    }
}
