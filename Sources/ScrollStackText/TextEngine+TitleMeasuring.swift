import ScrollStackCore

/// The text engine measures menu titles as it measures a text node that does not wrap: the
/// widest line of the title set in the font (shaped, kerned, ceiled to 1/64 pt), cached like
/// any paragraph. `unavailable` is `TextMeasuring`'s.
extension TextEngine: TitleMeasuring {
    public func width(of text: String, font: FontRequest) -> Double {
        lines(of: TextContent(text, font: font), width: nil).widestLine
    }
}
