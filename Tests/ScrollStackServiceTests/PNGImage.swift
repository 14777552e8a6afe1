import CZlib
import XCTest

/// A PNG read back for tests: 8-bit RGB or RGBA, not interlaced (what the service writes),
/// every chunk's CRC checked, its rows unfiltered. Throws on anything else, so a test never
/// reads a picture it misparsed.
struct PNGImage {
    let width: Int
    let height: Int
    /// Bytes per pixel: 3 (RGB) or 4 (RGBA).
    let channels: Int
    let pixels: [UInt8]

    struct Unreadable: Error, CustomStringConvertible {
        let description: String
    }

    init(_ bytes: [UInt8]) throws {
        guard bytes.count > 8, Array(bytes[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else { throw Unreadable(description: "no PNG signature") }
        func u32(_ at: Int) -> Int { Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) }
        var at = 8
        var width = 0, height = 0, channels = 0
        var compressed: [UInt8] = []
        while at + 8 <= bytes.count {
            let length = u32(at)
            let type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
            let data = Array(bytes[(at + 8)..<(at + 8 + length)])
            let typed = Array(bytes[(at + 4)..<(at + 8 + length)])
            guard UInt32(crc32(0, typed, uInt(typed.count))) == UInt32(u32(at + 8 + length)) else { throw Unreadable(description: "\(type): CRC") }
            switch type {
            case "IHDR":
                width = u32(at + 8)
                height = u32(at + 12)
                guard data[8] == 8, data[12] == 0 else { throw Unreadable(description: "depth \(data[8]), interlace \(data[12])") }
                switch data[9] {
                case 2: channels = 3
                case 6: channels = 4
                default: throw Unreadable(description: "colour type \(data[9])")
                }
            case "IDAT":
                compressed += data
            default:
                break
            }
            at += 12 + length
        }
        let stride = width * channels
        var raw = [UInt8](repeating: 0, count: (stride + 1) * height)
        var rawLength = uLongf(raw.count)
        let code = uncompress(&raw, &rawLength, compressed, uLong(compressed.count))
        guard code == Z_OK, Int(rawLength) == raw.count else { throw Unreadable(description: "zlib \(code)") }
        var pixels = [UInt8](repeating: 0, count: stride * height)
        for y in 0..<height {
            let filter = raw[y * (stride + 1)]
            for x in 0..<stride {
                let value = Int(raw[y * (stride + 1) + 1 + x])
                let a = x >= channels ? Int(pixels[y * stride + x - channels]) : 0
                let b = y > 0 ? Int(pixels[(y - 1) * stride + x]) : 0
                let c = x >= channels && y > 0 ? Int(pixels[(y - 1) * stride + x - channels]) : 0
                let predicted: Int
                switch filter {
                case 0: predicted = 0
                case 1: predicted = a
                case 2: predicted = b
                case 3: predicted = (a + b) / 2
                case 4:
                    let p = a + b - c
                    let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
                    predicted = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                default: throw Unreadable(description: "filter \(filter)")
                }
                pixels[y * stride + x] = UInt8((value + predicted) & 0xFF)
            }
        }
        self.width = width
        self.height = height
        self.channels = channels
        self.pixels = pixels
    }

    /// The red, green and blue of the pixel at (x, y).
    func rgb(_ x: Int, _ y: Int) -> (Int, Int, Int) {
        let at = (y * width + x) * channels
        return (Int(pixels[at]), Int(pixels[at + 1]), Int(pixels[at + 2]))
    }
}
