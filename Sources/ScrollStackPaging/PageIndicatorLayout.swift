import ScrollStackCore

/// The page control of a paging stack, in viewport coordinates.
public struct PageIndicatorLayout: Sendable, Hashable {
    public var frame: Rect
    public var numberOfPages: Int
    /// The paging state's current page, clamped to 0…numberOfPages−1 (0 without pages).
    public var currentPage: Int
    /// No pages, or one page with `hidesForSinglePage`.
    public var hidden: Bool
    /// Each listed dot's frame in viewport coordinates, in page order from page `firstDot`:
    /// `dotDiameter` square, spaced `dotSpacing` apart across the frame and centred in its
    /// height. At most `maxDots` are listed (see `firstDot`).
    public var dots: [Rect]
    /// Each listed dot's colour, in page order: `currentPageIndicatorTintColor` for the current
    /// page, `pageIndicatorTintColor` for the others.
    public var dotColors: [String]
    /// The page of the first listed dot: 0 when every dot is listed; with more than `maxDots`
    /// pages, the first of the `maxDots` dots around the current page (as many before it as
    /// after it where the ends allow).
    public var firstDot: Int

    /// The most dots listed: a stack of millions of pages must not cost an answer of millions
    /// of dots (no page control shows that many).
    public static let maxDots = 1_000

    /// What UIPageControl's `size(forNumberOfPages:)` gives with these metrics: n dots and
    /// n−1 gaps wide (0 for no pages), the control's height tall (never less than a dot).
    public static func size(forNumberOfPages pages: Int, _ settings: PageIndicatorSettings) -> Size {
        let n = Double(Swift.max(0, pages))
        let width = pages > 0 ? n * settings.dotDiameter + (n - 1) * settings.dotSpacing : 0
        return Size(width: width, height: Swift.max(settings.height, settings.dotDiameter))
    }

    /// The control for `pages` pages with `currentPage` selected, centred horizontally in
    /// `viewport` at the edge `settings.position`, `settings.inset` from it, with its dots.
    /// O(min(pages, `maxDots`)).
    public init(_ settings: PageIndicatorSettings, pages: Int, currentPage: Int, viewport: Size) {
        let size = Self.size(forNumberOfPages: pages, settings)
        let y = settings.position == .bottom ? viewport.height - settings.inset - size.height : settings.inset
        frame = Rect(x: (viewport.width - size.width) / 2, y: y, width: size.width, height: size.height)
        numberOfPages = Swift.max(0, pages)
        self.currentPage = Swift.min(Swift.max(currentPage, 0), Swift.max(0, pages - 1))
        hidden = pages == 0 || (pages == 1 && settings.hidesForSinglePage)
        let d = settings.dotDiameter
        let (left, top) = (frame.minX, frame.minY + (size.height - d) / 2)
        let pages = listedRange(count: numberOfPages, around: self.currentPage, limit: Self.maxDots)
        firstDot = pages.lowerBound
        dots = pages.map { Rect(x: left + Double($0) * (d + settings.dotSpacing), y: top, width: d, height: d) }
        let current = self.currentPage
        dotColors = pages.map { $0 == current ? settings.currentPageIndicatorTintColor : settings.pageIndicatorTintColor }
    }
}
