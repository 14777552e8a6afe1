#if canImport(Glibc)
import Glibc
#endif
import Zlib

/// Writes Cairo's ARGB32 pixels as a PNG: 8-bit RGB when every pixel is opaque (a picture on
/// an opaque background), else 8-bit RGBA (colours un-premultiplied as Cairo does), each row
/// with PNG's Up filter, deflated at zlib level 1 (a big picture in pieces on every core at
/// once, `ZlibStream.compress`).
///
/// Why not Cairo's own `cairo_surface_write_to_png_stream`: libpng tries every filter on
/// every row and deflates at level 6, which took about two thirds of a text screen's
/// `layout.png` (a 407 × 2392 picture: some 35 ms of 54). Pictures of flat colours and text
/// are mostly runs once Up-filtered, which level 1 finds about as well as level 6 (that
/// picture: 312 KB against libpng's 321 KB) in about a third of the time.
enum PNGEncoder {
    /// The PNG of `height` rows of `width` pixels at `pixels` (`stride` bytes apart, native
    /// 32-bit premultiplied ARGB), or nil when zlib fails.
    ///
    /// - Complexity: O(width × height).
    static func encode(_ pixels: UnsafeRawPointer, width: Int, height: Int, stride: Int) -> [UInt8]? {
        var opaque = true
        for y in 0..<height where opaque {
            let row = pixels.advanced(by: y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width where row[x] >> 24 != 0xFF {
                opaque = false
                break
            }
        }
        let channels = opaque ? 3 : 4
        let rowBytes = width * channels
        let compressed = Scratch.withBytes((rowBytes + 1) * height) { out -> [UInt8]? in
            if opaque {
                filterOpaque(pixels, width: width, height: height, stride: stride, into: out)
            } else {
                filterTranslucent(pixels, width: width, height: height, stride: stride, into: out)
            }
            return try? ZlibStream.compress(UnsafeRawBufferPointer(start: out, count: (rowBytes + 1) * height), level: 1, pieces: cores)
        }
        guard let data = compressed else { return nil }
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
    private static func filterOpaque(_ pixels: UnsafeRawPointer, width: Int, height: Int, stride: Int, into out: UnsafeMutablePointer<UInt8>) {
        let rowBytes = width * 3
        for y in 0..<height {
            let row = pixels.advanced(by: y * stride).assumingMemoryBound(to: UInt32.self)
            let line = out + y * (rowBytes + 1)
            line[0] = 2
            if y == 0 {
                for x in 0..<width {
                    let p = row[x]
                    line[1 + 3 * x] = UInt8(truncatingIfNeeded: p >> 16)
                    line[2 + 3 * x] = UInt8(truncatingIfNeeded: p >> 8)
                    line[3 + 3 * x] = UInt8(truncatingIfNeeded: p)
                }
                continue
            }
            let above = pixels.advanced(by: (y - 1) * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                let p = row[x], q = above[x]
                line[1 + 3 * x] = UInt8(truncatingIfNeeded: p >> 16) &- UInt8(truncatingIfNeeded: q >> 16)
                line[2 + 3 * x] = UInt8(truncatingIfNeeded: p >> 8) &- UInt8(truncatingIfNeeded: q >> 8)
                line[3 + 3 * x] = UInt8(truncatingIfNeeded: p) &- UInt8(truncatingIfNeeded: q)
            }
        }
    }

    /// Pixels as Up-filtered RGBA rows, colours un-premultiplied. O(width × height).
    private static func filterTranslucent(_ pixels: UnsafeRawPointer, width: Int, height: Int, stride: Int, into out: UnsafeMutablePointer<UInt8>) {
        let rowBytes = width * 4
        // This row and the one above, un-premultiplied and unfiltered (zeros above the first).
        let rows = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * rowBytes)
        defer { rows.deallocate() }
        rows.initialize(repeating: 0, count: 2 * rowBytes)
        var current = rows, above = rows + rowBytes
        for y in 0..<height {
            let row = pixels.advanced(by: y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                let argb = row[x]
                let a = argb >> 24
                var r = (argb >> 16) & 0xFF, g = (argb >> 8) & 0xFF, b = argb & 0xFF
                if a != 0xFF && a != 0 {
                    r = (r * 255 + a / 2) / a
                    g = (g * 255 + a / 2) / a
                    b = (b * 255 + a / 2) / a
                }
                current[4 * x] = UInt8(truncatingIfNeeded: r)
                current[4 * x + 1] = UInt8(truncatingIfNeeded: g)
                current[4 * x + 2] = UInt8(truncatingIfNeeded: b)
                current[4 * x + 3] = UInt8(truncatingIfNeeded: a)
            }
            let line = out + y * (rowBytes + 1)
            line[0] = 2
            for i in 0..<rowBytes { line[1 + i] = current[i] &- above[i] }
            swap(&current, &above)
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
        append(typed.withUnsafeBytes { ZlibStream.crc32($0) }, to: &png)
    }
}
