import ScrollStackCore
import ScrollStackRender
import TestHTTPClient
import TestSeeds
import XCTest

/// The PNG writer under `layout.png`: RGB for an opaque picture, RGBA with colours
/// un-premultiplied for a translucent one, read back by an independent decoder (`PNGImage`)
/// that checks every chunk's CRC.
final class PNGEncodingTests: XCTestCase {
    func testAnOpaquePictureIsRGBWithItsExactColours() throws {
        let scene = Scene(width: 5, height: 3, background: RGBA(red: 250, green: 249, blue: 7), items: [
            .rect(Rect(x: 2, y: 1, width: 3, height: 2), fill: RGBA(red: 1, green: 128, blue: 255)),
        ])
        let image = try PNGImage(try XCTUnwrap(CairoCanvas.png(scene, scale: 2)))
        XCTAssertEqual([image.width, image.height, image.channels], [10, 6, 3])
        XCTAssertTrue(image.rgb(0, 0) == (250, 249, 7), "\(image.rgb(0, 0))")
        XCTAssertTrue(image.rgb(3, 1) == (250, 249, 7), "\(image.rgb(3, 1))")
        XCTAssertTrue(image.rgb(4, 2) == (1, 128, 255), "\(image.rgb(4, 2))")
        XCTAssertTrue(image.rgb(9, 5) == (1, 128, 255), "\(image.rgb(9, 5))")
    }

    func testATranslucentPictureIsRGBAWithItsColoursUnpremultiplied() throws {
        let scene = Scene(width: 4, height: 2, background: RGBA(red: 200, green: 100, blue: 50, alpha: 128), items: [])
        let image = try PNGImage(try XCTUnwrap(CairoCanvas.png(scene, scale: 1)))
        XCTAssertEqual(image.channels, 4)
        let at = (0 * image.width + 3) * 4
        let pixel = Array(image.pixels[at..<(at + 4)])
        XCTAssertEqual(pixel[3], 128)
        // Cairo keeps 8-bit premultiplied channels: un-premultiplied, each is within 1 of the colour.
        for (channel, expected) in zip(pixel[0..<3], [200, 100, 50]) { XCTAssertLessThanOrEqual(abs(Int(channel) - expected), 1, "\(pixel)") }
    }

    /// A picture big enough to be deflated in pieces decodes as one, pixel for pixel where
    /// its seeded rectangles are.
    func testABigPictureDecodesWhole() throws {
        let seed = TestSeed.seed("PNGEncodingTests.big")
        var random = SeededRandom(seed)
        var items: [SceneItem] = []
        var probes: [(x: Int, y: Int, color: RGBA)] = []
        for _ in 0..<60 {
            let x = Int.random(in: 0..<760, using: &random), y = Int.random(in: 0..<1160, using: &random)
            let color = RGBA(red: UInt8.random(in: 0...255, using: &random), green: UInt8.random(in: 0...255, using: &random),
                             blue: UInt8.random(in: 0...255, using: &random))
            items.append(.rect(Rect(x: Double(x), y: Double(y), width: 40, height: 40), fill: color))
            probes.append((x + 39, y + 39, color))  // a corner no later rectangle covers is checked below
        }
        let scene = Scene(width: 800, height: 1200, background: RGBA(red: 255, green: 255, blue: 255), items: items)
        let image = try PNGImage(try XCTUnwrap(CairoCanvas.png(scene, scale: 1)))
        XCTAssertEqual([image.width, image.height], [800, 1200])
        for (index, probe) in probes.enumerated() {
            let covered = probes[(index + 1)...].contains { $0.x - 39 <= probe.x && probe.x <= $0.x && $0.y - 39 <= probe.y && probe.y <= $0.y }
            guard !covered else { continue }
            XCTAssertTrue(image.rgb(probe.x, probe.y) == (Int(probe.color.red), Int(probe.color.green), Int(probe.color.blue)),
                          "rectangle \(index) at \(probe): \(image.rgb(probe.x, probe.y)) (seed \(seed))")
        }
    }
}
