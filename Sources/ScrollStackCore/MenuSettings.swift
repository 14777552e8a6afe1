/// The paging menu above or below a paging stack (Parchment's `PagingViewController` options,
/// with Parchment's defaults). The menu is always a horizontal strip of items, whichever axis
/// the pages scroll along (Parchment's `contentNavigationOrientation`). Data only: the menu's
/// geometry is computed by the `ScrollStackPaging` module.
public struct MenuSettings: Sendable, Hashable {
    /// How wide the items are (Parchment's `PagingMenuItemSize`).
    public enum ItemSize: Sendable, Hashable {
        case fixed(width: Double, height: Double)
        /// Items as wide as their titles but at least `minWidth`, stretched to fill the menu
        /// when they all fit.
        case sizeToFit(minWidth: Double, height: Double)
        /// Items as wide as their titles; `estimatedWidth` for rows without a title.
        case selfSizing(estimatedWidth: Double, height: Double)

        public var height: Double {
            switch self {
            case .fixed(_, let height), .sizeToFit(_, let height), .selfSizing(_, let height): height
            }
        }

        /// The mode's name as the API writes it.
        public var modeName: String {
            switch self {
            case .fixed: "fixed"
            case .sizeToFit: "sizeToFit"
            case .selfSizing: "selfSizing"
            }
        }

        /// Whether item widths come from measuring titles.
        public var measuresTitles: Bool {
            if case .fixed = self { return false }
            return true
        }
    }

    public enum HorizontalAlignment: String, Sendable, Hashable, CaseIterable {
        case left, center, right
    }

    public enum ScrollPosition: String, Sendable, Hashable, CaseIterable {
        case left, right, center, preferCentered
    }

    /// How the menu follows the content between pages (Parchment's `PagingMenuTransition`).
    public enum Transition: String, Sendable, Hashable, CaseIterable {
        /// The menu's offset, indicator and item colours follow the content's progress.
        case scrollAlongside
        /// The menu stays on the current item while the content is between pages and is
        /// where `scrollAlongside` puts it once paging rests on a page.
        case animateAfter
    }

    /// Where the menu sits relative to the pages; also where the indicator and border sit.
    public enum Position: String, Sendable, Hashable, CaseIterable {
        case top, bottom
    }

    /// The bar under (or over) the selected item.
    public struct Indicator: Sendable, Hashable {
        public var height: Double
        /// Horizontal space taken off every item's frame (left and right only).
        public var spacing: EdgeInsets
        /// Left: before the first item; right: after the last; top/bottom: from the menu edge.
        public var insets: EdgeInsets
        /// The menu edge the indicator sits on; nil: the edge next to the pages.
        public var position: Position?

        public init(height: Double = 4, spacing: EdgeInsets = .zero, insets: EdgeInsets = EdgeInsets(left: 8, right: 8),
                    position: Position? = nil) {
            self.height = height
            self.spacing = spacing
            self.insets = insets
            self.position = position
        }
    }

    /// The line along the menu's edge next to the pages.
    public struct Border: Sendable, Hashable {
        public var height: Double
        /// Left and right: from the ends of the menu content.
        public var insets: EdgeInsets

        public init(height: Double = 1, insets: EdgeInsets = EdgeInsets(left: 8, right: 8)) {
            self.height = height
            self.insets = insets
        }
    }

    public var itemSize: ItemSize
    public var itemSpacing: Double
    /// Space on each side of a measured title inside its item.
    public var itemLabelSpacing: Double
    public var insets: EdgeInsets
    public var horizontalAlignment: HorizontalAlignment
    public var selectedScrollPosition: ScrollPosition
    /// Parchment's `menuTransition`: `scrollAlongside` by default.
    public var menuTransition: Transition
    /// nil: hidden.
    public var indicator: Indicator?
    /// nil: hidden.
    public var border: Border?
    public var position: Position
    /// The title font of items that are not selected (measured by `sizeToFit`, `selfSizing`).
    public var font: FontRequest
    /// The title font of the selected item: its measured width is the item's selected width.
    public var selectedFont: FontRequest
    /// The title colour of an item that is not selected (Parchment's `textColor`: black), `#RRGGBBAA`.
    public var textColor: String
    /// The title colour of the selected item (Parchment's `selectedTextColor`: `#037DE9`);
    /// part-way between two pages an item's title is interpolated between the two.
    public var selectedTextColor: String
    /// The background of an item that is not selected (Parchment's `backgroundColor`: clear).
    public var backgroundColor: String
    /// The background of the selected item (Parchment's `selectedBackgroundColor`: clear);
    /// interpolated with `backgroundColor` as the title colours are.
    public var selectedBackgroundColor: String
    /// The indicator's colour (Parchment's `indicatorColor`: `#037DE9`).
    public var indicatorColor: String
    /// The border's colour (Parchment's `borderColor`: white 0.9, `#E6E6E6`).
    public var borderColor: String
    /// The background behind the items (Parchment's `menuBackgroundColor`: white).
    public var menuBackgroundColor: String

