import ScrollStackCore

/// The paging menu's geometry (Parchment's `PagingCollectionViewLayout`), in menu content
/// coordinates: x from the menu content's left edge, y from the menu's top.
public struct MenuLayout: Sendable, Hashable {
    /// A row's entry in the menu.
    public struct Entry: Sendable, Hashable {
        public var id: String
        public var title: RowTitle?

        public init(id: String, title: RowTitle?) {
            self.id = id
            self.title = title
        }
    }

    public struct Item: Sendable, Hashable {
        public var id: String
        public var frame: Rect
        /// How selected the item is, 0…1 (Parchment's `PagingCellLayoutAttributes.progress`):
        /// 1 − f for the current item, f for the upcoming one, 0 for the others; clamped to 0…1.
        public var progress: Double
        /// The title's colour at `progress`, between the menu's `textColor` and
        /// `selectedTextColor` (`MenuColors`), `#RRGGBBAA`.
        public var textColor: String
        /// The item's background at `progress`, between `backgroundColor` and
        /// `selectedBackgroundColor`, `#RRGGBBAA`.
        public var backgroundColor: String
    }

    public var items: [Item]
    public var contentSize: Size
    /// The menu's horizontal content offset for the selection.
    public var contentOffset: Double
    /// nil when hidden or without items.
    public var indicator: Rect?
    /// nil when hidden.
    public var border: Rect?
    /// The selected item's index, nil without items.
    public var selected: Int?
    /// The paging progress the menu is laid out at (see `ScrollStack.menuLayout(offset:)`).
    public var progress: Double

    /// Each entry's width when normal and when selected, before `sizeToFit` stretches them:
    /// the title's `width` when given; else `fixed` width; else the title measured in the
    /// menu's `font` plus `itemLabelSpacing` on both sides (at least `minWidth` for
    /// `sizeToFit`); else, with no title or no measurer, `minWidth` or `estimatedWidth`. The
    /// selected width is the title's `selectedWidth`; else, for a measured title, the title
    /// measured in `selectedFont` by the same rule; else the normal width. O(items).
    public static func naturalWidths(_ entries: [Entry], _ menu: MenuSettings, measurer: (any TitleMeasuring)?) -> [(normal: Double, selected: Double)] {
        entries.map { entry in
            if let explicit = entry.title?.width { return (explicit, entry.title?.selectedWidth ?? explicit) }
            let text = entry.title?.text
            func width(_ font: FontRequest) -> Double {
                let measured = text.flatMap { text in measurer.map { $0.width(of: text, font: font) + 2 * menu.itemLabelSpacing } }
                switch menu.itemSize {
                case .fixed(let fixed, _): return fixed
                case .sizeToFit(let minWidth, _): return Swift.max(minWidth, measured ?? minWidth)
                case .selfSizing(let estimated, _): return measured ?? estimated
                }
            }
            let normal = width(menu.font)
            return (normal, entry.title?.selectedWidth ?? width(menu.selectedFont))
        }
    }

