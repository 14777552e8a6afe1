@testable import ScrollStackPaging
import XCTest

/// Parchment's infinite data source: the items needed around a selected one.
final class MenuWindowTests: XCTestCase {
    let tens = Array(repeating: 100.0, count: 10)

    func testFillsBothSides() {
        // Before: 250 → 150 → 50 → −50 (items 4, 3, 2); after: 250 − 50 = 200 → items 6, 7.
        let w = MenuWindow(widths: tens, around: 5, width: 250, spacing: 0)
        XCTAssertEqual(w.before, [2, 3, 4])
        XCTAssertEqual(w.after, [6, 7])
        XCTAssertEqual(w.missingBefore, 0)
        XCTAssertEqual(w.missingAfter, 0)
        // Spacing costs too: 250 → 140 → 30 → −80.
        XCTAssertEqual(MenuWindow(widths: tens, around: 5, width: 250, spacing: 10).before, [2, 3, 4])
        XCTAssertEqual(MenuWindow(widths: tens, around: 5, width: 250, spacing: 10).after, [6, 7])
    }

    func testRoomLeftBeforeGoesAfter() {
        // Nothing before item 0: 250 missing (3 items of 100), and the after side gets 500.
        let w = MenuWindow(widths: tens, around: 0, width: 250, spacing: 0)
        XCTAssertEqual(w.before, [])
        XCTAssertEqual(w.after, [1, 2, 3, 4, 5])
        XCTAssertEqual(w.missingWidthBefore, 250)
        XCTAssertEqual(w.missingBefore, 3)
        XCTAssertEqual(w.missingAfter, 0)
    }

    func testRoomLeftAfterGoesBefore() {
        // Item 9: before takes 8, 7, 6 (250 → −50); after is empty with 200 left → 5, 4 before.
        let w = MenuWindow(widths: tens, around: 9, width: 250, spacing: 0)
        XCTAssertEqual(w.before, [4, 5, 6, 7, 8])
        XCTAssertEqual(w.after, [])
        XCTAssertEqual(w.missingWidthAfter, 200)
        XCTAssertEqual(w.missingAfter, 2)
        XCTAssertEqual(w.missingBefore, 0)
    }

    func testTooFewItems() {
        let w = MenuWindow(widths: [100, 100, 100], around: 1, width: 400, spacing: 0)
        XCTAssertEqual(w.before, [0])
        XCTAssertEqual(w.after, [2])
        XCTAssertEqual(w.missingWidthBefore, 300)
        XCTAssertEqual(w.missingBefore, 3)
        XCTAssertEqual(w.missingWidthAfter, 600)  // 400 + 300 − 100
        XCTAssertEqual(w.missingAfter, 6)
    }

    /// Items of width 0 and a spacing of 10⁻³⁰⁰: a missing width of 10⁹ is more items than `Int`
    /// holds (the count trapped and took the server down); it is answered as 2⁵³.
    func testMissingCountOfTinyItemsIsBounded() {
        let w = MenuWindow(widths: [0, 0], around: 0, width: 1e9, spacing: 1e-300)
        XCTAssertEqual(w.after, [1])
        XCTAssertEqual(w.missingWidthBefore, 1e9)
        XCTAssertEqual(w.missingBefore, MenuWindow.maximumMissingItems)
        XCTAssertEqual(w.missingAfter, MenuWindow.maximumMissingItems)
        XCTAssertEqual(MenuWindow.itemCount(3, unit: 1e-15), 3_000_000_000_000_000)
        XCTAssertEqual(MenuWindow.itemCount(3, unit: 0), 0)
    }
}
