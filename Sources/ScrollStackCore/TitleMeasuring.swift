/// Measures the width of a menu item's title label: the seam a text engine plugs into.
/// Without one, titled rows must give their item width themselves when the menu sizes items
/// to their titles (`sizeToFit`, `selfSizing`).
public protocol TitleMeasuring: Sendable {
    /// The width in points of `text` set in `font` without wrapping (its widest line when it
    /// holds `\n`). Must be pure: the same text and font always give the same width.
    func width(of text: String, font: FontRequest) -> Double

    /// Why `font` cannot be measured (e.g. an unknown family, listing the known ones), or nil.
    func unavailable(_ font: FontRequest) -> String?
}
