/// Measures the width of a menu item's title label: the seam a text engine plugs into.
/// Without one, titled rows must give their item width themselves when the menu sizes items
/// to their titles (`sizeToFit`, `selfSizing`).
public protocol TitleMeasuring: Sendable {
    /// The width in points of `text` on one line, in the menu's title font.
    func width(of text: String) -> Double
}
