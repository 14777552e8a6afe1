import Foundation
import JSONCodec
import ScrollStackService
import XCTest

/// The layout drawn as PNG (Cairo) over HTTP: routes, scale, budgets, and pixels where the
/// layout says: styles, and text as the glyphs the service shaped.
final class PNGPictureTests: XCTestCase {
    /// Where content point (0, 0) lands in a single-panel picture whose content starts at 0:
    /// the panel's margin, and the margin plus the heading.
    static let contentOrigin = (x: 16.0, y: 40.0)

    /// A text row (yellow on blue) over a green card with round corners and a thick border.
    static let feed = """
        {"id": "feed", "viewport": {"width": 320, "height": 480},
         "rows": [
           {"id": "t", "view": {"type": "Label"}, "insets": {"top": 10, "left": 16, "bottom": 10, "right": 16},
            "content": {"text": "Every glyph sits where the layout puts its line", "font": {"family": "Inter", "size": 20}},
            "style": {"background": "#0000FF", "textColor": "#FFFF00"}},
           {"id": "f", "view": {"type": "Card"}, "size": {"fixed": 120},
            "style": {"background": "#00FF00", "cornerRadius": 40, "border": {"width": 30, "color": "#123456"}}},
           {"id": "p", "view": {"type": "Cell"}, "size": {"fixed": 600}}]}
        """

    func j(_ text: String) throws -> JSON { try JSON.parse(Array(text.utf8)) }

    /// The width and height an SVG answer declares.
    func svgSize(_ reply: Reply) throws -> (Double, Double) {
        let text = reply.text
        func attribute(_ name: String) throws -> Double {
            let start = try XCTUnwrap(text.range(of: " \(name)=\""))
            let rest = text[start.upperBound...]
            return try XCTUnwrap(Double(rest[..<(try XCTUnwrap(rest.firstIndex(of: "\"")))]))
        }
        return (try attribute("width"), try attribute("height"))
    }

