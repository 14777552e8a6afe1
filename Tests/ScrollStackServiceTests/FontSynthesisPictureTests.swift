import JSONCodec
import XCTest

/// Pictures draw a bold outline and a slant where the face CSS matching picks lacks the asked
/// weight or style (DejaVu Math TeX Gyre has one upright 400 face), as Chromium does, and
/// measure the text the same either way.
final class FontSynthesisPictureTests: XCTestCase {
    static func stack(_ family: String, _ weight: Int, _ style: String) throws -> JSON {
        try JSON.parse(Array("""
            {"viewport": {"width": 320, "height": 120}, "rows": [{"id": "t", "view": {"type": "Label"}, "size": "fit",
              "content": {"text": "Hamburgefonts", "font": {"family": "\(family)", "size": 24, "weight": \(weight), "style": "\(style)"}}}]}
            """.utf8))
    }

    /// The outlines an SVG defines for its glyphs, as a set of path data.
    static func outlines(_ svg: String) -> Set<String> {
        var found: Set<String> = []
        var rest = Substring(svg)
        while let start = rest.range(of: "<path id=\"g") {
            rest = rest[start.upperBound...]
            guard let d = rest.range(of: " d=\""), let end = rest[d.upperBound...].firstIndex(of: "\"") else { break }
            found.insert(String(rest[d.upperBound..<end]))
            rest = rest[end...]
        }
        return found
    }

    func testSynthesizedBoldAndSlantAreDrawnAndMeasureAsTheFace() throws {
        let server = try ServerHarness()
        defer { server.stop() }
        let math = "DejaVu Math TeX Gyre"
        var drawn: [String: Set<String>] = [:]
        var widths: Set<Double> = []
        var ink: [String: Int] = [:]
        for (weight, style) in [(400, "normal"), (599, "normal"), (600, "normal"), (700, "normal"), (400, "italic"), (400, "oblique"), (700, "italic")] {
            let name = "\(weight) \(style)"
            let body = try Self.stack(math, weight, style)
            let svg = try server.request("POST", "/v1/layout.svg", json: body)
            XCTAssertEqual(svg.status, 200, svg.text)
            drawn[name] = Self.outlines(svg.text)
            let frames = try server.request("POST", "/v1/layout?content=frames", json: body)
            widths.insert(try XCTUnwrap(frames["rows[0].content.lines[0].width"]?.doubleValue, frames.text))
            let image = try PNGImage(try server.request("POST", "/v1/layout.png", json: body).body)
            var dark = 0
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let (r, g, b) = image.rgb(x, y)
                    if r + g + b < 200 { dark += 1 }
                }
            }
            ink[name] = dark
        }
        XCTAssertEqual(widths.count, 1, "one width whatever is synthesized: \(widths)")
        XCTAssertFalse(drawn["400 normal"]!.isEmpty)
        XCTAssertEqual(drawn["599 normal"], drawn["400 normal"], "below 600 the face is drawn as it is")
        XCTAssertNotEqual(drawn["600 normal"], drawn["400 normal"], "600 is drawn bold")
        XCTAssertEqual(drawn["700 normal"], drawn["600 normal"], "one bold outline, whatever the weight from 600")
        XCTAssertNotEqual(drawn["400 italic"], drawn["400 normal"], "italic is slanted")
        XCTAssertEqual(drawn["400 oblique"], drawn["400 italic"], "oblique is the same slant")
        XCTAssertNotEqual(drawn["700 italic"], drawn["400 italic"])
        XCTAssertNotEqual(drawn["700 italic"], drawn["700 normal"])
        XCTAssertGreaterThan(ink["700 normal"]!, ink["400 normal"]! * 11 / 10, "bold draws more ink: \(ink)")

        // DejaVu Sans has a Bold face: it is drawn, not synthesized, and measures wider.
        let sansBold = try server.request("POST", "/v1/layout.svg", json: try Self.stack("DejaVu Sans", 700, "normal"))
        let sansRegular = try server.request("POST", "/v1/layout.svg", json: try Self.stack("DejaVu Sans", 400, "normal"))
        XCTAssertNotEqual(Self.outlines(sansBold.text), Self.outlines(sansRegular.text))
    }
}
