import ScrollStackCore
@testable import ScrollStackPaging
import XCTest

/// Parchment's `UIColor.interpolate(from:to:with:)`: red, green, blue and alpha each move
/// linearly by the fraction clamped to 0…1.
final class MenuColorInterpolationTests: XCTestCase {
    func testComponentWiseByTheFraction() {
        // (255, 128, 64, 255) from black: 0.5 → (127.5, 64, 32), halves rounded up.
        XCTAssertEqual(MenuColor.interpolate(from: "#000000FF", to: "#FF8040FF", fraction: 0.5), "#804020FF")
        // Alpha moves like the others: 0x00 → 0xFF at 0.25 is 63.75 → 0x40.
        XCTAssertEqual(MenuColor.interpolate(from: "#FFFFFF00", to: "#FFFFFFFF", fraction: 0.25), "#FFFFFF40")
        // Downwards: 0xFF → 0x00 at 0.1 is 229.5 → 0xE6.
        XCTAssertEqual(MenuColor.interpolate(from: "#FFFFFFFF", to: "#000000FF", fraction: 0.1), "#E6E6E6FF")
    }

    func testTheFractionIsClamped() {
        XCTAssertEqual(MenuColor.interpolate(from: "#000000FF", to: "#FF8040FF", fraction: -3), "#000000FF")
        XCTAssertEqual(MenuColor.interpolate(from: "#000000FF", to: "#FF8040FF", fraction: 7), "#FF8040FF")
        XCTAssertEqual(MenuColor.interpolate(from: "#12345678", to: "#FF8040FF", fraction: 0), "#12345678")
    }

    /// Items in a layout carry their progress and colours: at progress 1.25 item 1 is 0.75
    /// selected and item 2 0.25.
    func testMenuItemsCarryTheirColours() {
        var menu = MenuSettings(itemSize: .fixed(width: 100, height: 40))
        menu.colors.textColor = "#000000FF"
        menu.colors.selectedTextColor = "#FF8040FF"
        let entries = (0..<4).map { MenuLayout.Entry(id: "r\($0)", title: nil) }
        let layout = MenuLayout(menu, entries: entries, width: 375, progress: 1.25, selected: 1, measurer: nil)
        XCTAssertEqual(layout.items.map(\.progress), [0, 0.75, 0.25, 0])
        XCTAssertEqual(layout.items.map(\.textColor), ["#000000FF", "#BF6030FF", "#402010FF", "#000000FF"])
        XCTAssertEqual(layout.items.map(\.backgroundColor), Array(repeating: "#00000000", count: 4))
    }
}
