import ScrollStackCore

/// The paging menu's geometry (seed 000, Parchment's `PagingCollectionViewLayout`), in menu
/// content coordinates: x from the menu content's left edge, y from the menu's top.
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
    /// item `selected` (the current page, clamped to the items) selected.
    ///
    /// - Item widths: the natural widths; with `sizeToFit`, when the items and insets are
    ///   narrower than the menu, each gains an equal share of the rest. Between items k and
    ///   k+1 (k = ⌊progress⌋, fraction f) item k is tween(selected, normal, f) wide and item
    ///   k+1 tween(normal, selected, f); before the first (after the last) item that item keeps
    ///   its selected width.
    /// - Items run from `insets.left`, `itemSpacing` apart, at y `insets.top`. When they end
    ///   before the menu's width, `center` and `right` alignment shift them all right by half
    ///   or all of the room left. The content runs to the last item's right edge plus
    ///   `insets.right`.
    /// - The content offset is tween(offset(k), offset(k+1), f), where offset(i) puts item i's
    ///   frame at the left (`left`: its left edge after `insets.left`), right (`right`) or
    ///   centre (`center`, `preferCentered`); all but `center` are clamped to the content.
    /// - The indicator goes from item k's metrics to item k+1's by f: an item's frame less
    ///   `spacing` left and right, less `insets.left` for the first item and `insets.right`
    ///   for the last. Outside the items, virtual frames continue the row: the first item's
    ///   frame moved one width left, the last one's one width right (Parchment's).
    ///
    /// - Complexity: O(items).
    public init(_ menu: MenuSettings, entries: [Entry], width: Double, progress: Double, selected: Int, measurer: (any TitleMeasuring)?) {
        let n = entries.count
        var widths = Self.naturalWidths(entries, menu, measurer: measurer)
        let spacing = menu.itemSpacing
        let insets = menu.insets
        if case .sizeToFit = menu.itemSize, n > 0 {
            let natural = insets.left + insets.right + widths.reduce(0) { $0 + $1.normal } + spacing * Double(n - 1)
            if natural < width {
                let share = (width - natural) / Double(n)
                widths = widths.map { ($0.normal + share, $0.selected + share) }
            }
        }
        // Which two items the pages are between, and how far; -1 and n are the virtual items.
        var from = 0
        var to = 0
        var fraction = 0.0
        if n > 0 {
            if progress < 0 {
                (from, to, fraction) = (0, -1, -progress)
            } else if progress > Double(n - 1) {
                (from, to, fraction) = (n - 1, n, progress - Double(n - 1))
            } else {
                from = Int(progress.rounded(.down))
                fraction = progress - Double(from)
                to = fraction > 0 ? from + 1 : from
            }
        }
        let toIsReal = to != from && to >= 0 && to < n

        var x = insets.left
        var frames: [Rect] = []
        frames.reserveCapacity(n)
        for (i, w) in widths.enumerated() {
            var itemWidth = w.normal
            if i == from { itemWidth = toIsReal ? tween(w.selected, w.normal, fraction) : w.selected }
            if i == to && toIsReal { itemWidth = tween(w.normal, w.selected, fraction) }
            frames.append(Rect(x: x, y: insets.top, width: itemWidth, height: menu.itemSize.height))
            x += itemWidth + spacing
        }
        var extent = n > 0 ? frames[n - 1].maxX + insets.right : insets.left + insets.right
        if extent < width, menu.horizontalAlignment != .left {
            let shift = menu.horizontalAlignment == .center ? (width - extent) / 2 : width - extent
            frames = frames.map { Rect(x: $0.minX + shift, y: $0.minY, width: $0.size.width, height: $0.size.height) }
            extent += shift
        }
        items = zip(entries, frames).map { Item(id: $0.id, frame: $1) }
        contentSize = Size(width: extent, height: menu.height)
        self.selected = n > 0 ? Swift.min(Swift.max(selected, 0), n - 1) : nil

        func frame(_ i: Int) -> Rect {
            if i < 0 { return Rect(x: frames[0].minX - frames[0].size.width, y: frames[0].minY, width: frames[0].size.width, height: frames[0].size.height) }
            if i >= n { return Rect(x: frames[n - 1].maxX, y: frames[n - 1].minY, width: frames[n - 1].size.width, height: frames[n - 1].size.height) }
            return frames[i]
        }
        func offset(_ i: Int) -> Double {
            let f = frame(i)
            let raw: Double
            switch menu.selectedScrollPosition {
            case .left: raw = f.minX - insets.left
            case .right: raw = f.maxX + insets.right - width
            case .center, .preferCentered: raw = f.minX + f.size.width / 2 - width / 2
            }
            if menu.selectedScrollPosition == .center { return raw }
            return Swift.min(Swift.max(raw, 0), Swift.max(0, extent - width))
        }
        contentOffset = n > 0 ? tween(offset(from), offset(to), fraction) : 0

        if let indicator = menu.indicator, n > 0 {
            func metric(_ i: Int) -> (x: Double, width: Double) {
                let f = frame(i)
                var x = f.minX + indicator.spacing.left
                var w = f.size.width - indicator.spacing.left - indicator.spacing.right
                if i == 0 { x += indicator.insets.left; w -= indicator.insets.left }
                if i == n - 1 { w -= indicator.insets.right }
                return (x, Swift.max(0, w))
            }
            let a = metric(from)
            let b = metric(to)
            let edge = indicator.position ?? (menu.position == .top ? .bottom : .top)
            let y = edge == .bottom ? menu.height - indicator.height - indicator.insets.bottom : indicator.insets.top
            self.indicator = Rect(x: tween(a.x, b.x, fraction), y: y, width: tween(a.width, b.width, fraction), height: indicator.height)
        } else {
            self.indicator = nil
        }
        if let border = menu.border {
            let y = menu.position == .top ? menu.height - border.height : 0
            self.border = Rect(x: border.insets.left, y: y,
                               width: Swift.max(0, Swift.max(width, extent) - border.insets.left - border.insets.right), height: border.height)
        } else {
            self.border = nil
        }
    }
}

/// The value a fraction `t` of the way from `a` to `b`.
func tween(_ a: Double, _ b: Double, _ t: Double) -> Double {
    a + (b - a) * t
}
