import ScrollStackCore
import ScrollStackText
import XCTest

/// The text engine as the paging menu's title measurer.
final class TextEngineTitleTests: XCTestCase {
    var engine: TextEngine { TextEngineTests.engine }

    func testTitleWidthIsTheUnwrappedTextWidth() {
        let font = FontRequest(family: "Inter", size: 16)
        // Chromium 156: a nowrap span in Inter-Regular.otf at 16px is 86.390625 wide.
        XCTAssertEqual(engine.width(of: "Hello World", font: font), 86.390625)
        // Spaces collapse and vanish at the ends, as in a text node; a title never wraps.
        XCTAssertEqual(engine.width(of: "  Hello   World ", font: font), 86.390625)
        // With a line break, the widest line.
        XCTAssertEqual(engine.width(of: "Hi\nHello World", font: font), 86.390625)
        XCTAssertEqual(engine.width(of: "", font: font), 0)
    }

    func testWeightAndFamilyChangeTheWidth() {
        let medium = FontRequest.menuTitle
        XCTAssertEqual(medium, FontRequest(family: "Inter", size: 15, weight: 500))
        let regular = engine.width(of: "Featured", font: FontRequest(family: "Inter", size: 15))
        let mediumWidth = engine.width(of: "Featured", font: medium)
        let bold = engine.width(of: "Featured", font: FontRequest(family: "Inter", size: 15, weight: 700))
        XCTAssertTrue(regular < mediumWidth && mediumWidth < bold, "\(regular) < \(mediumWidth) < \(bold)")
        XCTAssertNotEqual(engine.width(of: "Featured", font: FontRequest(family: "DejaVu", size: 15)), regular)
        XCTAssertNil(engine.unavailable(medium))
        XCTAssertTrue(engine.unavailable(FontRequest(family: "Nope", size: 15))?.contains("\"Inter\"") == true)
    }
}