    /// Lays the menu out for a menu `width` wide at paging `progress` (item k is page k), with
    /// item `selected` (the current page, clamped to the items) selected. The rules are
    /// Parchment's `PagingCollectionViewLayout`, `PagingIndicatorMetric`,
    /// `PagingIndicatorLayoutAttributes`, `PagingBorderLayoutAttributes` and the offsets
    /// `PagingController` scrolls the menu to, with the deliberate differences listed in
    /// Docs/Semantics.md ("Parchment's rules, followed and changed").
    ///
    /// - The transition: between items k and k+1 (k = ⌊progress⌋, fraction f) item k is the
    ///   current item and k+1 the upcoming one, f of the way; before the first (after the
    ///   last) item the first (last) is current, there is no upcoming item, and f is how far
    ///   past it the progress is. At a whole page there is no transition.
    /// - Item widths: the current item is tween(selected, normal, f) wide and the upcoming
    ///   one tween(normal, selected, f); the others are normal. With `sizeToFit` and no title
    ///   giving an explicit `width` (Parchment without a size delegate), items that end before
    ///   the menu's width each gain an equal share of the room left.
    /// - Positions: from `insets.left`, `itemSpacing` apart, at y `insets.top`; `center` and
    ///   `right` alignment shift items that end (with `insets.right`) before the menu's width.
    ///   With the `center` scroll position, everything moves right by half the menu less half
    ///   the first item, and the content gains that and half the menu less half the last item.
    /// - Content offset: where selecting item i puts the menu (its left edge at the bounds'
    ///   left for `left`, right edge at the bounds' right for `right`, centred otherwise,
    ///   clamped to the content) is computed with item i selected; part-way it moves linearly
    ///   from the current item's to the upcoming item's, and stays at the current item's when
    ///   there is no upcoming item.
    /// - Colours (Parchment's `progressForItem` and `PagingTitleCell.apply`): the current
    ///   item's progress is 1 − f, the upcoming item's f, every other item's 0 (so an end
    ///   item overscrolled fades towards the normal colours); each item's title and
    ///   background colours are `MenuColors` interpolations at its progress.
    /// - Indicator: Parchment's metrics, tweened by f from the current item's to the upcoming
    ///   item's (the virtual item one width beyond the first or last item when there is none);
    ///   while scrolling between two items both are measured at their selected widths.
    ///
    /// - Complexity: O(items): three layout passes (now, and with each end item selected).
    public init(_ menu: MenuSettings, entries: [Entry], width: Double, progress: Double, selected: Int, measurer: (any TitleMeasuring)?) {
        self.progress = progress
        let n = entries.count
        let natural = Self.naturalWidths(entries, menu, measurer: measurer)
        // Parchment's size delegate: explicit widths are used as they are, never stretched.
        let sizeDelegate = entries.contains { $0.title?.width != nil }
        // Which item is current and which upcoming (nil: none), and how far; see above.
        var current = 0
        var upcoming: Int? = nil
        var fraction = 0.0
        if n > 0 {
            if progress < 0 {
                (current, fraction) = (0, -progress)
            } else if progress > Double(n - 1) {
                (current, fraction) = (n - 1, progress - Double(n - 1))
            } else {
                current = Int(progress.rounded(.down))
                fraction = progress - Double(current)
                if fraction > 0 { upcoming = current + 1 }
            }
        }
        let now = Pass(menu, natural: natural, width: width, sizeDelegate: sizeDelegate, current: current, upcoming: upcoming, fraction: fraction)
        // Every item but the current and upcoming ones is at progress 0: their colours are
        // worked out once, not parsed from the settings' text for each item.
        let restText = MenuColors.text(menu, progress: 0), restBackground = MenuColors.background(menu, progress: 0)
        items = zip(entries, now.frames).enumerated().map { k, pair in
            let raw = k == current ? 1 - fraction : (k == upcoming ? fraction : 0)
            let progress = Swift.min(1, Swift.max(0, raw))
            guard progress != 0 else {
                return Item(id: pair.0.id, frame: pair.1, progress: 0, textColor: restText, backgroundColor: restBackground)
            }
            return Item(id: pair.0.id, frame: pair.1, progress: progress,
                        textColor: MenuColors.text(menu, progress: progress), backgroundColor: MenuColors.background(menu, progress: progress))
        }
        contentSize = Size(width: now.contentWidth, height: menu.height)
        self.selected = n > 0 ? Swift.min(Swift.max(selected, 0), n - 1) : nil

        // The offset selecting item i scrolls to, from a pass with item i selected.
        func selectedOffset(_ i: Int) -> Double {
            let pass = i == current && fraction == 0 ? now
                : Pass(menu, natural: natural, width: width, sizeDelegate: sizeDelegate, current: i, upcoming: nil, fraction: 0)
            return pass.offset(showing: i, menu.selectedScrollPosition, width: width)
        }
        if n == 0 {
            contentOffset = 0
        } else if let upcoming {
            contentOffset = tween(selectedOffset(current), selectedOffset(upcoming), fraction)
        } else {
            contentOffset = selectedOffset(current)
        }

        if let indicator = menu.indicator, n > 0 {
            // Without an upcoming item the indicator heads for the virtual item beyond the end it
            // is past (Parchment's upcomingIndexPathForIndexPath; see Semantics.md for one item).
            let target = upcoming ?? (fraction == 0 ? current : (progress < 0 ? -1 : n))
            let scrolling = upcoming != nil
            let from = now.indicatorMetric(current, indicator, selectedWidths: scrolling)
            let to = now.indicatorMetric(target, indicator, selectedWidths: scrolling)
            let edge = indicator.position ?? (menu.position == .top ? .bottom : .top)
            // PagingIndicatorLayoutAttributes.configure: a top menu's indicator (the bottom edge)
            // at menuHeight − height − insets.bottom + insets.top; a bottom menu's at insets.bottom.
            let y = edge == .bottom ? menu.height - indicator.height - indicator.insets.bottom + indicator.insets.top : indicator.insets.bottom
            self.indicator = Rect(x: tween(from.x, to.x, fraction), y: y, width: tween(from.width, to.width, fraction), height: indicator.height)
        } else {
            self.indicator = nil
        }
        if let border = menu.border {
            // PagingBorderLayoutAttributes: from insets.left to max(bounds, content) − insets.right.
            let y = menu.position == .top ? menu.height - border.height : 0
            self.border = Rect(x: border.insets.left, y: y,
                               width: Swift.max(0, Swift.max(width, now.contentWidth) - border.insets.left - border.insets.right), height: border.height)
        } else {
            self.border = nil
        }
    }

