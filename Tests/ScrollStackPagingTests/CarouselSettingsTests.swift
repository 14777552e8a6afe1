import ScrollStackCore
@testable import ScrollStackPaging
import XCTest

/// The carousel settings' own rules, kept by the core: ranges, dependencies, and titles that
/// need widths while text cannot be measured. A rejected change changes nothing.
final class CarouselSettingsTests: XCTestCase {
    func field(_ body: () throws -> Void) -> String? {
        do { try body() } catch let error as StackError { return error.field } catch { return "unexpected \(error)" }
        return nil
    }

    func settings(_ paging: PagingSettings?, axis: Axis = .horizontal) -> StackSettings {
        var s = StackSettings(axis: axis)
        s.paging = paging
        return s
    }

    func testPageSizeRanges() {
        XCTAssertEqual(field { _ = try ScrollStack(settings: settings(PagingSettings(size: .absolute(0)))) }, "paging.size.absolute")
        XCTAssertEqual(field { _ = try ScrollStack(settings: settings(PagingSettings(size: .absolute(-5)))) }, "paging.size.absolute")
        XCTAssertEqual(field { _ = try ScrollStack(settings: settings(PagingSettings(size: .fraction(0)))) }, "paging.size.fraction")
        XCTAssertEqual(field { _ = try ScrollStack(settings: settings(PagingSettings(size: .fraction(1.0001)))) }, "paging.size.fraction")
        XCTAssertEqual(field { _ = try ScrollStack(settings: settings(PagingSettings(size: .fraction(.nan)))) }, "paging.size.fraction")
        XCTAssertNil(field { _ = try ScrollStack(settings: settings(PagingSettings(size: .fraction(1)))) })
        XCTAssertEqual(field { _ = try ScrollStack(settings: settings(PagingSettings(sizeInsets: EdgeInsets(left: -1)))) }, "paging.sizeInsets.left")
    }

    func testIndicatorAndMenuNeedPagingOnEitherAxis() {
        var s = settings(nil)
        s.pageIndicator = PageIndicatorSettings()
        XCTAssertEqual(field { _ = try ScrollStack(settings: s) }, "pageIndicator")
        s = settings(nil)
        s.menu = MenuSettings()
        XCTAssertEqual(field { _ = try ScrollStack(settings: s) }, "menu")
        s = settings(nil, axis: .vertical)
        s.menu = MenuSettings()
        XCTAssertEqual(field { _ = try ScrollStack(settings: s) }, "menu")
        s = settings(PagingSettings(), axis: .vertical)
        s.menu = MenuSettings()
        XCTAssertNil(field { _ = try ScrollStack(settings: s) }, "a horizontal strip over vertical pages")
        s = settings(PagingSettings())
        s.menu = MenuSettings(itemSpacing: -1)
        XCTAssertEqual(field { _ = try ScrollStack(settings: s) }, "menu.itemSpacing")
        s.menu = MenuSettings(itemSize: .fixed(width: -3, height: 40))
        XCTAssertEqual(field { _ = try ScrollStack(settings: s) }, "menu.itemSize.fixed.width")
        s.pageIndicator = PageIndicatorSettings(dotDiameter: -1)
        s.menu = nil
        XCTAssertEqual(field { _ = try ScrollStack(settings: s) }, "pageIndicator.dotDiameter")
    }

    func testTitlesNeedWidthsWithoutATitleMeasurer() throws {
        var s = settings(PagingSettings())
        s.menu = MenuSettings(itemSize: .sizeToFit(minWidth: 100, height: 40))
        let untitled = Carousel.row("a", 375)
        let bare = Carousel.row("b", 375, title: RowTitle(text: "News"))
        let sized = Carousel.row("c", 375, title: RowTitle(text: "Sport", width: 90))
        XCTAssertEqual(field { _ = try ScrollStack(settings: s, rows: [untitled, sized, bare]) }, "rows[2].title.width")
        var stack = try ScrollStack(settings: s, rows: [untitled, sized])
        let before = stack.rows
        XCTAssertEqual(field { try stack.insert([bare]) }, "rows[0].title.width")
        XCTAssertEqual(field { try stack.replace(.id("a"), with: Carousel.row("a", 375, title: RowTitle(text: "X"))) }, "title.width")
        var change = RowChange()
        change.title = .some(RowTitle(text: "Y"))
        XCTAssertEqual(field { try stack.update(.id("c"), with: change) }, "title.width")
        XCTAssertEqual(stack.rows, before, "nothing changed")

        // Turning a measuring menu on over such a row names the menu's item size.
        var fixed = s
        fixed.menu = MenuSettings(itemSize: .fixed(width: 100, height: 40))
        var other = try ScrollStack(settings: fixed, rows: [bare])
        var toSelfSizing = SettingsChange()
        toSelfSizing.menu = .some(MenuSettings(itemSize: .selfSizing(estimatedWidth: 80, height: 40)))
        XCTAssertEqual(field { try other.update(toSelfSizing) }, "menu.itemSize")
        XCTAssertEqual(other.settings.menu, fixed.menu)

        // With a measurer, titles need no width.
        struct Measurer: TitleMeasuring {
            func width(of text: String, font: FontRequest) -> Double { 50 }
            func unavailable(_ font: FontRequest) -> String? { font.family == "Inter" ? nil : "no font family \"\(font.family)\"" }
        }
        XCTAssertNil(field { _ = try ScrollStack(settings: s, rows: [bare], titleMeasurer: Measurer()) })

        // With a measurer, the menu's fonts must be ones it has; without, they are not used.
        var unknown = s
        unknown.menu?.selectedFont.family = "Nope"
        XCTAssertEqual(field { _ = try ScrollStack(settings: unknown, rows: [bare], titleMeasurer: Measurer()) }, "menu.selectedFont.family")
        XCTAssertNil(field { _ = try ScrollStack(settings: unknown, rows: [sized]) })
        var measured = try ScrollStack(settings: s, rows: [bare], titleMeasurer: Measurer())
        var toUnknown = SettingsChange()
        toUnknown.menu = .some(MenuSettings(font: FontRequest(family: "Nope", size: 15)))
        XCTAssertEqual(field { try measured.update(toUnknown) }, "menu.font.family")
        XCTAssertEqual(measured.settings.menu, s.menu)
        var badSize = s
        badSize.menu?.font.size = 0
        XCTAssertEqual(field { _ = try ScrollStack(settings: badSize, titleMeasurer: Measurer()) }, "menu.font.size")
        badSize.menu?.font.size = 15
        badSize.menu?.selectedFont.weight = 1001
        XCTAssertEqual(field { _ = try ScrollStack(settings: badSize, titleMeasurer: Measurer()) }, "menu.selectedFont.weight")
    }
}
