#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Zlib

/// Writes Cairo's ARGB32 pixels as a PNG: 8-bit RGB when every pixel is opaque (a picture on
/// an opaque background), else 8-bit RGBA (colours un-premultiplied as Cairo does), each row
/// with PNG's Up filter, deflated by `RunDeflate` (a big picture in bands, one per core).
///
/// Why not Cairo's own `cairo_surface_write_to_png_stream`: libpng tries every filter on
/// every row and deflates at level 6, which took about two thirds of a text screen's
/// `layout.png` (a 407 × 2392 picture: some 35 ms of 54). Pictures of flat colours and text
/// are mostly runs once Up-filtered. zlib at level 1 finds them as well as level 6 in a third
/// of the time; `RunDeflate`, which looks for repeats only one byte, one pixel and one row
/// back, in about a third of level 1's time (that picture: 432 KB against level 1's
/// 307 KB and libpng's 321 KB).
enum PNGEncoder {
    /// The PNG of `height` rows of `width` pixels at `pixels` (`stride` bytes apart, native
    /// 32-bit premultiplied ARGB); `opaque` says every pixel is, which saves looking.
    ///
    /// - Complexity: O(width × height).
    static func encode(_ pixels: UnsafeRawPointer, width: Int, height: Int, stride: Int, opaque known: Bool = false) -> [UInt8] {
        nonisolated(unsafe) let pixels = pixels
        var opaque = true
        for y in 0..<height where opaque && !known {
            let row = pixels.advanced(by: y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width where row[x] >> 24 != 0xFF {
                opaque = false
                break
            }
        }
        let channels = opaque ? 3 : 4, isOpaque = opaque
        let rowBytes = width * channels
        let data = Scratch.withBytes((rowBytes + 1) * height) { out -> [UInt8] in
            // Bands of rows filtered at once, one per core (each reads the row above its first).
            let bands = height * rowBytes >= 1 << 18 ? min(cores, height) : 1
            nonisolated(unsafe) let out = out
            DispatchQueue.concurrentPerform(iterations: bands) { band in
                let rows = (band * height / bands)..<((band + 1) * height / bands)
                if isOpaque {
                    filterOpaque(pixels, width: width, rows: rows, stride: stride, into: out)
                } else {
                    filterTranslucent(pixels, width: width, rows: rows, stride: stride, into: out)
                }
            }
            // Up-filtered flat colour repeats at distance 1 (a grey, or zeros), a pixel, or a row.
            return RunDeflate.compress(UnsafeRawBufferPointer(start: out, count: (rowBytes + 1) * height),
                                       distances: [1, channels, rowBytes + 1], pieces: cores)
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png.reserveCapacity(data.count + 64)
        var header: [UInt8] = []
        append(UInt32(width), to: &header)
        append(UInt32(height), to: &header)
        header += [8, opaque ? 2 : 6, 0, 0, 0]  // depth 8, RGB or RGBA, deflate, adaptive filters, no interlace
        chunk("IHDR", header, to: &png)
        chunk("IDAT", data, to: &png)
        chunk("IEND", [], to: &png)
        return png
    }

    /// Opaque pixels as Up-filtered RGB rows: each byte less the one above it, the row above
    /// read from the pixels themselves (zeros above the first row). O(width × height).
    ///
    /// Four pixels at a time: their sixteen bytes less the sixteen above (one vector
    /// subtraction), shuffled to four R, G, B triples and stored as sixteen bytes whose last
    /// four the next store (or the row's remaining pixels, stored after) overwrites; the
    /// vectors stop where a store would pass the row's end.
    private static func filterOpaque(_ pixels: UnsafeRawPointer, width: Int, rows: Range<Int>, stride: Int, into out: UnsafeMutablePointer<UInt8>) {
        let rowBytes = width * 3
        let zeros = [UInt32](repeating: 0, count: width)
        zeros.withUnsafeBufferPointer { zeros in
            for y in rows {
                let row = pixels.advanced(by: y * stride)
                let above = y == 0 ? UnsafeRawPointer(zeros.baseAddress!) : pixels.advanced(by: (y - 1) * stride)
                let line = UnsafeMutableRawPointer(out + y * (rowBytes + 1))
                line.storeBytes(of: 2, as: UInt8.self)
                var x = 0
                while x + 6 <= width {
                    let d = row.loadUnaligned(fromByteOffset: 4 * x, as: SIMD16<UInt8>.self)
                        &- above.loadUnaligned(fromByteOffset: 4 * x, as: SIMD16<UInt8>.self)
                    // Little-endian ARGB words: B, G, R, A in memory; PNG wants R, G, B.
                    let rgb = SIMD16<UInt8>(d[2], d[1], d[0], d[6], d[5], d[4], d[10], d[9], d[8], d[14], d[13], d[12], 0, 0, 0, 0)
                    line.storeBytes(of: rgb, toByteOffset: 1 + 3 * x, as: SIMD16<UInt8>.self)
                    x += 4
                }
                let p = row.assumingMemoryBound(to: UInt32.self), q = above.assumingMemoryBound(to: UInt32.self)
                while x < width {
                    let a = p[x], b = q[x]
                    line.storeBytes(of: UInt8(truncatingIfNeeded: a >> 16) &- UInt8(truncatingIfNeeded: b >> 16), toByteOffset: 1 + 3 * x, as: UInt8.self)
                    line.storeBytes(of: UInt8(truncatingIfNeeded: a >> 8) &- UInt8(truncatingIfNeeded: b >> 8), toByteOffset: 2 + 3 * x, as: UInt8.self)
                    line.storeBytes(of: UInt8(truncatingIfNeeded: a) &- UInt8(truncatingIfNeeded: b), toByteOffset: 3 + 3 * x, as: UInt8.self)
                    x += 1
                }
            }
        }
    }

    /// Pixels as Up-filtered RGBA rows, colours un-premultiplied. O(width × height).
    private static func filterTranslucent(_ pixels: UnsafeRawPointer, width: Int, rows: Range<Int>, stride: Int, into out: UnsafeMutablePointer<UInt8>) {
        let rowBytes = width * 4
        // This row and the one above, un-premultiplied and unfiltered (zeros above the first).
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * rowBytes)
        defer { buffer.deallocate() }
        buffer.initialize(repeating: 0, count: 2 * rowBytes)
        var current = buffer, above = buffer + rowBytes
        if rows.lowerBound > 0 { unpremultiply(pixels.advanced(by: (rows.lowerBound - 1) * stride), width: width, into: above) }
        for y in rows {
            unpremultiply(pixels.advanced(by: y * stride), width: width, into: current)
            let line = out + y * (rowBytes + 1)
            line[0] = 2
            for i in 0..<rowBytes { line[1 + i] = current[i] &- above[i] }
            swap(&current, &above)
        }
    }

    /// One row of premultiplied ARGB as straight RGBA bytes. O(width).
    private static func unpremultiply(_ pixels: UnsafeRawPointer, width: Int, into out: UnsafeMutablePointer<UInt8>) {
        let row = pixels.assumingMemoryBound(to: UInt32.self)
        for x in 0..<width {
            let argb = row[x]
            let a = argb >> 24
            var r = (argb >> 16) & 0xFF, g = (argb >> 8) & 0xFF, b = argb & 0xFF
            if a != 0xFF && a != 0 {
                r = (r * 255 + a / 2) / a
                g = (g * 255 + a / 2) / a
                b = (b * 255 + a / 2) / a
            }
            out[4 * x] = UInt8(truncatingIfNeeded: r)
            out[4 * x + 1] = UInt8(truncatingIfNeeded: g)
            out[4 * x + 2] = UInt8(truncatingIfNeeded: b)
            out[4 * x + 3] = UInt8(truncatingIfNeeded: a)
        }
    }

    /// The cores online: how many pieces a big picture is deflated in at once.
    static let cores = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))

    private static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    /// One chunk: length, type, data and the CRC-32 of type and data.
    private static func chunk(_ type: String, _ data: [UInt8], to png: inout [UInt8]) {
        append(UInt32(data.count), to: &png)
        let typed = Array(type.utf8) + data
        png += typed
        append(typed.withUnsafeBytes { CRC32.checksum($0) }, to: &png)
    }
}