    /// One layout pass of the items for a transition state (Parchment's `createLayoutAttributes`).
    struct Pass {
        var frames: [Rect]
        var contentWidth: Double
        /// The items' selected widths, for the indicator while scrolling.
        var selectedWidths: [Double]
        var current: Int
        var upcoming: Int?

        /// O(items).
        init(_ menu: MenuSettings, natural: [(normal: Double, selected: Double)], width: Double, sizeDelegate: Bool,
             current: Int, upcoming: Int?, fraction: Double) {
            let n = natural.count
            let spacing = menu.itemSpacing
            let insets = menu.insets
            self.current = current
            self.upcoming = upcoming
            var widths = natural
            if case .sizeToFit = menu.itemSize, !sizeDelegate, n > 0 {
                let used = insets.left + insets.right + natural.reduce(0) { $0 + $1.normal } + spacing * Double(n - 1)
                if used < width {
                    let share = (width - used) / Double(n)
                    widths = widths.map { ($0.normal + share, $0.selected + share) }
                }
            }
            selectedWidths = widths.map(\.selected)
            var frames: [Rect] = []
            frames.reserveCapacity(n)
            var x = insets.left
            for (i, w) in widths.enumerated() {
                var itemWidth = w.normal
                if i == current { itemWidth = tween(w.selected, w.normal, fraction) }
                if i == upcoming { itemWidth = tween(w.normal, w.selected, fraction) }
                itemWidth = Swift.max(0, itemWidth)
                frames.append(Rect(x: x, y: insets.top, width: itemWidth, height: menu.itemSize.height))
                x += itemWidth + spacing
            }
            var extent = n > 0 ? frames[n - 1].maxX + insets.right : insets.left + insets.right
            if extent < width, menu.horizontalAlignment != .left {
                let shift = menu.horizontalAlignment == .center ? (width - extent) / 2 : width - extent
                frames = frames.map { Rect(x: $0.minX + shift, y: $0.minY, width: $0.size.width, height: $0.size.height) }
                extent += shift
            }
            if menu.selectedScrollPosition == .center, n > 0 {
                let padLeft = width / 2 - frames[0].size.width / 2
                let padRight = width / 2 - frames[n - 1].size.width / 2
                frames = frames.map { Rect(x: $0.minX + padLeft, y: $0.minY, width: $0.size.width, height: $0.size.height) }
                extent += padLeft + padRight
            }
            self.frames = frames
            contentWidth = extent
        }

        /// Where selecting item `i` scrolls the menu (UICollectionView's `selectItem` with
        /// Parchment's scroll position), clamped to 0…max(0, content − width). O(1).
        func offset(showing i: Int, _ position: MenuSettings.ScrollPosition, width: Double) -> Double {
            let f = frames[i]
            let raw: Double
            switch position {
            case .left: raw = f.minX
            case .right: raw = f.maxX - width
            case .center, .preferCentered: raw = f.minX + f.size.width / 2 - width / 2
            }
            return Swift.min(Swift.max(raw, 0), Swift.max(0, contentWidth - width))
        }

        /// Item `i`'s frame for the indicator (Parchment's `indicatorFrameForIndex`): −1 and n
        /// are the first and last frames moved one width out; while scrolling, the current and
        /// upcoming items are taken at their selected widths. O(1).
        func indicatorFrame(_ i: Int, selectedWidths useSelected: Bool) -> Rect {
            let n = frames.count
            if i < 0 {
                let f = frames[0]
                return Rect(x: f.minX - f.size.width, y: f.minY, width: f.size.width, height: f.size.height)
            }
            if i > n - 1 {
                let f = frames[n - 1]
                return Rect(x: f.maxX, y: f.minY, width: f.size.width, height: f.size.height)
            }
            var f = frames[i]
            if useSelected, i == current || i == upcoming { f.size.width = selectedWidths[i] }
            return f
        }

        /// Parchment's `PagingIndicatorMetric` for item `i`: the frame less the indicator's
        /// spacing, where the first item (and a single one) takes the larger of `insets.left`
        /// and `spacing.left`, and the last (and the virtual one after it) the larger of
        /// `insets.right` and `spacing.right`. A frame narrower than those gives an empty
        /// indicator (width 0 at the same x), never a negative width. O(1).
        func indicatorMetric(_ i: Int, _ indicator: MenuSettings.Indicator, selectedWidths: Bool) -> (x: Double, width: Double) {
            let n = frames.count
            let f = indicatorFrame(i, selectedWidths: selectedWidths)
            let s = indicator.spacing
            let inset = indicator.insets
            let left = i == 0 ? Swift.max(inset.left, s.left) : s.left
            let right = i >= n - 1 ? Swift.max(inset.right, s.right) : s.right
            return (f.minX + left, Swift.max(0, f.size.width - left - right))
        }
    }
}

/// The value a fraction `t` of the way from `a` to `b`.
func tween(_ a: Double, _ b: Double, _ t: Double) -> Double {
    a + (b - a) * t
}
