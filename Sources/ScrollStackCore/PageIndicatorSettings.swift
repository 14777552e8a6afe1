/// The page control of a paging stack (UIPageControl under UIPageViewController).
/// Data only: its frame is computed by the `ScrollStackPaging` module.
public struct PageIndicatorSettings: Sendable, Hashable {
    /// Which edge of the viewport the control sits at, centred horizontally.
    public enum Position: String, Sendable, Hashable, CaseIterable {
        case bottom, top
    }

    /// Hide the control when there is only one page (UIPageControl's `hidesForSinglePage`).
    public var hidesForSinglePage: Bool
    /// The diameter of one dot (UIPageControl's: 7).
    public var dotDiameter: Double
    /// The gap between two dots (UIPageControl's: 9).
    public var dotSpacing: Double
    /// The control's height (UIPageControl's: 37); never less than a dot.
    public var height: Double
    public var position: Position
    /// The distance from the viewport edge at `position`.
    public var inset: Double
    /// The colour of the dots of the pages not shown (UIPageControl's `pageIndicatorTintColor`;
    /// by default UIKit's semitransparent white), `#RRGGBBAA`.
    public var pageIndicatorTintColor: String
    /// The colour of the current page's dot (UIPageControl's `currentPageIndicatorTintColor`;
    /// by default opaque white), `#RRGGBBAA`.
    public var currentPageIndicatorTintColor: String

    public init(hidesForSinglePage: Bool = false, dotDiameter: Double = 7, dotSpacing: Double = 9, height: Double = 37,
                position: Position = .bottom, inset: Double = 0,
                pageIndicatorTintColor: String = "#FFFFFF4D", currentPageIndicatorTintColor: String = "#FFFFFFFF") {
        self.hidesForSinglePage = hidesForSinglePage
        self.dotDiameter = dotDiameter
        self.dotSpacing = dotSpacing
        self.height = height
        self.position = position
        self.inset = inset
        self.pageIndicatorTintColor = pageIndicatorTintColor
        self.currentPageIndicatorTintColor = currentPageIndicatorTintColor
    }

    func validate(_ field: String) throws(StackError) {
        try Check.length(dotDiameter, field + ".dotDiameter")
        try Check.length(dotSpacing, field + ".dotSpacing")
        try Check.length(height, field + ".height")
        try Check.length(inset, field + ".inset")
        try SeparatorStyle.checkColor(pageIndicatorTintColor, field + ".pageIndicatorTintColor")
        try SeparatorStyle.checkColor(currentPageIndicatorTintColor, field + ".currentPageIndicatorTintColor")
    }
}
