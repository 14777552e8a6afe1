/// Parchment's infinite data source: which items around a selected one fill a menu of a given
/// width (`PagingController.generateItems(around:)`), and what is missing when there are too few.
public struct MenuWindow: Sendable, Hashable {
    /// Indexes of the items before the selected one, in order.
    public var before: [Int]
    /// Indexes of the items after the selected one, in order.
    public var after: [Int]
    /// The width still to fill before (after) the selected item when the items ran out.
    public var missingWidthBefore: Double
    public var missingWidthAfter: Double
    /// How many more items of the selected item's width (plus spacing) that is, rounded up.
    public var missingBefore: Int
    public var missingAfter: Int

    /// Takes items before `around` until `width` is used up (each costs its width plus
    /// `spacing`); then items after it until `width` plus what was left before is used up;
    /// then, if the after side ran out with room left, more items before for that room.
    /// What stays unfilled on each side is reported as missing.
    ///
    /// - Complexity: O(items taken).
    public init(widths: [Double], around: Int, width: Double, spacing: Double) {
        var before: [Int] = []
        var after: [Int] = []
        // `before` is gathered nearest first and reversed at the end, so taking k items costs O(k).
        var i = around - 1
        var widthBefore = width
        while widthBefore > 0, i >= 0 {
            widthBefore -= widths[i] + spacing
            before.append(i)
            i -= 1
        }
        let missingBefore = i < 0 ? Swift.max(0, widthBefore) : 0
        var widthAfter = width + widthBefore
        var j = around + 1
        while widthAfter > 0, j < widths.count {
            widthAfter -= widths[j] + spacing
            after.append(j)
            j += 1
        }
        var remaining = widthAfter
        while remaining > 0, i >= 0 {
            remaining -= widths[i] + spacing
            before.append(i)
            i -= 1
        }
        self.before = before.reversed()
        self.after = after
        missingWidthBefore = missingBefore
        missingWidthAfter = j >= widths.count ? Swift.max(0, widthAfter) : 0
        let unit = (around >= 0 && around < widths.count ? widths[around] : 0) + spacing
        self.missingBefore = Self.itemCount(missingWidthBefore, unit: unit)
        self.missingAfter = Self.itemCount(missingWidthAfter, unit: unit)
    }

    /// The most items a missing width is counted as: 2⁵³, the largest count a JSON number
    /// holds exactly (a tiny item width and spacing would otherwise overflow `Int`).
    public static let maximumMissingItems = 1 << 53

    /// How many items of `unit` cover `width`, rounded up, at most `maximumMissingItems`;
    /// 0 when the unit is 0. O(1).
    static func itemCount(_ width: Double, unit: Double) -> Int {
        guard unit > 0 else { return 0 }
        let count = (width / unit).rounded(.up)
        return count < Double(maximumMissingItems) ? Int(count) : maximumMissingItems
    }
}
