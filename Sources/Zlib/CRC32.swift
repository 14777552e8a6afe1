import CZlib

/// CRC-32 (ISO 3309), as PNG and gzip use it, computed by zlib.
public enum CRC32 {
    /// The CRC-32 of `bytes`, continuing `crc` (0 to start).
    ///
    /// - Complexity: O(n).
    public static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        UInt32(crc32(uLong(crc), bytes.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(bytes.count)))
    }
}
