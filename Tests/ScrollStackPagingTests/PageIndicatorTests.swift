import ScrollStackCore
@testable import ScrollStackPaging
import XCTest

/// The page control: UIPageControl's size, its place, the current page and when it hides.
final class PageIndicatorTests: XCTestCase {
    let viewport = Size(width: 375, height: 500)

    func testSizeForNumberOfPages() {
        let standard = PageIndicatorSettings()
        XCTAssertEqual(PageIndicatorLayout.size(forNumberOfPages: 0, standard), Size(width: 0, height: 37))
        XCTAssertEqual(PageIndicatorLayout.size(forNumberOfPages: 1, standard), Size(width: 7, height: 37))
        XCTAssertEqual(PageIndicatorLayout.size(forNumberOfPages: 5, standard), Size(width: 71, height: 37))  // 5·7 + 4·9
        let custom = PageIndicatorSettings(dotDiameter: 10, dotSpacing: 6, height: 20)
        XCTAssertEqual(PageIndicatorLayout.size(forNumberOfPages: 4, custom), Size(width: 58, height: 20))
        let bigDots = PageIndicatorSettings(dotDiameter: 30, dotSpacing: 0, height: 20)
        XCTAssertEqual(PageIndicatorLayout.size(forNumberOfPages: 2, bigDots).height, 30, "never less than a dot")
    }

    func testFrameAtTheBottomCentreOrTop() {
        let bottom = PageIndicatorLayout(PageIndicatorSettings(), pages: 5, currentPage: 2, viewport: viewport)
        XCTAssertEqual(bottom.frame, Rect(x: 152, y: 463, width: 71, height: 37))
        let inset = PageIndicatorLayout(PageIndicatorSettings(inset: 20), pages: 5, currentPage: 2, viewport: viewport)
        XCTAssertEqual(inset.frame.minY, 443)
        let top = PageIndicatorLayout(PageIndicatorSettings(position: .top, inset: 10), pages: 3, currentPage: 0, viewport: viewport)
        XCTAssertEqual(top.frame, Rect(x: 168, y: 10, width: 39, height: 37))
    }

    func testCountAndClamping() {
        XCTAssertEqual(PageIndicatorLayout(PageIndicatorSettings(), pages: 5, currentPage: 7, viewport: viewport).currentPage, 4)
        XCTAssertEqual(PageIndicatorLayout(PageIndicatorSettings(), pages: 5, currentPage: -1, viewport: viewport).currentPage, 0)
        XCTAssertEqual(PageIndicatorLayout(PageIndicatorSettings(), pages: 0, currentPage: 3, viewport: viewport).currentPage, 0)
        XCTAssertEqual(PageIndicatorLayout(PageIndicatorSettings(), pages: 5, currentPage: 3, viewport: viewport).numberOfPages, 5)
    }

    func testHiddenRules() {
        XCTAssertTrue(PageIndicatorLayout(PageIndicatorSettings(), pages: 0, currentPage: 0, viewport: viewport).hidden)
        XCTAssertFalse(PageIndicatorLayout(PageIndicatorSettings(), pages: 1, currentPage: 0, viewport: viewport).hidden)
        XCTAssertTrue(PageIndicatorLayout(PageIndicatorSettings(hidesForSinglePage: true), pages: 1, currentPage: 0, viewport: viewport).hidden)
        XCTAssertFalse(PageIndicatorLayout(PageIndicatorSettings(hidesForSinglePage: true), pages: 2, currentPage: 0, viewport: viewport).hidden)
    }

    /// On a stack, the indicator follows the paging state.
    func testFollowsTheStacksPages() throws {
        var stack = try Carousel.stack([375, 375, 375], width: 375, paging: PagingSettings(), offset: 700)
        XCTAssertNil(stack.pageIndicatorLayout())
        var settings = SettingsChange()
        settings.pageIndicator = .some(PageIndicatorSettings())
        try stack.update(settings)
        let indicator = try XCTUnwrap(stack.pageIndicatorLayout())
        XCTAssertEqual(indicator.numberOfPages, 3)
        XCTAssertEqual(indicator.currentPage, 2)
        XCTAssertEqual(stack.pageIndicatorLayout(offset: Point(x: 100, y: 0))?.currentPage, 0)
    }
}
