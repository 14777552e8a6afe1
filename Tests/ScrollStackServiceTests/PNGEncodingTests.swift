import ScrollStackCore
import ScrollStackRender
import ScrollStackText
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

    /// Every pixel of opaque pictures of each width from 1 to 13 (the filter's four-pixel
    /// steps and the pixels left over) and a few wider, filled with seeded random colours.
    func testEveryOpaquePixelSurvivesTheFilterAtEveryWidth() throws {
        let seed = TestSeed.seed("PNGEncodingTests.widths")
        var random = SeededRandom(seed)
        for width in Array(1...13) + [64, 67, 130] {
            let height = 4
            var items: [SceneItem] = []
            var colours: [RGBA] = []
            for y in 0..<height {
                for x in 0..<width {
                    let colour = RGBA(red: UInt8.random(in: 0...255, using: &random), green: UInt8.random(in: 0...255, using: &random),
                                      blue: UInt8.random(in: 0...255, using: &random))
                    colours.append(colour)
                    items.append(.rect(Rect(x: Double(x), y: Double(y), width: 1, height: 1), fill: colour))
                }
            }
            let scene = Scene(width: Double(width), height: Double(height), background: RGBA(red: 0, green: 0, blue: 0), items: items)
            let image = try PNGImage(try XCTUnwrap(CairoCanvas.png(scene, scale: 1)))
            XCTAssertEqual([image.width, image.height, image.channels], [width, height, 3])
            for y in 0..<height {
                for x in 0..<width {
                    let c = colours[y * width + x]
                    XCTAssertTrue(image.rgb(x, y) == (Int(c.red), Int(c.green), Int(c.blue)),
                                  "width \(width), pixel (\(x), \(y)): \(image.rgb(x, y)), not \(c) (seed \(seed))")
                }
            }
        }
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

    /// A picture drawn in horizontal bands at once is the picture drawn in one piece, pixel
    /// for pixel (so byte for byte): text, rounded, stroked and dashed rectangles, circles and
    /// a clipped group at fractional offsets crossing the cuts, at scales 1 and 3; and a
    /// scene with colour glyphs too (drawn whole).
    func testBandsDrawTheSamePixelsAsOnePiece() throws {
        let seed = TestSeed.seed("PNGEncodingTests.bands")
        var random = SeededRandom(seed)
        let engine = TextEngine(catalog: FontCatalog(directories: FontCatalog.defaultDirectories))
        func text(_ string: String, size: Double, at origin: Point) -> [SceneItem] {
            let content = TextContent(string, font: FontRequest(family: "DejaVu Sans", size: size))
            return engine.glyphLines(of: content, width: 180).flatMap { line in
                line.runs.map { run in
                    SceneItem.glyphs(GlyphRun(face: run.face, size: run.size, synthesis: run.synthesis, color: RGBA(red: 20, green: 20, blue: 30),
                                              origin: Point(x: origin.x, y: origin.y + line.baseline), glyphs: run.glyphs))
                }
            }
        }
        func colour() -> RGBA {
            RGBA(red: UInt8.random(in: 0...255, using: &random), green: UInt8.random(in: 0...255, using: &random),
                 blue: UInt8.random(in: 0...255, using: &random), alpha: UInt8.random(in: 80...255, using: &random))
        }
        var items: [SceneItem] = []
        for _ in 0..<40 {
            let x = Double.random(in: -20..<200, using: &random), y = Double.random(in: -20..<600, using: &random)
            let rect = Rect(x: x, y: y, width: Double.random(in: 1..<120, using: &random), height: Double.random(in: 1..<90, using: &random))
            items.append(.rect(rect, radius: Double.random(in: 0..<20, using: &random), fill: colour(),
                               stroke: Stroke(width: Double.random(in: 0.5..<3, using: &random), color: colour(), dash: [4, 2.5])))
            items.append(.circle(center: Point(x: x + 7.3, y: y + 11.6), radius: Double.random(in: 0.5..<30, using: &random), fill: colour()))
        }
        var group = text("Bands cut this text and Ünïcödé, wrapped over several lines of it", size: 17.5, at: Point(x: 3.25, y: 0.4))
        group.append(.rect(Rect(x: 0, y: 40, width: 150, height: 3), fill: colour()))
        items.append(.group(attributes: [], offset: Point(x: 10.4, y: 283.7), clip: SceneItem.Clip(Rect(x: 0, y: 0, width: 170, height: 90), radius: 9), items: group))
        items += text("Some more text, near the top", size: 13, at: Point(x: 5, y: 1.3))
        // A colour glyph (a scaled image) makes the scene drawn whole.
        let emoji = text("😀 🎉", size: 21, at: Point(x: 100.3, y: 300.6))
        for extra in [[], emoji] {
            let scene = Scene(width: 220.5, height: 640.3, background: RGBA(red: 250, green: 250, blue: 250), items: items + extra)
            for scale in [1, 3] {
                let one = try XCTUnwrap(CairoCanvas.png(scene, scale: scale, bands: 1))
                for bands in [2, 3, 7] {
                    XCTAssertTrue(try XCTUnwrap(CairoCanvas.png(scene, scale: scale, bands: bands)) == one,
                                  "\(bands) bands at scale \(scale), \(extra.isEmpty ? "no" : "with") colour glyphs (seed \(seed))")
                }
            }
        }
    }
}