    public init(itemSize: ItemSize = .sizeToFit(minWidth: 150, height: 40), itemSpacing: Double = 0, itemLabelSpacing: Double = 20,
                insets: EdgeInsets = .zero, horizontalAlignment: HorizontalAlignment = .left,
                selectedScrollPosition: ScrollPosition = .preferCentered, menuTransition: Transition = .scrollAlongside, indicator: Indicator? = Indicator(),
                border: Border? = Border(), position: Position = .top, font: FontRequest = .menuTitle,
                selectedFont: FontRequest = .menuTitle, textColor: String = "#000000FF", selectedTextColor: String = "#037DE9FF",
                backgroundColor: String = "#00000000", selectedBackgroundColor: String = "#00000000",
                indicatorColor: String = "#037DE9FF", borderColor: String = "#E6E6E6FF", menuBackgroundColor: String = "#FFFFFFFF") {
        self.itemSize = itemSize
        self.itemSpacing = itemSpacing
        self.itemLabelSpacing = itemLabelSpacing
        self.insets = insets
        self.horizontalAlignment = horizontalAlignment
        self.selectedScrollPosition = selectedScrollPosition
        self.menuTransition = menuTransition
        self.indicator = indicator
        self.border = border
        self.position = position
        self.font = font
        self.selectedFont = selectedFont
        self.textColor = textColor
        self.selectedTextColor = selectedTextColor
        self.backgroundColor = backgroundColor
        self.selectedBackgroundColor = selectedBackgroundColor
        self.indicatorColor = indicatorColor
        self.borderColor = borderColor
        self.menuBackgroundColor = menuBackgroundColor
    }

    /// The colour members by their API names, in the order the API writes them.
    public var colors: [(name: String, value: String)] {
        [("textColor", textColor), ("selectedTextColor", selectedTextColor), ("backgroundColor", backgroundColor),
         ("selectedBackgroundColor", selectedBackgroundColor), ("indicatorColor", indicatorColor),
         ("borderColor", borderColor), ("menuBackgroundColor", menuBackgroundColor)]
    }

    /// The menu's height: the items' height plus the top and bottom insets.
    public var height: Double { itemSize.height + insets.top + insets.bottom }

    func validate(_ field: String) throws(StackError) {
        switch itemSize {
        case .fixed(let width, let height):
            try Check.length(width, field + ".itemSize.fixed.width")
            try Check.length(height, field + ".itemSize.fixed.height")
        case .sizeToFit(let minWidth, let height):
            try Check.length(minWidth, field + ".itemSize.sizeToFit.minWidth")
            try Check.length(height, field + ".itemSize.sizeToFit.height")
        case .selfSizing(let estimatedWidth, let height):
            try Check.length(estimatedWidth, field + ".itemSize.selfSizing.estimatedWidth")
            try Check.length(height, field + ".itemSize.selfSizing.height")
        }
        try Check.length(itemSpacing, field + ".itemSpacing")
        try Check.length(itemLabelSpacing, field + ".itemLabelSpacing")
        try Check.insets(insets, field + ".insets")
        if let indicator {
            try Check.length(indicator.height, field + ".indicator.height")
            try Check.insets(indicator.spacing, field + ".indicator.spacing")
            try Check.insets(indicator.insets, field + ".indicator.insets")
        }
        if let border {
            try Check.length(border.height, field + ".border.height")
            try Check.insets(border.insets, field + ".border.insets")
        }
        try font.validate(field + ".font")
        try selectedFont.validate(field + ".selectedFont")
        for (name, value) in colors { try SeparatorStyle.checkColor(value, field + "." + name) }
    }
}
