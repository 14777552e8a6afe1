import ScrollStackCore
@testable import ScrollStackRender
import ScrollStackText
import TestHTTPClient
import TestSeeds
import XCTest

/// Glyph masks composited by pixman directly give the pixels Cairo's `cairo_mask_surface`
/// gives: text in opaque and translucent colours at fractional positions, inside clips of
/// whole pixels (pixman's path, with the clip as a region), of fractions and with rounded
/// corners (Cairo's), nested, at every scale and in bands.
final class GlyphCompositingTests: XCTestCase {
    func testPixmanCompositesGlyphsAsCairoDoes() throws {
        let seed = TestSeed.seed("GlyphCompositingTests.pixels")
        var random = SeededRandom(seed)
        let engine = TextEngine(catalog: FontCatalog(directories: FontCatalog.defaultDirectories))
        func colour(opaque: Bool) -> RGBA {
            RGBA(red: UInt8.random(in: 0...255, using: &random), green: UInt8.random(in: 0...255, using: &random),
                 blue: UInt8.random(in: 0...255, using: &random), alpha: opaque ? 255 : UInt8.random(in: 1...254, using: &random))
        }
        func text(_ string: String, size: Double, at origin: Point, colour: RGBA) -> [SceneItem] {
            let content = TextContent(string, font: FontRequest(family: "DejaVu Sans", size: size, weight: 400))
            return engine.glyphLines(of: content, width: 200).flatMap { line in
                line.runs.map { run in
                    SceneItem.glyphs(GlyphRun(face: run.face, size: run.size, synthesis: run.synthesis, color: colour,
                                              origin: Point(x: origin.x, y: origin.y + line.baseline), glyphs: run.glyphs))
                }
            }
        }
        var items: [SceneItem] = []
        for k in 0..<12 {
            let origin = Point(x: Double.random(in: -10..<150, using: &random), y: Double.random(in: -10..<380, using: &random))
            items.append(.rect(Rect(x: origin.x, y: origin.y, width: 60, height: 20), fill: colour(opaque: k % 2 == 0)))
            items += text("Glyphs over glyphs, AVA fi \(k)", size: Double.random(in: 9..<30, using: &random), at: origin, colour: colour(opaque: k % 3 != 0))
        }
        let inner = text("inner text crossing its clip", size: 15, at: Point(x: -4.5, y: 2.25), colour: colour(opaque: true))
        for (clip, offset) in [(SceneItem.Clip(Rect(x: 0, y: 0, width: 120, height: 30)), Point(x: 20, y: 50)),
                               (SceneItem.Clip(Rect(x: 0, y: 0, width: 120, height: 30)), Point(x: 20.5, y: 90.25)),
                               (SceneItem.Clip(Rect(x: 0, y: 0, width: 120, height: 30), radius: 8), Point(x: 30, y: 130))] {
            let nested = SceneItem.group(attributes: [], offset: Point(x: 10, y: 5), clip: SceneItem.Clip(Rect(x: 0, y: 0, width: 70, height: 40)),
                                         items: inner)
            items.append(.group(attributes: [], offset: offset, clip: clip, items: inner + [nested]))
        }
        let scene = Scene(width: 240, height: 420, background: RGBA(red: 255, green: 255, blue: 250), items: items)
        let translucent = Scene(width: 240, height: 420, background: RGBA(red: 10, green: 200, blue: 90, alpha: 100), items: items)
        for (name, picture) in [("opaque", scene), ("translucent", translucent)] {
            for scale in 1...3 {
                for bands in [1, 3] {
                    let cairo = try XCTUnwrap(CairoCanvas.png(picture, scale: scale, bands: bands, compositor: .cairo))
                    let pixman = try XCTUnwrap(CairoCanvas.png(picture, scale: scale, bands: bands, compositor: .pixman))
                    XCTAssertTrue(pixman == cairo, "\(name) picture at scale \(scale) in \(bands) bands (seed \(seed))")
                }
            }
        }
    }
}