    func testPNGByPathByAcceptAndStatelessWithScaleDevicesAndScrollTo() throws {
        let server = try ServerHarness()
        defer { server.stop() }
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: try j(Self.feed)).status, 201)
        let png = try server.request("GET", "/v1/stacks/feed/layout.png")
        XCTAssertEqual(png.status, 200, png.text)
        XCTAssertEqual(png.header("Content-Type"), "image/png")
        XCTAssertEqual(png.header("ETag"), "\"1.png@1\"")
        XCTAssertTrue(png.headers.contains { $0.0.lowercased() == "vary" && $0.1.contains("Accept") })
        let image = try PNGImage(png.body)
        let (width, height) = try svgSize(try server.request("GET", "/v1/stacks/feed/layout.svg"))
        XCTAssertEqual(image.width, Int(width.rounded(.up)), "the PNG is the SVG's size at scale 1")
        XCTAssertEqual(image.height, Int(height.rounded(.up)))
        XCTAssertEqual(try server.request("GET", "/v1/stacks/feed/layout", headers: [("Accept", "image/png")]).body, png.body)
        let double = try server.request("GET", "/v1/stacks/feed/layout.png?scale=2")
        XCTAssertEqual(double.header("ETag"), "\"1.png@2\"")
        let doubled = try PNGImage(double.body)
        XCTAssertEqual(doubled.width, Int((2 * width).rounded(.up)))
        XCTAssertEqual(doubled.height, Int((2 * height).rounded(.up)))
        for (path, accept) in [("/v1/stacks/feed/layout.png?scale=4", nil), ("/v1/stacks/feed/layout.png?scale=0", nil),
                               ("/v1/stacks/feed/layout?scale=2", nil), ("/v1/stacks/feed/layout.svg?scale=2", nil),
                               ("/v1/stacks/feed/layout?scale=2", "image/svg+xml")] as [(String, String?)] {
            let refused = try server.request("GET", path, headers: accept.map { [("Accept", $0)] } ?? [])
            XCTAssertEqual(refused.status, 400, "\(path): \(refused.text)")
            XCTAssertEqual(refused.errorField, "scale", path)
        }
        // Stateless: the picture routes and Accept answer the same bytes.
        let body = try j(Self.feed.replacingOccurrences(of: "\"id\": \"feed\", ", with: ""))
        let stateless = try server.request("POST", "/v1/layout.png", json: body)
        XCTAssertEqual(stateless.status, 200, stateless.text)
        XCTAssertEqual(stateless.header("Content-Type"), "image/png")
        XCTAssertEqual(try server.request("POST", "/v1/layout", json: body, headers: [("Accept", "image/png")]).body, stateless.body)
        let svg = try server.request("POST", "/v1/layout.svg", json: body)
        XCTAssertEqual(svg.header("Content-Type"), "image/svg+xml; charset=utf-8")
        XCTAssertEqual(try server.request("POST", "/v1/layout", json: body, headers: [("Accept", "image/svg+xml")]).body, svg.body)
        // A sheet: one panel per device, side by side.
        let one = try PNGImage(try server.request("GET", "/v1/stacks/feed/layout.png?devices=iphone-se&window=visible").body)
        let sheet = try server.request("GET", "/v1/stacks/feed/layout.png?devices=iphone-se,ipad-mini&window=visible")
        XCTAssertEqual(sheet.status, 200, sheet.text)
        let both = try PNGImage(sheet.body)
        XCTAssertGreaterThan(both.width, one.width + 744, "the iPad's panel sits beside the iPhone's")
        XCTAssertGreaterThanOrEqual(both.height, 1133)
        // What if: scrolled to the bottom, the viewport's frame moves down the picture.
        let scrolled = try server.request("GET", "/v1/stacks/feed/layout.png?scrollTo=bottom")
        XCTAssertEqual(scrolled.status, 200, scrolled.text)
        XCTAssertNotEqual(scrolled.body, png.body)
        let red = { (image: PNGImage, y: Int) -> Bool in
            let (r, g, b) = image.rgb(Int(Self.contentOrigin.x) + 100, y)
            return r > 200 && g < 100 && b < 100
        }
        let layout = try server.request("GET", "/v1/stacks/feed/layout?scrollTo=bottom")
        let offset = try XCTUnwrap(layout["offset.y"]?.doubleValue)
        XCTAssertGreaterThan(offset, 100)
        let scrolledImage = try PNGImage(scrolled.body)
        XCTAssertTrue(red(scrolledImage, Int(Self.contentOrigin.y + offset)), "the viewport's top edge where the scroll puts it")
        XCTAssertFalse(red(scrolledImage, Int(Self.contentOrigin.y)))
        XCTAssertTrue(red(image, Int(Self.contentOrigin.y)))
        XCTAssertEqual(try server.request("GET", "/v1/stacks/feed/layout.png?scrollTo=nope").errorField, "scrollTo")
    }

    func testStylesAndGlyphsArePaintedWhereTheLayoutSays() throws {
        let server = try ServerHarness()
        defer { server.stop() }
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: try j(Self.feed)).status, 201)
        let layout = try server.request("GET", "/v1/stacks/feed/layout?content=frames")
        let image = try PNGImage(try server.request("GET", "/v1/stacks/feed/layout.png?scale=2").body)
        func rect(_ path: String) throws -> (x: Double, y: Double, w: Double, h: Double) {
            let r = try XCTUnwrap(layout[path], path)
            return (try XCTUnwrap(r["x"]?.doubleValue), try XCTUnwrap(r["y"]?.doubleValue),
                    try XCTUnwrap(r["width"]?.doubleValue), try XCTUnwrap(r["height"]?.doubleValue))
        }
        func pixel(_ x: Double, _ y: Double) -> (Int, Int, Int) {
            image.rgb(Int(((Self.contentOrigin.x + x) * 2).rounded(.down)), Int(((Self.contentOrigin.y + y) * 2).rounded(.down)))
        }
        // The card: green inside, its border colour along the inside of its edge, the
        // content's grey outside its round corner.
        let card = try rect("rows[1].frame")
        XCTAssertTrue(pixel(card.x + card.w / 2, card.y + card.h / 2) == (0, 255, 0), "\(pixel(card.x + card.w / 2, card.y + card.h / 2))")
        XCTAssertTrue(pixel(card.x + 15, card.y + card.h / 2) == (0x12, 0x34, 0x56))
        XCTAssertTrue(pixel(card.x + 1, card.y + 1) == (0xF2, 0xF2, 0xF7), "the corner is cut round: \(pixel(card.x + 1, card.y + 1))")
        // The label: yellow ink only inside its line boxes, reaching from each line's start to its end.
        let frame = try rect("rows[0].frame")
        let lines = try XCTUnwrap(layout["rows[0].content.lines"]?.arrayValue)
        XCTAssertGreaterThanOrEqual(lines.count, 2, "the text wraps")
        XCTAssertTrue(pixel(frame.x + 4, frame.y + 4) == (0, 0, 255), "blue background")
        var inkPerLine = [(minX: Double, maxX: Double)](repeating: (.infinity, -.infinity), count: lines.count)
        let boxes = try lines.map { line in
            (x: try XCTUnwrap(line["x"]?.doubleValue), y: try XCTUnwrap(line["y"]?.doubleValue),
             w: try XCTUnwrap(line["width"]?.doubleValue), h: try XCTUnwrap(line["height"]?.doubleValue))
        }
        var strays = 0
        for py in Int((Self.contentOrigin.y + frame.y) * 2)..<Int((Self.contentOrigin.y + frame.y + frame.h) * 2) {
            for px in Int((Self.contentOrigin.x + frame.x) * 2)..<Int((Self.contentOrigin.x + frame.x + frame.w) * 2) {
                let (r, g, b) = image.rgb(px, py)
                guard r > 128 && g > 128 && b < 128 else { continue }
                let x = Double(px) / 2 - Self.contentOrigin.x, y = Double(py) / 2 - Self.contentOrigin.y
                guard let k = boxes.firstIndex(where: { y >= $0.y - 1 && y < $0.y + $0.h + 1 && x >= $0.x - 1 && x <= $0.x + $0.w + 1 }) else {
                    strays += 1
                    continue
                }
                inkPerLine[k].minX = min(inkPerLine[k].minX, x)
                inkPerLine[k].maxX = max(inkPerLine[k].maxX, x)
            }
        }
        XCTAssertEqual(strays, 0, "no ink outside the line boxes")
        for (k, box) in boxes.enumerated() {
            XCTAssertEqual(inkPerLine[k].minX, box.x, accuracy: 3, "line \(k) starts where its box does")
            XCTAssertEqual(inkPerLine[k].maxX, box.x + box.w, accuracy: 3, "line \(k) ends where its box does")
        }
    }

    /// Glyphs are drawn from cached masks at fractions of a pixel: a text moved by a whole
    /// pixel is the same ink one pixel over, and one moved by 1/32 of a pixel (the step glyph
    /// origins are rounded to) is drawn differently, not snapped to whole pixels.
    func testGlyphsMoveByWholePixelsAndByFractions() throws {
        let server = try ServerHarness()
        defer { server.stop() }
        func ink(left: Double) throws -> [[Int]] {
            let body = try j("""
                {"viewport": {"width": 200, "height": 60}, "separator": {"hidden": true},
                 "rows": [{"id": "t", "view": {"type": "Label"}, "insets": {"top": 10, "left": \(left), "bottom": 10, "right": 0},
                           "content": {"text": "Quarter", "font": {"family": "Inter", "size": 17}},
                           "style": {"background": "#FFFFFF", "textColor": "#000000"}}]}
                """)
            let reply = try server.request("POST", "/v1/layout.png", json: body)
            XCTAssertEqual(reply.status, 200, reply.text)
            let image = try PNGImage(reply.body)
            return (0..<image.height).map { y in (0..<image.width).map { x in image.rgb(x, y).0 } }
        }
        let base = try ink(left: 10.25), whole = try ink(left: 11.25), step = try ink(left: 10.25 + 1.0 / 32)
        XCTAssertNotEqual(step, base, "a 1/32 pixel is drawn")
        var dark = 0
        // Inside the viewport (drawn from the content origin, 200 × 60), off its outline.
        let (left, top) = (Int(Self.contentOrigin.x) + 2, Int(Self.contentOrigin.y) + 2)
        for (y, row) in base.enumerated() where y >= top && y < top + 56 {
            for x in left..<(left + 190) where row[x] < 128 {
                dark += 1
                XCTAssertEqual(whole[y][x + 1], row[x], "ink at (\(x), \(y)) is one pixel over")
            }
        }
        XCTAssertGreaterThan(dark, 50, "the text is drawn")
    }

    /// A glyph too big for a kept mask (here some 500 × 600 pixels) is filled as an outline:
    /// the same ink as at a size that is masked, scaled.
    func testAHugeGlyphIsDrawnAsAnOutline() throws {
        let server = try ServerHarness()
        defer { server.stop() }
        func darkShare(size: Int, scale: Int) throws -> Double {
            let body = try j("""
                {"viewport": {"width": 800, "height": 1000}, "separator": {"hidden": true},
                 "rows": [{"id": "t", "view": {"type": "Label"}, "insets": {"top": 0, "left": 0, "bottom": 0, "right": 0},
                           "content": {"text": "W", "font": {"family": "Inter", "size": \(size)}},
                           "style": {"background": "#FFFFFF", "textColor": "#000000"}}]}
                """)
            let reply = try server.request("POST", "/v1/layout.png?scale=\(scale)", json: body)
            XCTAssertEqual(reply.status, 200, reply.text)
            let image = try PNGImage(reply.body)
            // Within the row: the content origin onwards, the row's width and the line's height.
            let frames = try server.request("POST", "/v1/layout?content=frames", json: body)
            let line = try XCTUnwrap(frames["rows[0].content.lines[0]"])
            let w = try XCTUnwrap(line["width"]?.doubleValue), h = try XCTUnwrap(line["height"]?.doubleValue)
            var dark = 0, all = 0
            for y in Int(Self.contentOrigin.y) * scale..<Int(Self.contentOrigin.y + h) * scale {
                for x in Int(Self.contentOrigin.x) * scale..<Int(Self.contentOrigin.x + w) * scale {
                    all += 1
                    if image.rgb(x, y).0 < 128 { dark += 1 }
                }
            }
            return Double(dark) / Double(all)
        }
        let huge = try darkShare(size: 640, scale: 1), small = try darkShare(size: 80, scale: 1)
        XCTAssertGreaterThan(huge, 0.1, "the huge W is drawn")
        XCTAssertEqual(huge, small, accuracy: 0.02, "as much of its line box is ink as at a masked size")
    }

    /// Three coloured pages with titles, a page indicator and a menu, on page two.
    static let carousel = """
        {"axis": "horizontal", "viewport": {"width": 375, "height": 300},
         "rowInsets": {"top": 0, "left": 0, "bottom": 0, "right": 0},
         "paging": {"size": {"fraction": 1}}, "pageIndicator": true,
         "menu": {"itemSize": {"fixed": {"width": 100, "height": 40}}},
         "rows": [
           {"id": "p0", "view": {"type": "Page"}, "size": {"fixed": 375}, "title": "One", "style": {"background": "#FF9500"}},
           {"id": "p1", "view": {"type": "Page"}, "size": {"fixed": 375}, "title": "Two", "style": {"background": "#5856D6"}},
           {"id": "p2", "view": {"type": "Page"}, "size": {"fixed": 375}, "title": "Three", "style": {"background": "#34C759"}}]}
        """

    func testTheMenuAndTheDotsAreDrawnOverTheCurrentPage() throws {
        let server = try ServerHarness()
        defer { server.stop() }
        let body = try j(Self.carousel)
        let svg = try server.request("POST", "/v1/layout.svg?offset=375&window=visible", json: body).text
        let png = try PNGImage(try server.request("POST", "/v1/layout.png?offset=375&window=visible", json: body).body)
        /// The numbers of the first element matching `prefix`, by attribute.
        func numbers(_ prefix: String, _ names: [String]) throws -> [Double] {
            let start = try XCTUnwrap(svg.range(of: prefix), prefix)
            let element = svg[start.lowerBound..<(try XCTUnwrap(svg[start.lowerBound...].firstIndex(of: ">")))]
            return try names.map { name in
                let value = try XCTUnwrap(element.range(of: " \(name)=\""), "\(name) in \(element)")
                let rest = element[value.upperBound...]
                return try XCTUnwrap(Double(rest[..<(try XCTUnwrap(rest.firstIndex(of: "\"")))]))
            }
        }
        let translate = try XCTUnwrap(svg.range(of: "<g class=\"content-space\" transform=\"translate("))
        let pair = svg[translate.upperBound...].prefix { $0 != ")" }.split(separator: ",").compactMap { Double($0) }
        XCTAssertEqual(pair.count, 2)
        func pixel(_ x: Double, _ y: Double) -> (Int, Int, Int) { png.rgb(Int(pair[0] + x), Int(pair[1] + y)) }
        let indicator = try numbers("<rect class=\"menu-indicator\"", ["x", "y", "width", "height"])
        XCTAssertEqual(indicator[2], 100, "under the selected item")
        XCTAssertTrue(pixel(indicator[0] + indicator[2] / 2, indicator[1] + indicator[3] / 2) == (3, 125, 233),
                      "Parchment's blue: \(pixel(indicator[0] + indicator[2] / 2, indicator[1] + indicator[3] / 2))")
        XCTAssertTrue(svg.contains("<g class=\"menu\" data-selected=\"1\""))
        XCTAssertEqual(svg.components(separatedBy: "<g class=\"text\" fill=\"#037DE9\"").count - 1, 1, "one title drawn selected")
        let dot = try numbers("<circle class=\"dot current\"", ["cx", "cy"])
        XCTAssertTrue(pixel(dot[0], dot[1]) == (255, 255, 255), "the current dot is white: \(pixel(dot[0], dot[1]))")
        XCTAssertTrue(pixel(dot[0] + 30, dot[1]) == (0x58, 0x56, 0xD6), "page two's background around the dots")
    }

    /// The carousel's pages along y (each 300 tall, the viewport's height), the same menu.
    static let verticalCarousel = carousel.replacingOccurrences(of: "\"horizontal\"", with: "\"vertical\"")
        .replacingOccurrences(of: "\"fixed\": 375", with: "\"fixed\": 300")

    func testTheMenuOverVerticalPagesIsDrawnAsAHorizontalStripAboveTheViewport() throws {
        let server = try ServerHarness()
        defer { server.stop() }
        let body = try j(Self.verticalCarousel)
        let reply = try server.request("POST", "/v1/layout.svg?offset=300&window=visible", json: body)
        XCTAssertEqual(reply.status, 200, reply.text)
        let svg = reply.text
        let png = try PNGImage(try server.request("POST", "/v1/layout.png?offset=300&window=visible", json: body).body)
        func numbers(_ prefix: String, _ names: [String], in svg: String? = nil) throws -> [Double] {
            let svg = svg ?? reply.text
            let start = try XCTUnwrap(svg.range(of: prefix), prefix)
            let element = svg[start.lowerBound..<(try XCTUnwrap(svg[start.lowerBound...].firstIndex(of: ">")))]
            return try names.map { name in
                let value = try XCTUnwrap(element.range(of: " \(name)=\""), "\(name) in \(element)")
                let rest = element[value.upperBound...]
                return try XCTUnwrap(Double(rest[..<(try XCTUnwrap(rest.firstIndex(of: "\"")))]))
            }
        }
        let translate = try XCTUnwrap(svg.range(of: "<g class=\"content-space\" transform=\"translate("))
        let pair = svg[translate.upperBound...].prefix { $0 != ")" }.split(separator: ",").compactMap { Double($0) }
        XCTAssertEqual(pair.count, 2)
        func pixel(_ x: Double, _ y: Double) -> (Int, Int, Int) { png.rgb(Int(pair[0] + x), Int(pair[1] + y)) }
        XCTAssertTrue(svg.contains("<g class=\"menu\" data-selected=\"1\""), "page two's item selected")
        let background = try numbers("<rect class=\"menu-background\"", ["x", "y", "width", "height"])
        XCTAssertEqual(background, [0, 260, 375, 40], "a strip as wide as the viewport, just above it (at y 300 in content space)")
        let viewport = try numbers("<rect id=\"viewport\"", ["x", "y", "width", "height"])
        XCTAssertEqual(viewport, [0, 300, 375, 300])
        let indicator = try numbers("<rect class=\"menu-indicator\"", ["x", "y", "width", "height"])
        XCTAssertEqual(indicator[2], 100, "under the selected item")
        XCTAssertEqual(indicator[3], 4)
        XCTAssertEqual(indicator[1] + indicator[3], 300, "on the strip's bottom edge, next to the pages")
        XCTAssertTrue(pixel(indicator[0] + indicator[2] / 2, indicator[1] + indicator[3] / 2) == (3, 125, 233),
                      "Parchment's blue: \(pixel(indicator[0] + indicator[2] / 2, indicator[1] + indicator[3] / 2))")
        XCTAssertEqual(svg.components(separatedBy: "<g class=\"text\" fill=\"#037DE9\"").count - 1, 1, "one title drawn selected")
        XCTAssertTrue(pixel(indicator[0] + indicator[2] / 2, 310) == (0x58, 0x56, 0xD6), "page two under the menu")
        // The same strip as over the horizontal pages on page two, whose viewport is 375 along x.
        let horizontal = try server.request("POST", "/v1/layout.svg?offset=375&window=visible", json: try j(Self.carousel)).text
        let x = try numbers("<rect class=\"menu-indicator\"", ["x"], in: horizontal)[0]
        XCTAssertEqual(x - 375, indicator[0], "the indicator at the same x in the strip")
    }

    func testPicturesPastThePixelBudgetAreRefusedNamingWhatToChange() throws {
        var limits = ServiceLimits()
        limits.picturePixels = 600_000
        let server = try ServerHarness(service: StackService(limits: limits))
        defer { server.stop() }
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: try j(Self.feed)).status, 201)
        // 352 × (40 + the content and its 32 margins): about 330,000 pixels at scale 1.
        XCTAssertEqual(try server.request("GET", "/v1/stacks/feed/layout.png").status, 200)
        let twice = try server.request("GET", "/v1/stacks/feed/layout.png?scale=2")
        XCTAssertEqual(twice.status, 422, twice.text)
        XCTAssertEqual(twice.errorCode, "work_budget_exceeded")
        XCTAssertEqual(twice.errorField, "scale")
        let sheet = try server.request("GET", "/v1/stacks/feed/layout.png?devices=iphone-se,ipad")
        XCTAssertEqual(sheet.status, 422, sheet.text)
        XCTAssertEqual(sheet.errorField, "window")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/feed/layout.svg?devices=iphone-se,ipad").status, 200, "an SVG has no pixels to count")

        // Glyphs: the label's 40-odd, the heading's and the caption's are more than 60.
        var few = ServiceLimits()
        few.pictureGlyphs = 60
        let tight = try ServerHarness(service: StackService(limits: few))
        defer { tight.stop() }
        XCTAssertEqual(try tight.request("POST", "/v1/stacks", json: try j(Self.feed)).status, 201)
        for path in ["/v1/stacks/feed/layout.svg", "/v1/stacks/feed/layout.png"] {
            let refused = try tight.request("GET", path)
            XCTAssertEqual(refused.status, 422, refused.text)
            XCTAssertEqual(refused.errorCode, "work_budget_exceeded")
            XCTAssertEqual(refused.errorField, "window")
        }
        XCTAssertEqual(try tight.request("GET", "/v1/stacks/feed/layout").status, 200, "the JSON draws no glyphs")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/feed/layout.svg").status, 200, "within the default budget")
    }

    func testASheetOfMorePixelsThanAnIntHoldsIsRefusedNotACrash() throws {
        let server = try ServerHarness()
        defer { server.stop() }
        // Ten panels of 10⁹ × 10⁹ pt side by side: some 10¹⁹ pixels, more than Int.max.
        let huge = (0..<10).map { object(("name", .string("huge\($0)")), ("width", 1_000_000_000), ("height", 1_000_000_000)) }
        let body: JSON = object(
            ("devices", .array(huge)),
            ("rows", [object(("id", "a"), ("view", object(("type", "A"))), ("size", object(("fixed", 100))))]))
        let refused = try server.request("POST", "/v1/layout.png", json: body)
        XCTAssertEqual(refused.status, 422, refused.text)
        XCTAssertEqual(refused.errorCode, "work_budget_exceeded")
        XCTAssertTrue(refused.text.contains("·10¹⁵ pixels"), refused.text)
        XCTAssertEqual(try server.request("GET", "/healthz").status, 200, "the server is still up")
    }

    /// Docs/API.md shows Docs/images/layout-preview.png and .svg: they must be what the
    /// server draws now. `SCROLLSTACK_WRITE_PICTURES=1` writes them afresh.
    func testTheDocumentedPicturesAreWhatTheServerDrawsNow() throws {
        let server = try ServerHarness()
        defer { server.stop() }
        let images = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Docs/images")
        let body = try JSON.parse(Array(try Data(contentsOf: images.appendingPathComponent("layout-preview.json")).mapToBytes()))
        for (route, file) in [("/v1/layout.png?scale=2", "layout-preview.png"), ("/v1/layout.svg", "layout-preview.svg")] {
            let drawn = try server.request("POST", route, json: body)
            XCTAssertEqual(drawn.status, 200, drawn.text)
            let url = images.appendingPathComponent(file)
            if ProcessInfo.processInfo.environment["SCROLLSTACK_WRITE_PICTURES"] == "1" {
                try Data(drawn.body).write(to: url)
            }
            let committed = [UInt8](try Data(contentsOf: url))
            XCTAssertTrue(committed == drawn.body, "\(file) is not what \(route) draws now: run with SCROLLSTACK_WRITE_PICTURES=1 and look at it")
        }
    }
}

private extension Data {
    func mapToBytes() -> [UInt8] { [UInt8](self) }
}
