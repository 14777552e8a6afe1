import CZlib

/// gzip (RFC 1952) over zlib's deflate and inflate. Knows nothing of HTTP.
public enum Gzip {
    /// A zlib failure: the function's return code and its message.
    public struct Failure: Error, CustomStringConvertible {
        public let code: Int32
        public let message: String
        /// Whether `decompress` stopped because the output passed its `limit` (the input may
        /// be valid: it is only too big once inflated).
        public var exceedsLimit = false
        public var description: String { "zlib error \(code): \(message)" }
    }

    /// `bytes` compressed as one gzip member at `level` (1 fastest … 9 smallest).
    ///
    /// - Complexity: O(n); one output buffer sized by `deflateBound`, so a single deflate call.
    public static func compress(_ bytes: [UInt8], level: Int32 = 6) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        // windowBits 15 + 16: a gzip header and trailer instead of zlib's.
        var code = deflateInit2_(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
                                 zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard code == Z_OK else { throw Failure(code: code, message: "deflateInit2 failed") }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 32)
        var input = bytes
        let produced = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer -> Int in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                code = deflate(&stream, Z_FINISH)
                return outBuffer.count - Int(stream.avail_out)
            }
        }
        guard code == Z_STREAM_END else { throw Failure(code: code, message: "deflate did not finish") }
        output.removeSubrange(produced...)
        return output
    }

    /// The bytes of a gzip stream (concatenated members included), at most `limit` of them:
    /// it stops (`Failure.exceedsLimit`) once the output passes `limit`, so it never holds
    /// more than `limit` plus one 64 KiB chunk, whatever the input inflates to.
    ///
    /// - Complexity: O(min(output, limit)).
    public static func decompress(_ bytes: [UInt8], limit: Int = 1 << 30) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        var code = inflateInit2_(&stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard code == Z_OK else { throw Failure(code: code, message: "inflateInit2 failed") }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var input = bytes
        try input.withUnsafeMutableBufferPointer { (inBuffer) throws(Failure) in
            stream.next_in = inBuffer.baseAddress
            stream.avail_in = uInt(inBuffer.count)
            repeat {
                let produced = chunk.withUnsafeMutableBufferPointer { outBuffer -> Int in
                    stream.next_out = outBuffer.baseAddress
                    stream.avail_out = uInt(outBuffer.count)
                    code = inflate(&stream, Z_NO_FLUSH)
                    return outBuffer.count - Int(stream.avail_out)
                }
                output += chunk[0..<produced]
                if code == Z_STREAM_END && stream.avail_in > 0 { code = inflateReset(&stream) }
                guard code == Z_OK || code == Z_STREAM_END else { throw Failure(code: code, message: "not a valid gzip stream") }
                guard output.count <= limit else { throw Failure(code: Z_BUF_ERROR, message: "more than \(limit) bytes", exceedsLimit: true) }
                if code == Z_OK && produced == 0 && stream.avail_in == 0 {
                    throw Failure(code: Z_BUF_ERROR, message: "the gzip stream is truncated")
                }
            } while !(code == Z_STREAM_END && stream.avail_in == 0)
        }
        return output
    }
}
