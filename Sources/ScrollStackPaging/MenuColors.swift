import ScrollStackCore

/// The colour rule of the menu's title cells (Parchment's `PagingTitleCell`): an item's title
/// and background colours follow how selected the item is, from 0 (the normal colours) to 1
/// (the selected ones).
public enum MenuColors {
    /// The colour `fraction` of the way from `from` to `to` (both `#RRGGBBAA` or `#RRGGBB`):
    /// the fraction is clamped to 0…1, and each channel — red, green, blue and alpha, straight
    /// (not premultiplied) — moves linearly, from + (to − from) · fraction, then is rounded to
    /// the nearest of 0…255 (halves away from zero). Answered `#RRGGBBAA` in capitals; a colour
    /// that is not hex counts as opaque black. O(1).
    public static func interpolate(from: String, to: String, fraction: Double) -> String {
        let f = fraction.isNaN ? 0 : Swift.min(1, Swift.max(0, fraction))
        let a = channels(from), b = channels(to)
        var out = "#"
        for k in 0..<4 {
            let value = Double(a[k]) + (Double(b[k]) - Double(a[k])) * f
            out += hex(UInt8(Swift.min(255, Swift.max(0, value.rounded()))))
        }
        return out
    }

    /// An item's title colour at `progress` (its `MenuLayout.Item.progress`).
    public static func text(_ menu: MenuSettings, progress: Double) -> String {
        interpolate(from: menu.textColor, to: menu.selectedTextColor, fraction: progress)
    }

    /// An item's background colour at `progress`.
    public static func background(_ menu: MenuSettings, progress: Double) -> String {
        interpolate(from: menu.backgroundColor, to: menu.selectedBackgroundColor, fraction: progress)
    }

    /// Red, green, blue, alpha of `#RRGGBB` (alpha 255) or `#RRGGBBAA`; opaque black otherwise.
    static func channels(_ text: String) -> [UInt8] {
        let digits = Array(text.utf8.dropFirst())
        guard text.utf8.first == UInt8(ascii: "#"), digits.count == 6 || digits.count == 8 else { return [0, 0, 0, 255] }
        var out: [UInt8] = []
        for k in stride(from: 0, to: digits.count, by: 2) {
            guard let value = UInt8(String(decoding: digits[k..<k + 2], as: UTF8.self), radix: 16) else { return [0, 0, 0, 255] }
            out.append(value)
        }
        if out.count == 3 { out.append(255) }
        return out
    }

    private static func hex(_ value: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(value >> 4)], digits[Int(value & 15)]])
    }
}
